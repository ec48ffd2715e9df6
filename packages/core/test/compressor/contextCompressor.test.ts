import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../../src/messages/prunedOutput.js";
import { COMPACTION_SYSTEM_NOTE, SUMMARY_END_MARKER, SUMMARY_PREFIX, parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import { AWAITING_REAL_USAGE } from "../../src/engine/ContextEngine.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { FASTAPI_SYSTEM, agentRounds, assistant, fastApiConversation, longOutput, roughCounter, system, toolTurn, user } from "./fixtures.js";

/** A summarizer that returns a fixed template and records what it was asked. */
function templateSummarizer(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    name: "template",
    requests,
    async summarize(request) {
      requests.push(request);
      return SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
    },
  };
}

function failingSummarizer(message = "upstream exploded"): Summarizer & { calls: number } {
  const s = {
    name: "failing",
    calls: 0,
    async summarize(): Promise<string> {
      s.calls++;
      throw new Error(message);
    },
  };
  return s;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The FastAPI example's settings: a tail budget that keeps "Fix the failing tests" onwards. */
const SPEC_EXAMPLE = { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };

describe("ContextCompressor: thresholds", () => {
  it("computes 100,000 / 20,000 / 10,000 for a 200,000-token model with the defaults", () => {
    const engine = new ContextCompressor({ model: { model: "claude-sonnet-4", contextLength: 200_000 }, tokenCounter: roughCounter });
    expect(engine.name).toBe("compressor");
    expect(engine.thresholdTokens).toBe(100_000);
    expect(engine.tailTokenBudget).toBe(20_000);
    expect(engine.maxSummaryTokens).toBe(10_000);
  });

  it("resolves model_thresholds by the longest key, raises small-window overrides to 0.75 and re-resolves on updateModel", () => {
    const engine = new ContextCompressor({
      compression: { model_thresholds: { "glm-5.2": 0.4, "glm-5.2-1M": 0.25, "big-model": 0.8 } },
      model: { model: "glm-5.2-1M", contextLength: 1_000_000 },
      tokenCounter: roughCounter,
    });
    expect(engine.thresholdPercent).toBe(0.25);
    expect(engine.thresholdTokens).toBe(250_000);
    engine.updateModel({ model: "glm-5.2", contextLength: 200_000 });
    expect(engine.thresholdPercent).toBe(0.75);
    engine.updateModel({ model: "big-model", contextLength: 200_000 });
    expect(engine.thresholdPercent).toBe(0.8);
    engine.updateModel({ model: "gpt-4o", contextLength: 200_000 });
    expect(engine.thresholdPercent).toBe(0.5);
    expect(engine.thresholdTokens).toBe(100_000);
  });

  it("fires exactly at the threshold, and with no argument uses the last real prompt tokens", () => {
    const engine = new ContextCompressor({ tokenCounter: roughCounter });
    expect(engine.shouldCompress(99_999)).toBe(false);
    expect(engine.shouldCompress(100_000)).toBe(true);
    expect(engine.shouldCompressInfo(99_999).reason).toBe("below_threshold");
    engine.updateFromResponse({ prompt_tokens: 100_000, completion_tokens: 10 });
    expect(engine.shouldCompress()).toBe(true);
  });

  it("never fires when compression is disabled", () => {
    const engine = new ContextCompressor({ compression: { enabled: false }, tokenCounter: roughCounter });
    expect(engine.shouldCompressInfo(500_000)).toMatchObject({ should: false, reason: "disabled" });
  });

  it("rejects invalid compression options with the key named", () => {
    expect(() => new ContextCompressor({ compression: { threshold: 3 } })).toThrow(/threshold/);
  });
});

describe("ContextCompressor: compress()", () => {
  it("compacts the FastAPI example into head, one templated summary and the untouched tail", async () => {
    const messages = deepFreeze(fastApiConversation());
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, tokenCounter: roughCounter });
    const out = await engine.compress(messages);

    expect(out).toHaveLength(8);
    expect(out[0]!.role).toBe("system");
    expect(out[0]!.content).toBe(`${FASTAPI_SYSTEM}\n\n${COMPACTION_SYSTEM_NOTE}`);
    expect(out[1]).toBe(messages[1]);
    const summary = String(out[2]!.content);
    expect(out[2]!.role).toBe("assistant");
    expect(summary.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summary.endsWith(SUMMARY_END_MARKER)).toBe(true);
    let at = 0;
    for (const heading of SUMMARY_SECTIONS) {
      const found = summary.indexOf(`\n${heading}\n`, at);
      expect(found, heading).toBeGreaterThan(at);
      at = found;
    }
    expect(summary).toMatch(/SQLAlchemy/);
    expect(summary).toMatch(/app\/main\.py/);
    expect(out.slice(3)).toEqual(messages.slice(40));
    out.slice(3).forEach((m, i) => expect(m).toBe(messages[40 + i]));
    expect(out[3]!.content).toBe("Fix the failing tests");
    expect(out[7]!.content).toBe("Great, also add error handling");
    expect(validateConversation(out)).toEqual([]);

    const report = engine.lastCompression!;
    expect(report).toMatchObject({ messagesBefore: 45, messagesAfter: 8, droppedMessages: 38, aborted: false, fallbackUsed: false, summarizer: "extractive", compressionNumber: 1 });
    expect(report.tokensBefore).toBeGreaterThan(90_000);
    expect(report.tokensAfter).toBeLessThan(15_000);
    expect(report.summaryTokens).toBeGreaterThan(0);
    expect(engine.compressionCount).toBe(1);
    expect(engine.lastPromptTokens).toBe(AWAITING_REAL_USAGE);
    expect(engine.shouldCompress()).toBe(false);
    expect(engine.getStatus().lastPromptTokens).toBe(0);
  });

  it("passes focusTopic through and clears old tool output in what the summarizer sees", async () => {
    const summarizer = templateSummarizer();
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer, tokenCounter: roughCounter });
    await engine.compress(fastApiConversation(), { focusTopic: "database" });
    const request = summarizer.requests[0]!;
    expect(request.focusTopic).toBe("database");
    expect(request.previousSummary).toBeUndefined();
    expect(request.maxTokens).toBe(engine.maxSummaryTokens);
    const toolTexts = request.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    // Cleared: the descriptor line, plus the failing run's error lines within the summary's evidence bound.
    expect(toolTexts.filter((t) => t.length > 2_500)).toEqual([]);
    const pytest = toolTexts.find((t) => t.startsWith(PRUNED_TOOL_PLACEHOLDER) && t.includes("[terminal] ran `pytest` -> exit 1"));
    expect(pytest?.split("\n").slice(1)).toEqual(expect.arrayContaining([expect.stringMatching(/^FAILED tests\/test_api\.py::test_create_item line 0: lorem/)]));
  });

  it("keeps early facts through three iterative compactions, handing over the previous summary", async () => {
    const requests: SummaryRequest[] = [];
    const extractive = new ExtractiveSummarizer();
    const summarizer: Summarizer = { name: "extractive", summarize: (r, s) => (requests.push(r), extractive.summarize(r, s)) };
    const engine = new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 20_000, target_ratio: 0.1 }, summarizer, tokenCounter: roughCounter });
    let conversation: ChatMessage[] = [
      system("You are a coding agent."),
      user("Build a FastAPI service called inventory-api; it must listen on port 8123 and use Postgres 16."),
      ...toolTurn("write_file", { path: "app/main.py", content: "app = FastAPI()" }, "wrote app/main.py"),
      assistant("Created app/main.py."),
      ...agentRounds(6, 6_000, "first"),
    ];
    for (let round = 1; round <= 3; round++) {
      conversation = await engine.compress(conversation);
      expect(validateConversation(conversation)).toEqual([]);
      expect(engine.lastCompression!.aborted).toBe(false);
      conversation = [...conversation, ...agentRounds(6, 6_000, `later${round}`)];
    }
    expect(engine.compressionCount).toBe(3);
    expect(requests[0]!.previousSummary).toBeUndefined();
    expect(requests[1]!.previousSummary).toBeDefined();
    expect(requests[2]!.previousSummary).toBeDefined();
    // the session's first summary goes with every later request: the task's setup the summary keeps
    expect(requests[0]!.sessionStart).toBeUndefined();
    expect(requests[1]!.sessionStart).toBe(requests[1]!.previousSummary);
    expect(requests[2]!.sessionStart).toBe(requests[1]!.previousSummary);
    expect(requests[2]!.previousSummary).not.toBe(requests[1]!.previousSummary);
    const summaries = conversation.map(parseSummaryMessage).filter((p) => p !== undefined);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.summary).toMatch(/inventory-api/);
    expect(summaries[0]!.summary).toMatch(/8123/);
    expect(summaries[0]!.summary).toMatch(/app\/main\.py/);
    expect(engine.previousSummary).toBe(summaries[0]!.summary);
    const system0 = String(conversation[0]!.content);
    expect(system0.split(COMPACTION_SYSTEM_NOTE).length).toBe(2);
  });

  it("compacts with the default (tiktoken) counter when none is given", async () => {
    const engine = new ContextCompressor({ compression: { protect_last_n: 5, threshold_tokens: 30_000 } });
    const messages = fastApiConversation();
    const out = await engine.compress(messages);
    expect(validateConversation(out)).toEqual([]);
    expect(out.at(-1)).toBe(messages.at(-1));
    expect(engine.lastCompression!.tokensAfter).toBeLessThan(engine.lastCompression!.tokensBefore / 2);
  });

  it("keeps the input when the summary would not make the conversation smaller", async () => {
    const verbose: Summarizer = { name: "verbose", summarize: async () => SUMMARY_SECTIONS.map((h) => `${h}\n- ${"detail ".repeat(3_000)}`).join("\n") };
    const messages = [system("s"), user("a"), assistant("b"), user("c"), assistant("d"), user("e"), assistant("f"), user("g")];
    const engine = new ContextCompressor({ compression: { protect_last_n: 3 }, summarizer: verbose, tokenCounter: roughCounter });
    expect(await engine.compress(messages, { force: true })).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "nothing_to_compress" });
    expect(engine.compressionCount).toBe(0);
  });

  it("never mutates the input and returns it unchanged when there is nothing to compress", async () => {
    const messages = deepFreeze([system("s"), user("hi"), assistant("hello")]);
    const engine = new ContextCompressor({ tokenCounter: roughCounter });
    const out = await engine.compress(messages, { force: true });
    expect(out).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "nothing_to_compress" });
    expect(engine.hasContentToCompress(messages)).toBe(false);
    expect(engine.compressionCount).toBe(0);
  });

  it("returns the input unchanged when the signal is already aborted", async () => {
    const messages = fastApiConversation();
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, tokenCounter: roughCounter });
    const out = await engine.compress(messages, { signal: AbortSignal.abort() });
    expect(out).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "aborted" });
  });

  it("prunes tool results only, without summarizing, when asked", () => {
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, tokenCounter: roughCounter });
    const messages = fastApiConversation();
    expect(engine.hasContentToCompress(messages)).toBe(true);
    const out = engine.pruneToolResultsOnly(messages);
    expect(out).toHaveLength(45);
    expect(String(out[39]!.content).startsWith(PRUNED_TOOL_PLACEHOLDER)).toBe(true);
    expect(out[42]).toBe(messages[42]);
  });

  it("makes progress when the tail alone is above the threshold: lower floor, tail outputs cleared but the newest", async () => {
    const messages: ChatMessage[] = [system("s"), user("first ask"), assistant("ok"), user("Refactor everything")];
    for (let i = 0; i < 30; i++) messages.push(...toolTurn("terminal", { command: `step ${i}` }, longOutput(`step ${i}`, 200)));
    const engine = new ContextCompressor({ compression: { threshold_tokens: 20_000 }, summarizer: templateSummarizer(), tokenCounter: roughCounter });
    const out = await engine.compress(messages);
    const report = engine.lastCompression!;
    expect(report.tailToolOutputsCleared).toBeGreaterThan(0);
    expect(report.tokensAfter).toBeLessThan(engine.thresholdTokens);
    expect(out.at(-1)).toBe(messages.at(-1));
    expect(out.some((m) => m.content === "Refactor everything")).toBe(true);
    expect(validateConversation(out)).toEqual([]);
  });

  it("never loops: a host re-checking an estimate after each compaction stops when the last message alone is over the threshold", async () => {
    let messages: ChatMessage[] = [system("s"), ...agentRounds(10, 8_000), user(`Please review this log:\n${longOutput("giant log", 2_000)}`)];
    const engine = new ContextCompressor({ compression: { threshold_tokens: 20_000, protect_last_n: 4 }, summarizer: templateSummarizer(), tokenCounter: roughCounter });
    let rounds = 0;
    while (engine.shouldCompress(roughCounter.countMessages(messages)) && rounds < 10) {
      messages = await engine.compress(messages);
      rounds++;
    }
    expect(rounds).toBeLessThanOrEqual(3);
    expect(engine.shouldCompressInfo(roughCounter.countMessages(messages)).reason).toBe("ineffective");
    expect(validateConversation(messages)).toEqual([]);
    expect(String(messages.at(-1)!.content)).toContain("Please review this log");
  });

  it("pauses automatic compaction after two ineffective compactions until force, a model change or real progress", async () => {
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer: templateSummarizer(), tokenCounter: roughCounter });
    const above = { prompt_tokens: 50_000 };
    await engine.compress(fastApiConversation());
    engine.updateFromResponse(above);
    expect(engine.ineffectiveStreak).toBe(1);
    expect(engine.shouldCompress()).toBe(true);
    await engine.compress(fastApiConversation());
    engine.updateFromResponse(above);
    expect(engine.shouldCompressInfo()).toMatchObject({ should: false, reason: "ineffective", pausedBy: "ineffective" });
    // force bypasses and lifts the pause
    await engine.compress(fastApiConversation(), { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    engine.updateFromResponse(above);
    await engine.compress(fastApiConversation());
    engine.updateFromResponse(above);
    expect(engine.shouldCompress()).toBe(false);
    engine.updateModel({ model: "other", contextLength: 200_000 });
    expect(engine.shouldCompress(50_000)).toBe(true);
    // real progress also lifts it
    await engine.compress(fastApiConversation());
    engine.updateFromResponse(above);
    await engine.compress(fastApiConversation());
    engine.updateFromResponse(above);
    expect(engine.shouldCompress()).toBe(false);
    engine.updateFromResponse({ prompt_tokens: 1_000 });
    expect(engine.shouldCompress(50_000)).toBe(true);
  });

  it("counts a compaction whose own result is still above the threshold as ineffective at once, and only once", async () => {
    const messages: ChatMessage[] = [system("s"), ...agentRounds(10, 8_000), user(`Please review this log:\n${longOutput("giant log", 2_000)}`)];
    const engine = new ContextCompressor({ compression: { threshold_tokens: 20_000, protect_last_n: 4 }, summarizer: templateSummarizer(), tokenCounter: roughCounter });
    await engine.compress(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: false, stillAboveThreshold: true });
    expect(engine.ineffectiveStreak).toBe(1);
    engine.updateFromResponse({ prompt_tokens: 45_000 });
    expect(engine.ineffectiveStreak).toBe(1);
    engine.updateFromResponse({ prompt_tokens: 1_000 });
    expect(engine.ineffectiveStreak).toBe(0);
  });

  it("uses the fallback summary on a non-abort failure and pauses after two fallback summaries in a row", async () => {
    let clock = 1_000_000;
    const failing = failingSummarizer();
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer: failing, tokenCounter: roughCounter, now: () => clock });
    const out = await engine.compress(fastApiConversation());
    expect(out).toHaveLength(8);
    expect(engine.lastCompression).toMatchObject({ fallbackUsed: true, summarizer: "extractive", aborted: false, cooldownSeconds: 60 });
    expect(engine.lastCompression!.fallbackReason).toMatch(/upstream exploded/);
    clock += 61_000;
    await engine.compress(fastApiConversation());
    expect(failing.calls).toBe(2);
    expect(engine.shouldCompressInfo(50_000)).toMatchObject({ should: false, reason: "ineffective", pausedBy: "fallback" });
    // real usage below the threshold does not lift a fallback pause; a model change does
    engine.updateFromResponse({ prompt_tokens: 100 });
    expect(engine.shouldCompress(50_000)).toBe(false);
    engine.updateModel({ model: "m2", contextLength: 200_000 });
    clock += 61_000;
    expect(engine.shouldCompress(50_000)).toBe(true);
  });

  it("keeps the summary-failure streak when the same model on the same provider is re-sized; only a real model change resets it", async () => {
    let clock = 1_000_000;
    const model = { model: "m1", provider: "openrouter", contextLength: 200_000 };
    const engine = new ContextCompressor({ model, compression: SPEC_EXAMPLE, summarizer: failingSummarizer(), tokenCounter: roughCounter, now: () => clock });
    await engine.compress(fastApiConversation());
    expect(engine.fallbackStreak).toBe(1);
    engine.updateModel({ ...model, contextLength: 128_000 });
    expect(engine.fallbackStreak).toBe(1);
    clock += 61_000;
    await engine.compress(fastApiConversation());
    expect(engine.shouldCompressInfo(50_000)).toMatchObject({ should: false, pausedBy: "fallback" });
    engine.updateModel({ ...model, contextLength: 100_000 });
    expect(engine.shouldCompressInfo(50_000)).toMatchObject({ should: false, pausedBy: "fallback" });
    engine.updateModel({ ...model, model: "m2" });
    expect(engine.fallbackStreak).toBe(0);
    clock += 61_000;
    expect(engine.shouldCompress(50_000)).toBe(true);
  });

  it("aborts with the input unchanged when abort_on_summary_failure is set", async () => {
    const messages = fastApiConversation();
    const engine = new ContextCompressor({ compression: { ...SPEC_EXAMPLE, abort_on_summary_failure: true }, summarizer: failingSummarizer(), tokenCounter: roughCounter });
    expect(await engine.compress(messages)).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, fallbackUsed: false });
    expect(engine.lastCompression!.abortReason).toMatch(/abort_on_summary_failure/);
  });

  it("treats an empty or whitespace summary as a failure", async () => {
    const blank: Summarizer = { name: "blank", summarize: async () => "  \n " };
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer: blank, tokenCounter: roughCounter });
    await engine.compress(fastApiConversation());
    expect(engine.lastCompression).toMatchObject({ fallbackUsed: true, summarizer: "extractive" });
  });
});
