import { ChatOpenAI } from "@langchain/openai";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { SUMMARY_SECTIONS, createContextHost, validateConfigObject, type ContextCompressor, type SummaryModelCall } from "@context-engine/core";
import { findLatestSummary } from "@context-engine/core/compressor";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { ladderRounds, MODEL_SUMMARY, summaryLadderCases } from "../../../test/support/summaryLadderCases.js";
import { contextEngineMiddleware, langchainSummarizer } from "../src/index.js";
import { runLangChainAgent } from "../src/testing/index.js";

describe("langchainSummarizer with LangChain's FakeListChatModel", () => {
  it("invokes the model with the summary prompt as one user message and returns its summary in the template", async () => {
    const model = new FakeListChatModel({ responses: ["## Goal\n- fix the build"] });
    const prompts: unknown[] = [];
    const recording = { invoke: (input: Array<{ role: "user"; content: string }>, options?: { signal?: AbortSignal }) => (prompts.push(input), model.invoke(input, options)) };
    const summarizer = langchainSummarizer(recording, { model: "fake-summary-model" });
    const calls: SummaryModelCall[] = [];
    const summary = await summarizer.summarize({ messages: ladderRounds(), maxTokens: 2_000, onModelCall: (call) => calls.push(call) });
    expect(summarizer.name).toBe("langchain:fake-summary-model");
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toEqual([{ role: "user", content: expect.stringContaining("[USER]: fix the build") }]);
    expect(summary.startsWith("## Goal\n- fix the build")).toBe(true);
    for (const heading of SUMMARY_SECTIONS) expect(summary).toContain(heading);
    expect(calls).toEqual([{ model: "fake-summary-model" }]);
  });

  it("names itself after the chat model's type when it has no model id", () => {
    expect(langchainSummarizer(new FakeListChatModel({ responses: [] })).name).toBe("langchain:fake-list");
  });

  it("is the host's summarizer: the built-in compressor writes its summary with the chat model, checked by the verbatim guard", async () => {
    const host = await createContextHost({ config: validateConfigObject({ compression: { protect_last_n: 4, threshold_tokens: 1_000 } }), summarizer: langchainSummarizer(new FakeListChatModel({ responses: [MODEL_SUMMARY] })) });
    const out = await host.engine.compress(ladderRounds(), { force: true });
    const summary = findLatestSummary(out)!;
    expect(summary).toContain("- from the model");
    expect(summary).not.toContain("invented_module");
    expect((host.engine as ContextCompressor).lastCompression).toMatchObject({ summarizer: "langchain:fake-list", fallbackUsed: false });
    expect(contextEngineMiddleware({ host }).name).toBeTruthy();
  });

  it("runs in a LangChain agent as the summarizer of the engine the agent's middleware compacts with", async () => {
    const run = await runLangChainAgent({ engine: "compressor", summarizer: langchainSummarizer(new FakeListChatModel({ responses: ["## Goal\n- read the notes"] })) });
    const compacted = run.steps.findIndex((step) => step.compressions.length > 0);
    expect(compacted).toBeGreaterThan(0);
    expect(JSON.stringify(run.steps[compacted]!.messages)).toContain("- read the notes");
  });

  it("tries the fallback model once when the summary model fails", async () => {
    const failing = { invoke: async () => Promise.reject(Object.assign(new Error("bad key"), { status: 401 })) };
    const summary = await langchainSummarizer(failing, { model: "cheap", fallbackModel: new FakeListChatModel({ responses: ["## Goal\n- from the main model"] }) }).summarize({ messages: ladderRounds(), maxTokens: 2_000 });
    expect(summary).toContain("- from the main model");
  });
});

describe("langchainSummarizer over ChatOpenAI against a loopback chat-completions server", () => {
  const server = useOpenAIFixtureServer();
  summaryLadderCases({
    server,
    summarizer: ({ timeoutMs }) => langchainSummarizer(new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-loopback", maxRetries: 0, configuration: { baseURL: server.current.baseUrl } }), { timeoutMs }),
    name: "langchain:gpt-4o-mini",
    model: "gpt-4o-mini",
  });
});
