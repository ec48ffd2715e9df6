import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlockParam, MessageCreateParamsNonStreaming, ToolResultBlockParam, ToolUseBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { AnthropicAdapterError, countAnthropicCacheMarkers, parseToolArguments, toAnthropicMessages } from "../../src/providers/anthropicAdapter.js";
import { applyAnthropicCacheControl } from "../../src/caching/anthropicCacheControl.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const MODEL = "claude-sonnet-4-5";
const EPHEMERAL = { type: "ephemeral" };

function agentConversation(): ChatMessage[] {
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Run the tests and read the config." },
    {
      role: "assistant",
      content: "Running both.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "bash", arguments: '{"cmd":"pytest -q"}' } },
        { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"setup.cfg"' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "2 passed" },
    { role: "tool", tool_call_id: "call_2", content: "[metadata]\nname = demo" },
    { role: "user", content: "Good. Now summarise." },
    { role: "assistant", content: "" },
    { role: "assistant", content: "All tests pass; the package is called demo." },
  ];
}

describe("toAnthropicMessages — structure", () => {
  const params = toAnthropicMessages(agentConversation(), { model: MODEL, maxTokens: 1024 });

  it("moves system messages into system text blocks", () => {
    expect(params.system).toEqual([{ type: "text", text: "You are a coding agent." }]);
    expect(params.messages.every((m) => m.role !== "system")).toBe(true);
    expect(params).toMatchObject({ model: MODEL, max_tokens: 1024 });
  });

  it("turns tool_calls into tool_use blocks with parsed JSON input, and unparseable arguments into {_raw}", () => {
    const assistant = params.messages[1];
    expect(assistant?.role).toBe("assistant");
    expect(assistant?.content).toEqual([
      { type: "text", text: "Running both." },
      { type: "tool_use", id: "call_1", name: "bash", input: { cmd: "pytest -q" } },
      { type: "tool_use", id: "call_2", name: "read_file", input: { _raw: '{"path":"setup.cfg"' } },
    ]);
  });

  it("puts tool results as tool_result blocks into one user turn, merged with the following user text", () => {
    expect(params.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "call_1", content: "2 passed" },
        { type: "tool_result", tool_use_id: "call_2", content: "[metadata]\nname = demo" },
        { type: "text", text: "Good. Now summarise." },
      ],
    });
  });

  it("skips empty assistant text and merges consecutive assistant turns", () => {
    expect(params.messages).toHaveLength(4);
    expect(params.messages[3]).toEqual({ role: "assistant", content: [{ type: "text", text: "All tests pass; the package is called demo." }] });
  });

  it("alternates roles after merging", () => {
    const roles = params.messages.map((m) => m.role);
    roles.slice(1).forEach((role, i) => expect(role).not.toBe(roles[i]));
  });

  it("keeps pairs: every tool_use is answered by a tool_result in the next user turn", () => {
    params.messages.forEach((turn, i) => {
      if (typeof turn.content === "string") return;
      const blocks: ContentBlockParam[] = turn.content;
      const uses = blocks.filter((b): b is ToolUseBlockParam => b.type === "tool_use");
      if (uses.length === 0) return;
      const next = params.messages[i + 1];
      expect(next?.role).toBe("user");
      const nextBlocks: ContentBlockParam[] = typeof next?.content === "string" ? [] : (next?.content ?? []);
      const results = nextBlocks.filter((b): b is ToolResultBlockParam => b.type === "tool_result");
      expect(results.map((r) => r.tool_use_id).sort()).toEqual(uses.map((u) => u.id).sort());
    });
  });

  it("does not mutate its input", () => {
    const input = applyAnthropicCacheControl(agentConversation(), { nativeAnthropic: true });
    const snapshot = structuredClone(input);
    toAnthropicMessages(input, { model: MODEL, maxTokens: 10 });
    expect(input).toEqual(snapshot);
  });
});

describe("toAnthropicMessages — cache markers", () => {
  it("carries the system marker and moves a tool message's top-level marker onto its tool_result block", () => {
    const marked = applyAnthropicCacheControl(agentConversation().slice(0, 5), { nativeAnthropic: true });
    const params = toAnthropicMessages(marked, { model: MODEL, maxTokens: 64 });
    expect(params.system).toEqual([{ type: "text", text: "You are a coding agent.", cache_control: EPHEMERAL }]);
    const toolTurn = params.messages[2]?.content as ToolResultBlockParam[];
    expect(toolTurn[0]).toEqual({ type: "tool_result", tool_use_id: "call_1", content: "2 passed", cache_control: EPHEMERAL });
    expect(toolTurn[1]).toEqual({ type: "tool_result", tool_use_id: "call_2", content: "[metadata]\nname = demo", cache_control: EPHEMERAL });
    expect(countAnthropicCacheMarkers(params)).toBe(4);
  });

  it("moves an empty assistant's top-level marker onto its last tool_use block", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "ls", arguments: "" } }], cache_control: { type: "ephemeral", ttl: "1h" } },
      { role: "tool", tool_call_id: "t1", content: "a.txt" },
    ];
    const params = toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 });
    expect(params.messages[1]?.content).toEqual([{ type: "tool_use", id: "t1", name: "ls", input: {}, cache_control: { type: "ephemeral", ttl: "1h" } }]);
  });

  it("carries the marker of a message that yields no block onto the block before it", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "question" },
      { role: "assistant", content: "", cache_control: { type: "ephemeral" } },
    ];
    const params = toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 });
    expect(params.messages).toEqual([{ role: "user", content: [{ type: "text", text: "question", cache_control: EPHEMERAL }] }]);
  });

  it("keeps part-level markers on user text", () => {
    const marked = applyAnthropicCacheControl([{ role: "user", content: "hello" }], { nativeAnthropic: true });
    const params = toAnthropicMessages(marked, { model: MODEL, maxTokens: 64 });
    expect(params.messages[0]?.content).toEqual([{ type: "text", text: "hello", cache_control: EPHEMERAL }]);
  });

  it("never emits more than 4 markers, keeping the first and the latest", () => {
    const messages: ChatMessage[] = [{ role: "system", content: "sys", cache_control: { type: "ephemeral" } }];
    for (let i = 0; i < 8; i += 1) messages.push({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}`, cache_control: { type: "ephemeral" } });
    const params = toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 });
    expect(countAnthropicCacheMarkers(params)).toBe(4);
    expect(params.system).toEqual([{ type: "text", text: "sys", cache_control: EPHEMERAL }]);
    const markedTexts = params.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content)).filter((b) => "cache_control" in b && b.cache_control).map((b) => (b as { text: string }).text);
    expect(markedTexts).toEqual(["m5", "m6", "m7"]);
  });

  it("counts and caps markers on text parts nested in tool results (the envelope placement), never more than 4", () => {
    const messages: ChatMessage[] = [{ role: "system", content: "sys" }, { role: "user", content: "go" }];
    for (let i = 0; i < 5; i += 1) {
      messages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "f", arguments: "{}" } }] });
      messages.push({ role: "tool", tool_call_id: `c${i}`, content: [{ type: "text", text: `r${i}`, cache_control: { type: "ephemeral" } }] });
    }
    const params = toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 });
    const onWire = JSON.stringify(params).split('"cache_control"').length - 1;
    expect(onWire).toBe(4);
    expect(countAnthropicCacheMarkers(params)).toBe(4);
    const results = params.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content)).filter((b): b is ToolResultBlockParam => b.type === "tool_result");
    const kept = results.filter((r) => Array.isArray(r.content) && r.content.some((c) => "cache_control" in c && c.cache_control)).map((r) => r.tool_use_id);
    expect(kept).toEqual(["c0", "c2", "c3", "c4"]);
  });

  it("converts data-URL and http images into image blocks", () => {
    const params = toAnthropicMessages(
      [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K" } }, { type: "image_url", image_url: { url: "https://example.com/a.jpg" } }] }],
      { model: MODEL, maxTokens: 64 },
    );
    expect(params.messages[0]?.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
      { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } },
    ]);
  });
});

describe("toAnthropicMessages — bad input", () => {
  it("names the message of a tool call that has no result", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "lost", type: "function", function: { name: "ls", arguments: "{}" } }] },
      { role: "user", content: "hello?" },
    ];
    expect(() => toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 })).toThrow(AnthropicAdapterError);
    expect(() => toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 })).toThrow(/messages\[1\]: tool call lost \(ls\) has no tool result/);
  });

  it("names the message of a tool result whose call is missing", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "tool", tool_call_id: "ghost", content: "x" },
    ];
    expect(() => toAnthropicMessages(messages, { model: MODEL, maxTokens: 64 })).toThrow(/messages\[1\]: tool result for ghost does not follow/);
  });

  it("names a tool message without tool_call_id", () => {
    expect(() => toAnthropicMessages([{ role: "tool", content: "x" }], { model: MODEL, maxTokens: 64 })).toThrow(/messages\[0\]: tool message has no tool_call_id/);
  });
});

describe("parseToolArguments", () => {
  it("parses JSON objects, maps empty arguments to {} and wraps everything else in _raw", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("  ")).toEqual({});
    expect(parseToolArguments("[1,2]")).toEqual({ _raw: "[1,2]" });
    expect(parseToolArguments("not json")).toEqual({ _raw: "not json" });
  });
});

describe("toAnthropicMessages — accepted by @anthropic-ai/sdk", () => {
  let server: Server;
  let baseURL = "";
  const received: Array<{ url: string | undefined; headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        received.push({ url: req.url, headers: req.headers, body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "msg_local",
            type: "message",
            role: "assistant",
            model: MODEL,
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 3000 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends the adapted request as valid JSON with the expected structure", async () => {
    const marked = applyAnthropicCacheControl(agentConversation(), { nativeAnthropic: true, ttl: "1h" });
    const params: MessageCreateParamsNonStreaming = toAnthropicMessages(marked, {
      model: MODEL,
      maxTokens: 256,
      tools: [{ type: "function", function: { name: "bash", description: "Run a shell command", parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } } }],
    });
    const client = new Anthropic({ baseURL, apiKey: "x", maxRetries: 0 });
    const response = await client.messages.create(params);
    expect(response.usage.cache_read_input_tokens).toBe(3000);

    const last = received[received.length - 1];
    expect(last?.url).toBe("/v1/messages");
    expect(last?.headers["content-type"]).toBe("application/json");
    expect(last?.headers["anthropic-version"]).toBeTruthy();
    const body = JSON.parse(last?.body ?? "") as Record<string, unknown>;
    expect(body).toEqual(JSON.parse(JSON.stringify(params)));
    expect(body.system).toEqual([{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral", ttl: "1h" } }]);
    expect(body.tools).toEqual([{ name: "bash", description: "Run a shell command", input_schema: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } }]);
    expect((body.messages as unknown[]).length).toBe(4);
    // 4 breakpoints were placed; the one on the empty assistant message caches the same prefix as the
    // user text before it, which already carries one, so 3 reach the wire.
    expect(JSON.stringify(body).match(/"cache_control"/g)).toHaveLength(3);
  });
});
