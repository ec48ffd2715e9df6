import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { SUMMARY_SECTIONS, createContextHost, validateConfigObject, type ContextCompressor, type SummaryModelCall } from "@context-engine/core";
import { findLatestSummary } from "@context-engine/core/compressor";
import { useAnthropicFixtureServer, useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { ladderCompressor, ladderRounds, MODEL_SUMMARY, summaryLadderCases } from "../../../test/support/summaryLadderCases.js";
import { aiSdkSummarizer, createAiSdkAdapter } from "../src/index.js";
import { runAiSdkToolLoop } from "../src/testing/index.js";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

/** The answer of a mock model: `text` with the usage the provider reports. */
function answer(text: string, inputTokens = 700, outputTokens = 30): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage: { inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined } },
    warnings: [],
  };
}

/** The AI SDK's error for an HTTP answer with `status`. */
function apiCallError(status: number, headers: Record<string, string> = {}): APICallError {
  return new APICallError({ message: `HTTP ${status}`, url: "https://models.example/v1", requestBodyValues: {}, statusCode: status, responseHeaders: headers, responseBody: "{}" });
}

/** The prompt text a mock model call was sent (one user message, one text part). */
function promptText(model: MockLanguageModelV3, call = 0): string {
  const prompt = model.doGenerateCalls[call]!.prompt;
  expect(prompt).toHaveLength(1);
  expect(prompt[0]!.role).toBe("user");
  return (prompt[0]!.content as Array<{ type: string; text: string }>).map((part) => part.text).join("");
}


describe("aiSdkSummarizer with the AI SDK's MockLanguageModelV3", () => {
  it("sends the summary prompt as one user message through generateText and returns the model's summary in the template, the call reported with the provider's tokens", async () => {
    const model = new MockLanguageModelV3({ modelId: "mock-summary-model", doGenerate: async () => answer("## Goal\n- fix the build") });
    const summarizer = aiSdkSummarizer(model);
    const calls: SummaryModelCall[] = [];
    const summary = await summarizer.summarize({ messages: ladderRounds(), maxTokens: 2_000, onModelCall: (call) => calls.push(call) });
    expect(summarizer.name).toBe("ai-sdk:mock-summary-model");
    expect(promptText(model)).toContain("[USER]: fix the build");
    expect(model.doGenerateCalls[0]!.maxOutputTokens).toBeUndefined();
    expect(summary.startsWith("## Goal\n- fix the build")).toBe(true);
    for (const heading of SUMMARY_SECTIONS) expect(summary).toContain(heading);
    expect(calls).toEqual([{ model: "mock-summary-model", inputTokens: 700, outputTokens: 30 }]);
  });

  it("is the host's summarizer: the built-in compressor writes its summary with the model, checked by the verbatim guard", async () => {
    const model = new MockLanguageModelV3({ modelId: "mock-summary-model", doGenerate: async () => answer(MODEL_SUMMARY) });
    const host = await createContextHost({ config: validateConfigObject({ compression: { protect_last_n: 4, threshold_tokens: 1_000 } }), summarizer: aiSdkSummarizer(model) });
    const out = await host.engine.compress(ladderRounds(), { force: true });
    const summary = findLatestSummary(out)!;
    expect(summary).toContain("- from the model");
    expect(summary).not.toContain("invented_module");
    expect(host.engine.getStatus().lastCompaction).toMatchObject({ fallbackUsed: false });
    expect((host.engine as ContextCompressor).lastCompression).toMatchObject({ summarizer: "ai-sdk:mock-summary-model", summaryCalls: { calls: 1, inputTokens: 700, outputTokens: 30 } });
  });

  it("retries a 503 that asks to wait, then falls back to the offline summary when the model fails again, and cools down", async () => {
    const model = new MockLanguageModelV3({ doGenerate: async () => Promise.reject(apiCallError(503, { "retry-after": "0" })) });
    const engine = ladderCompressor(aiSdkSummarizer(model));
    const out = await engine.compress(ladderRounds(), { force: true });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(findLatestSummary(out)).toContain("## Goal");
    expect(engine.lastCompression).toMatchObject({ summarizer: "extractive", fallbackUsed: true, cooldownSeconds: 60 });
  });

  it("keeps the conversation when the provider refuses the key, and tries the fallback model once", async () => {
    const refused = new MockLanguageModelV3({ modelId: "cheap", doGenerate: async () => Promise.reject(apiCallError(401)) });
    const engine = ladderCompressor(aiSdkSummarizer(refused));
    const messages = ladderRounds();
    expect(await engine.compress(messages, { force: true })).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "auth" });

    const main = new MockLanguageModelV3({ modelId: "main", doGenerate: async () => answer("## Goal\n- from the main model") });
    const summary = await aiSdkSummarizer(refused, { fallbackModel: main }).summarize({ messages, maxTokens: 2_000 });
    expect(summary).toContain("- from the main model");
    expect(main.doGenerateCalls).toHaveLength(1);
  });

  it("runs in the adapter's AI SDK tool loop as the summarizer of the engine the loop compacts with", async () => {
    const model = new MockLanguageModelV3({ modelId: "mock-summary-model", doGenerate: async () => answer("## Goal\n- read the notes") });
    const run = await runAiSdkToolLoop({ engine: "compressor", summarizer: aiSdkSummarizer(model) });
    const compacted = run.steps.findIndex((step) => step.compressions.length > 0);
    expect(compacted).toBeGreaterThan(0);
    expect(model.doGenerateCalls.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(run.steps[compacted]!.messages)).toContain("- read the notes");
  });

  it("serves a host the adapter is built from", async () => {
    const model = new MockLanguageModelV3({ modelId: "mock-summary-model", doGenerate: async () => answer("## Goal\n- x") });
    const host = await createContextHost({ summarizer: aiSdkSummarizer(model) });
    expect(host.summarizer.name).toBe("ai-sdk:mock-summary-model");
    expect(createAiSdkAdapter({ host }).engine).toBe(host.engine);
  });
});

describe("aiSdkSummarizer over @ai-sdk/openai-compatible against a loopback chat-completions server", () => {
  const server = useOpenAIFixtureServer();
  summaryLadderCases({
    server,
    summarizer: ({ timeoutMs }) => aiSdkSummarizer(createOpenAICompatible({ name: "loopback", baseURL: server.current.baseUrl, apiKey: "sk-loopback" }).chatModel("gpt-4o-mini"), { timeoutMs }),
    name: "ai-sdk:gpt-4o-mini",
    model: "gpt-4o-mini",
  });
});

describe("aiSdkSummarizer over @ai-sdk/anthropic against a loopback Messages API", () => {
  const server = useAnthropicFixtureServer();
  summaryLadderCases({
    server,
    summarizer: ({ timeoutMs }) => aiSdkSummarizer(createAnthropic({ baseURL: server.current.baseUrl, apiKey: "sk-ant-loopback" })("claude-haiku-4-5"), { timeoutMs }),
    name: "ai-sdk:claude-haiku-4-5",
    model: "claude-haiku-4-5",
  });
});
