import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startOpenAIFixtureServer } from "../../../../test/support/openaiFixtureServer.js";
import type { FixtureServer } from "../../../../test/support/openaiFixtureServer.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import type { OpenAICompatibleSummarizerOptions } from "../../src/summarizers/openaiCompatible.js";
import { EmptySummaryError, classifySummaryFailure } from "../../src/summarizers/failures.js";
import type { SummaryFailure } from "../../src/summarizers/failures.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import type { SummaryRequest } from "../../src/summarizers/types.js";
import { FASTAPI_CONVERSATION } from "./conversation.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startOpenAIFixtureServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  server.setDefault({ kind: "success", content: "fixture summary" });
});

function summarizer(options: Partial<OpenAICompatibleSummarizerOptions> = {}): OpenAICompatibleSummarizer {
  return new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test-key-for-the-fixture-000", model: "summary-model", ...options });
}

const request: SummaryRequest = {
  messages: [
    ...FASTAPI_CONVERSATION,
    { role: "user", content: "Deploy with OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234567890 and ghp_abcdefghijklmnopqrstuvwxyz0123456789" },
  ],
  maxTokens: 2_000,
};

/** Runs the summarizer and returns how its failure is classified. */
async function failureOf(run: Promise<string>): Promise<SummaryFailure & { error: unknown }> {
  try {
    await run;
  } catch (error) {
    return { ...classifySummaryFailure(error), error };
  }
  throw new Error("expected the summarizer to fail");
}

describe("OpenAICompatibleSummarizer against a real OpenAI-compatible HTTP server", () => {
  it("sends one user message with the prompt, no max_tokens, no tools, no temperature, and secrets redacted", async () => {
    server.script({ kind: "success", content: "## Goal\n- build the API" });
    const summary = await summarizer().summarize(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-test-key-for-the-fixture-000");
    expect(sent.body.model).toBe("summary-model");
    expect(sent.body).not.toHaveProperty("max_tokens");
    expect(sent.body).not.toHaveProperty("tools");
    expect(sent.body).not.toHaveProperty("temperature");
    expect(sent.body.messages).toHaveLength(1);
    expect(sent.body.messages[0].role).toBe("user");
    const prompt: string = sent.body.messages[0].content;
    expect(prompt).toContain("[USER]: Help me set up a FastAPI project");
    expect(prompt).toContain("[Tool calls: terminal(");
    expect(prompt).not.toContain("sk-proj-abcdefghijklmnop1234567890");
    expect(prompt).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(prompt).toContain("[REDACTED]");

    expect(summary.startsWith("## Goal\n- build the API")).toBe(true);
    for (const heading of SUMMARY_SECTIONS) expect(summary).toContain(heading);
  });

  it("names itself after its model", () => {
    expect(summarizer({ model: "gpt-4o-mini" }).name).toBe("openai:gpt-4o-mini");
  });

  it("classifies an HTTP 500 as a server failure that falls back offline", async () => {
    server.script({ kind: "status", status: 500 });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure).toMatchObject({ action: "fallback", kind: "server" });
    expect(server.requests).toHaveLength(1);
  });

  it("classifies an HTTP 401 as an auth failure that aborts the compaction", async () => {
    server.script({ kind: "status", status: 401 });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure).toMatchObject({ action: "abort", kind: "auth" });
  });

  it("classifies an HTTP 429 with insufficient_quota as a quota failure that aborts", async () => {
    server.script({ kind: "status", status: 429, body: { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" } } });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure).toMatchObject({ action: "abort", kind: "quota" });
  });

  it("classifies a request that never answers within the timeout as a timeout that falls back", async () => {
    server.script({ kind: "hang" });
    const failure = await failureOf(summarizer({ timeoutMs: 200 }).summarize(request));
    expect(failure).toMatchObject({ action: "fallback", kind: "timeout" });
  });

  it("counts the response body against the timeout: a body that drips in byte by byte times out and falls back", async () => {
    // ~300 bytes at 200 ms each would take a minute; the 300 ms timeout covers headers and body
    server.script({ kind: "drip", content: "a summary that arrives far too slowly", byteIntervalMs: 200 });
    const failure = await failureOf(summarizer({ timeoutMs: 300 }).summarize(request));
    expect(failure).toMatchObject({ action: "fallback", kind: "timeout" });
    expect(failure.reason).toMatch(/300 ms/);
  });

  it("gives the main model its own bounded try after the configured model's body timed out", async () => {
    server.setDefault({ kind: "drip", content: "slow", byteIntervalMs: 200 });
    const failure = await failureOf(summarizer({ model: "cheap-model", fallbackModel: "main-model", timeoutMs: 300 }).summarize(request));
    expect(failure.kind).toBe("timeout");
    expect(server.requests.map((r) => r.body.model)).toEqual(["cheap-model", "main-model"]);
  });

  it("throws EmptySummaryError when the model returns empty content", async () => {
    server.script({ kind: "empty" });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure.error).toBeInstanceOf(EmptySummaryError);
    expect(failure).toMatchObject({ action: "fallback", kind: "empty" });
  });

  it("throws EmptySummaryError when the model returns only whitespace", async () => {
    server.script({ kind: "success", content: "  \n\t " });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure.error).toBeInstanceOf(EmptySummaryError);
  });

  it("classifies a 200 answer that is not JSON as a malformed body that falls back", async () => {
    server.script({ kind: "garbage" });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure).toMatchObject({ action: "fallback", kind: "malformed" });
  });

  it("classifies a connection reset before any response as a network failure that aborts", async () => {
    server.script({ kind: "reset" });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure).toMatchObject({ action: "abort", kind: "network" });
  });

  it("classifies a refused connection as a network failure that aborts", async () => {
    const closed = await startOpenAIFixtureServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const failure = await failureOf(summarizer({ baseUrl }).summarize(request));
    expect(failure).toMatchObject({ action: "abort", kind: "network" });
  });

  it("retries once with the main model when the configured model fails", async () => {
    server.script({ kind: "status", status: 500 }, { kind: "success", content: "## Goal\n- from the main model" });
    const summary = await summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request);
    expect(server.requests.map((r) => r.body.model)).toEqual(["cheap-model", "main-model"]);
    expect(summary).toContain("- from the main model");
  });

  it("tries the main model only once, then reports its failure", async () => {
    server.setDefault({ kind: "status", status: 503 });
    const failure = await failureOf(summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request));
    expect(failure.kind).toBe("server");
    expect(server.requests.map((r) => r.body.model)).toEqual(["cheap-model", "main-model"]);
  });

  it("does not retry with the main model after a network failure of the endpoint both models share", async () => {
    server.script({ kind: "reset" });
    const failure = await failureOf(summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request));
    expect(failure.kind).toBe("network");
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry when the fallback model is the configured model", async () => {
    server.script({ kind: "status", status: 500 });
    await failureOf(summarizer({ model: "same-model", fallbackModel: "same-model" }).summarize(request));
    expect(server.requests).toHaveLength(1);
  });

  it("stops a hanging request when its AbortSignal fires and classifies it as aborted", async () => {
    server.script({ kind: "hang" });
    const controller = new AbortController();
    const run = summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request, controller.signal);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const failure = await failureOf(run);
    expect(failure).toMatchObject({ action: "abort", kind: "aborted" });
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const failure = await failureOf(summarizer().summarize(request, AbortSignal.abort()));
    expect(failure.kind).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("strips a code fence around the whole answer and adds missing headings", async () => {
    server.script({ kind: "success", content: "```markdown\n## Goal\n- ship it\n```" });
    const summary = await summarizer().summarize(request);
    expect(summary).not.toContain("```");
    expect(summary.split("\n").filter((line) => line.startsWith("#"))).toEqual([...SUMMARY_SECTIONS]);
  });
});
