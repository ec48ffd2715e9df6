import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import type { ResponseOutputItem } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it } from "vitest";
import {
  foldCompactionItems,
  isNativeCompactionRefusal,
  nativeCompactionField,
  nativeCompactionRoute,
  NativeCompactionState,
  replayItemsFor,
  sendWithNativeCompaction,
  type AssistantReplayMetadata,
} from "../../src/codex/responsesCompaction.js";

const on = { codex_responses_native: true, codex_responses_compact_threshold: 200_000 };
const fieldFor = (model: string, baseUrl: string | undefined, provider?: string) =>
  nativeCompactionField({ model, baseUrl, provider, config: on, localThresholdTokens: 231_200 });

describe("nativeCompactionField eligibility", () => {
  it.each([
    ["gpt-5.6-sol", "https://api.openai.com/v1", undefined],
    ["gpt-5.6-terra", "https://chatgpt.com/backend-api/codex", undefined],
    ["gpt-5.6-luna-900k", undefined, "openai-codex"],
    ["gpt-5.6", undefined, "openai"],
  ] as const)("sends the field for %s on %s", (model, baseUrl, provider) => {
    expect(fieldFor(model, baseUrl, provider)).toEqual({ context_management: [{ type: "compaction", compact_threshold: 200_000 }] });
  });

  it.each(["gpt-5.1", "gpt-5.2", "gpt-5.2-codex", "gpt-5.5", "gpt-5.4", "gpt-5.60"])("never sends it for %s, even on OpenAI", (model) => {
    expect(fieldFor(model, "https://api.openai.com/v1")).toBeUndefined();
    expect(fieldFor(model, "https://chatgpt.com/backend-api/codex")).toBeUndefined();
  });

  it.each([
    ["OpenRouter", "https://openrouter.ai/api/v1"],
    ["xAI", "https://api.x.ai/v1"],
    ["Copilot", "https://api.githubcopilot.com"],
    ["a relay", "https://my-relay.example.com/v1"],
    ["a look-alike host", "https://api.openai.com.evil.example/v1"],
    ["localhost", "http://localhost:8080/v1"],
    ["127.0.0.1", "http://127.0.0.1:11434/v1"],
    ["plain http to OpenAI", "http://api.openai.com/v1"],
    ["another chatgpt.com path", "https://chatgpt.com/backend-api/other"],
    ["a broken URL", "not a url"],
  ])("never sends it to %s", (_name, baseUrl) => {
    expect(fieldFor("gpt-5.6-sol", baseUrl)).toBeUndefined();
  });

  it("needs a base URL or a provider with a known default", () => {
    expect(fieldFor("gpt-5.6-sol", undefined, "openrouter")).toBeUndefined();
    expect(fieldFor("gpt-5.6-sol", undefined)).toBeUndefined();
    expect(nativeCompactionRoute(undefined, "openai-codex")).toBe("codex_backend");
    expect(nativeCompactionRoute("https://api.openai.com/v1/", "openrouter")).toBe("openai_api");
  });

  it("stays off unless codex_responses_native is true", () => {
    const config = { ...on, codex_responses_native: false };
    expect(nativeCompactionField({ model: "gpt-5.6-sol", baseUrl: "https://api.openai.com/v1", config, localThresholdTokens: 231_200 })).toBeUndefined();
  });

  it("keeps the server threshold 8,000 tokens below the local trigger when that is lower", () => {
    const field = nativeCompactionField({ model: "gpt-5.6-sol", baseUrl: "https://api.openai.com/v1", config: on, localThresholdTokens: 136_000 });
    expect(field?.context_management[0]?.compact_threshold).toBe(128_000);
  });

  it("sends nothing when the offset threshold would not be positive", () => {
    expect(nativeCompactionField({ model: "gpt-5.6-sol", baseUrl: "https://api.openai.com/v1", config: on, localThresholdTokens: 8_000 })).toBeUndefined();
  });

  it("sends nothing once the session disabled native compaction", () => {
    const state = new NativeCompactionState();
    state.disabled = true;
    expect(nativeCompactionField({ model: "gpt-5.6-sol", baseUrl: "https://api.openai.com/v1", config: on, localThresholdTokens: 231_200, state })).toBeUndefined();
  });
});

describe("compaction items in replay metadata", () => {
  const compaction: ResponseOutputItem = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-opaque" };
  const message: ResponseOutputItem = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "done", annotations: [] }],
  };
  const start: AssistantReplayMetadata = { issuer: "https://chatgpt.com/backend-api/codex", items: [] };

  it("folds the opaque compaction item into the assistant's replay metadata without mutating it", () => {
    const folded = foldCompactionItems(start, [message, compaction]);
    expect(folded.items).toEqual([{ type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-opaque" }]);
    expect(start.items).toEqual([]);
    expect(foldCompactionItems(folded, [compaction]).items).toHaveLength(1);
  });

  it("replays the items to the endpoint that issued them", () => {
    const folded = foldCompactionItems(start, [compaction]);
    expect(replayItemsFor("https://chatgpt.com/backend-api/codex/", folded)).toEqual(folded.items);
  });

  it("drops captured compaction items when the endpoint changed", () => {
    const reasoning = { type: "reasoning" as const, id: "rs_1", summary: [] };
    const folded = foldCompactionItems({ ...start, items: [reasoning] }, [compaction]);
    expect(replayItemsFor("https://api.openai.com/v1", folded)).toEqual([reasoning]);
    expect(replayItemsFor("https://api.openai.com/v1", undefined)).toEqual([]);
  });
});

describe("structured refusal", () => {
  it("recognises a 400 naming context_management and ignores server errors", () => {
    expect(isNativeCompactionRefusal({ status: 400, error: { param: "context_management", message: "Unknown parameter" } })).toBe(true);
    expect(isNativeCompactionRefusal({ status: 400, message: "400 context_management is not supported for this model" })).toBe(true);
    expect(isNativeCompactionRefusal({ status: 500, message: "context_management" })).toBe(false);
    expect(isNativeCompactionRefusal({ status: 400, error: { param: "input", message: "bad input" } })).toBe(false);
    expect(isNativeCompactionRefusal(new Error("socket hang up"))).toBe(false);
  });

  it("disables native compaction for the session after a refusal and asks for a retry once", () => {
    const state = new NativeCompactionState();
    expect(state.shouldRetryWithoutField({ status: 400, param: "context_management", message: "Unsupported parameter" })).toBe(true);
    expect(state.disabled).toBe(true);
    expect(state.disabledReason).toContain("Unsupported parameter");
    expect(state.shouldRetryWithoutField({ status: 400, param: "context_management", message: "again" })).toBe(false);
  });
});

describe("sendWithNativeCompaction against a real Responses endpoint", () => {
  let server: Server | undefined;
  afterEach(async () => {
    const running = server;
    server = undefined;
    if (running) await new Promise<void>((done) => running.close(() => done()));
  });

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    let body = "";
    for await (const chunk of req) body += chunk;
    return JSON.parse(body) as Record<string, unknown>;
  }

  /** A Responses endpoint on 127.0.0.1 that answers with `reply(body)`: [status, json]. */
  async function startServer(reply: (body: Record<string, unknown>) => [number, unknown]): Promise<{ client: OpenAI; bodies: Record<string, unknown>[] }> {
    const bodies: Record<string, unknown>[] = [];
    server = createServer(async (req, res) => {
      const body = await readJson(req);
      bodies.push(body);
      const [status, json] = reply(body);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    });
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    return { client: new OpenAI({ apiKey: "sk-test", baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }), bodies };
  }

  const okResponse = {
    id: "resp_1",
    object: "response",
    created_at: 0,
    status: "completed",
    model: "gpt-5.6-sol",
    output: [{ type: "compaction", id: "cmp_9", encrypted_content: "gAAAA-server" }],
    usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 },
  };
  // The routing decision is made for the real OpenAI host; the transport is the local test server.
  const request = (state: NativeCompactionState) => ({ model: "gpt-5.6-sol", baseUrl: "https://api.openai.com/v1", config: on, localThresholdTokens: 231_200, state });

  it("sends context_management and folds the returned compaction item", async () => {
    const { client, bodies } = await startServer(() => [200, okResponse]);
    const state = new NativeCompactionState();
    const response = await sendWithNativeCompaction({ model: "gpt-5.6-sol", input: "hi", store: false }, request(state), (p) => client.responses.create(p));
    expect(bodies[0]?.context_management).toEqual([{ type: "compaction", compact_threshold: 200_000 }]);
    const folded = foldCompactionItems({ issuer: "https://api.openai.com/v1", items: [] }, response.output);
    expect(folded.items).toEqual([{ type: "compaction", id: "cmp_9", encrypted_content: "gAAAA-server" }]);
  });

  it("retries without the field after a structured refusal and stops sending it for the session", async () => {
    const { client, bodies } = await startServer((body) =>
      "context_management" in body
        ? [400, { error: { message: "Unknown parameter: 'context_management'.", type: "invalid_request_error", param: "context_management", code: "unknown_parameter" } }]
        : [200, okResponse],
    );
    const state = new NativeCompactionState();
    const params = { model: "gpt-5.6-sol", input: "hi", store: false };
    const response = await sendWithNativeCompaction(params, request(state), (p) => client.responses.create(p));
    expect(response.id).toBe("resp_1");
    expect(bodies.map((b) => "context_management" in b)).toEqual([true, false]);
    expect(state.disabled).toBe(true);
    await sendWithNativeCompaction(params, request(state), (p) => client.responses.create(p));
    expect(bodies.map((b) => "context_management" in b)).toEqual([true, false, false]);
  });

  it("passes a server error through without disabling native compaction", async () => {
    const { client, bodies } = await startServer(() => [500, { error: { message: "The server had an error", type: "server_error", param: null, code: null } }]);
    const state = new NativeCompactionState();
    await expect(sendWithNativeCompaction({ model: "gpt-5.6-sol", input: "hi" }, request(state), (p) => client.responses.create(p))).rejects.toMatchObject({ status: 500 });
    expect(bodies).toHaveLength(1);
    expect(state.disabled).toBe(false);
  });
});
