import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { AuxiliaryCompressionSchema } from "../../src/config/schema.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import type { OpenAICompatibleSummarizerOptions } from "../../src/summarizers/openaiCompatible.js";
import { EmptySummaryError, classifySummaryFailure, cooldownSeconds } from "../../src/summarizers/failures.js";
import { createSummarizer } from "../../src/summarizers/resolve.js";
import type { SummaryRequest } from "../../src/summarizers/types.js";

/** The summary endpoint, and the main model's own endpoint. */
const fixture = useOpenAIFixtureServer();
const mainFixture = useOpenAIFixtureServer();

/** A summarizer on the fixture server whose waits are recorded instead of slept. */
function summarizer(options: Partial<OpenAICompatibleSummarizerOptions> = {}): OpenAICompatibleSummarizer & { waits: number[] } {
  const waits: number[] = [];
  const s = new OpenAICompatibleSummarizer({
    baseUrl: fixture.current.baseUrl,
    apiKey: "sk-test-key-for-the-fixture-000",
    model: "summary-model",
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return Object.assign(s, { waits });
}

const request: SummaryRequest = {
  messages: [
    { role: "user", content: "What is the answer?" },
    { role: "assistant", content: "<think>The user wants the private chain of thought.</think>The answer is 42." },
    { role: "user", content: "And the other one?" },
    { role: "assistant", content: "<reasoning>\nsecret scratch work\n</reasoning>\nIt is 7." },
  ],
  maxTokens: 2_000,
};

async function failureOf(run: Promise<string>) {
  try {
    await run;
  } catch (error) {
    return { ...classifySummaryFailure(error), error };
  }
  throw new Error("expected the summarizer to fail");
}

const RATE_LIMITED = { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } };

describe("the summary call (upstream parity)", () => {
  it("sends no max_tokens: the budget is prompt guidance only, so a summary is never cut off", async () => {
    await summarizer().summarize(request);
    const body = fixture.current.requests[0]!.body;
    expect(body).not.toHaveProperty("max_tokens");
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body.messages[0].content).toContain("about 2000 tokens");
  });

  it("keeps <think> and <reasoning> blocks out of the summarizer's input", async () => {
    await summarizer().summarize(request);
    const prompt: string = fixture.current.requests[0]!.body.messages[0].content;
    expect(prompt).toContain("The answer is 42.");
    expect(prompt).toContain("It is 7.");
    expect(prompt).not.toContain("private chain of thought");
    expect(prompt).not.toContain("secret scratch work");
    expect(prompt).not.toMatch(/<\/?(think|reasoning)>/);
  });

  it("strips reasoning blocks the summary model emits before its summary", async () => {
    fixture.current.script({ kind: "success", content: "<think>Let me list what happened.</think>\n## Goal\n- answer the questions" });
    const summary = await summarizer().summarize(request);
    expect(summary).not.toContain("Let me list what happened");
    expect(summary).not.toContain("<think>");
    expect(summary.startsWith("## Goal\n- answer the questions")).toBe(true);
  });

  it("treats an answer that is nothing but reasoning as an empty summary", async () => {
    fixture.current.script({ kind: "success", content: "<think>I am still thinking about it</think>" });
    const failure = await failureOf(summarizer().summarize(request));
    expect(failure.error).toBeInstanceOf(EmptySummaryError);
  });

  it("retries the main model once when a separate summary model answers 401", async () => {
    fixture.current.script({ kind: "status", status: 401 }, { kind: "success", content: "## Goal\n- from the main model" });
    const summary = await summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request);
    expect(fixture.current.requests.map((r) => r.body.model)).toEqual(["cheap-model", "main-model"]);
    expect(summary).toContain("- from the main model");
  });

  it("retries the main model on its own endpoint and key when the summary endpoint refuses the key", async () => {
    fixture.current.setDefault({ kind: "status", status: 401 });
    mainFixture.current.script({ kind: "success", content: "## Goal\n- from the main endpoint" });
    const aux = AuxiliaryCompressionSchema.parse({ base_url: fixture.current.baseUrl, api_key: "revoked-key", model: "cheap-model" });
    const { summarizer: resolved, description } = createSummarizer(aux, { model: "main-model", baseUrl: mainFixture.current.baseUrl, apiKey: "main-key" }, {});
    expect(description).toContain("main-model");
    const summary = await resolved.summarize(request);
    expect(fixture.current.requests.map((r) => r.body.model)).toEqual(["cheap-model"]);
    expect(mainFixture.current.requests.map((r) => r.body.model)).toEqual(["main-model"]);
    expect(mainFixture.current.requests[0]!.headers.authorization).toBe("Bearer main-key");
    expect(summary).toContain("- from the main endpoint");
  });

  it("still aborts on a 401 when the main model fails too", async () => {
    fixture.current.setDefault({ kind: "status", status: 401 });
    const failure = await failureOf(summarizer({ model: "cheap-model", fallbackModel: "main-model" }).summarize(request));
    expect(failure).toMatchObject({ action: "abort", kind: "auth" });
    expect(fixture.current.requests).toHaveLength(2);
  });

  it("waits the Retry-After seconds of a 429 and retries the same model", async () => {
    fixture.current.script({ kind: "status", status: 429, body: RATE_LIMITED, headers: { "retry-after": "2" } }, { kind: "success", content: "## Goal\n- after the wait" });
    const s = summarizer();
    const summary = await s.summarize(request);
    expect(s.waits).toEqual([2_000]);
    expect(fixture.current.requests.map((r) => r.body.model)).toEqual(["summary-model", "summary-model"]);
    expect(summary).toContain("- after the wait");
  });

  it("reads a Retry-After HTTP date on a 503", async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    fixture.current.script({ kind: "status", status: 503, headers: { "retry-after": at } }, { kind: "success", content: "## Goal\n- ok" });
    const s = summarizer();
    await s.summarize(request);
    expect(s.waits).toHaveLength(1);
    expect(s.waits[0]!).toBeGreaterThanOrEqual(3_000);
    expect(s.waits[0]!).toBeLessThanOrEqual(5_000);
  });

  it("does not wait for a Retry-After beyond its bound: it fails at once and the cooldown honours it, bounded", async () => {
    fixture.current.script({ kind: "status", status: 429, body: RATE_LIMITED, headers: { "retry-after": "3600" } });
    const s = summarizer();
    const failure = await failureOf(s.summarize(request));
    expect(s.waits).toEqual([]);
    expect(fixture.current.requests).toHaveLength(1);
    expect(failure.retryAfterSeconds).toBe(3_600);
    expect(cooldownSeconds(failure, 0)).toBe(900);
    expect(cooldownSeconds({ ...failure, retryAfterSeconds: 120 }, 0)).toBe(120);
  });
});
