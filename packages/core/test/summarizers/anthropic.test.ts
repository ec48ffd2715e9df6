import { describe, expect, it } from "vitest";
import { AnthropicSummarizer, type AnthropicSummarizerOptions } from "../../src/summarizers/anthropic.js";
import { classifySummaryFailure, type SummaryFailure } from "../../src/summarizers/failures.js";
import { SUMMARY_SECTIONS, type SummaryModelCall, type SummaryRequest } from "../../src/summarizers/types.js";
import { useAnthropicFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { summaryLadderCases } from "../../../../test/support/summaryLadderCases.js";
import { FASTAPI_CONVERSATION } from "./conversation.js";

const server = useAnthropicFixtureServer();

function summarizer(options: Partial<AnthropicSummarizerOptions> = {}): AnthropicSummarizer {
  return new AnthropicSummarizer({ apiKey: "sk-ant-test-key-000", baseUrl: server.current.origin, model: "claude-haiku-4-5", timeoutMs: 5_000, ...options });
}

const request: SummaryRequest = {
  messages: [...FASTAPI_CONVERSATION, { role: "user", content: "Deploy with ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" }],
  maxTokens: 2_000,
};

async function failureOf(run: Promise<string>): Promise<SummaryFailure> {
  try {
    await run;
  } catch (error) {
    return classifySummaryFailure(error);
  }
  throw new Error("expected the summarizer to fail");
}

describe("AnthropicSummarizer against a loopback Messages API", () => {
  it("posts one user message with the redacted prompt, the key and a max_tokens of twice the budget, and reports the call with the API's tokens and model", async () => {
    server.current.script({ kind: "reply", reply: { content: "## Goal\n- build the API", usage: { prompt_tokens: 900, completion_tokens: 40 }, model: "claude-haiku-4-5-20251001" } });
    const calls: SummaryModelCall[] = [];
    const summary = await summarizer().summarize({ ...request, onModelCall: (call) => calls.push(call) });
    const sent = server.current.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers.authorization).toBe("Bearer sk-ant-test-key-000");
    expect(sent.headers["anthropic-version"]).toBeDefined();
    expect(sent.body).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 4_000 });
    expect(sent.body).not.toHaveProperty("system");
    expect(sent.body.messages).toHaveLength(1);
    expect(sent.body.messages[0].content).toContain("[USER]: Help me set up a FastAPI project");
    expect(sent.body.messages[0].content).not.toContain("sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789");
    expect(summary.startsWith("## Goal\n- build the API")).toBe(true);
    for (const heading of SUMMARY_SECTIONS) expect(summary).toContain(heading);
    expect(calls).toEqual([{ model: "claude-haiku-4-5-20251001", inputTokens: 900, outputTokens: 40 }]);
  });

  it("names itself after its model and takes a base URL with or without /v1", async () => {
    expect(summarizer().name).toBe("anthropic:claude-haiku-4-5");
    await summarizer({ baseUrl: `${server.current.origin}/v1/` }).summarize(request);
    expect(server.current.requests[0]!.path).toBe("/v1/messages");
  });

  it("caps max_tokens at 8,192 for a large budget", async () => {
    await summarizer().summarize({ ...request, maxTokens: 20_000 });
    expect(server.current.requests[0]!.body.max_tokens).toBe(8_192);
  });

  it.each([
    [{ kind: "status", status: 401 } as const, "abort", "auth"],
    [{ kind: "status", status: 403 } as const, "abort", "auth"],
    [{ kind: "status", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "Your credit balance is too low to access the Anthropic API." } } } as const, "abort", "quota"],
    [{ kind: "status", status: 529 } as const, "fallback", "server"],
    [{ kind: "garbage" } as const, "fallback", "malformed"],
    [{ kind: "reset" } as const, "abort", "network"],
    [{ kind: "empty" } as const, "fallback", "empty"],
  ])("classifies %o for the ladder", async (step, action, kind) => {
    server.current.script(step);
    expect(await failureOf(summarizer().summarize(request))).toMatchObject({ action, kind });
  });

  it("does not retry a spent credit balance even when it asks to wait", async () => {
    server.current.script({ kind: "status", status: 429, headers: { "retry-after": "0" }, body: { type: "error", error: { type: "rate_limit_error", message: "credit balance exhausted" } } });
    expect(await failureOf(summarizer().summarize(request))).toMatchObject({ kind: "quota" });
    expect(server.current.requests).toHaveLength(1);
  });

  it("tries the fallback model once on the same endpoint after the summary model fails", async () => {
    server.current.script({ kind: "status", status: 500 }, { kind: "success", content: "## Goal\n- from the main model" });
    const summary = await summarizer({ fallbackModel: "claude-sonnet-4-6" }).summarize(request);
    expect(server.current.requests.map((r) => r.body.model)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-6"]);
    expect(summary).toContain("- from the main model");
  });

  it("stops a hanging call when the caller aborts, as a cancellation", async () => {
    server.current.script({ kind: "hang" });
    const controller = new AbortController();
    const run = summarizer().summarize(request, controller.signal);
    while (server.current.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await failureOf(run)).toMatchObject({ action: "abort", kind: "aborted" });
  });
});

describe("AnthropicSummarizer through the compressor's failure ladder", () => {
  summaryLadderCases({ server, summarizer: ({ timeoutMs }) => summarizer({ timeoutMs }), name: "anthropic:claude-haiku-4-5", model: "claude-haiku-4-5" });
});
