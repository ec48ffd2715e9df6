import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { UsageReport, NormalizedUsage } from "../../src/engine/types.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { HYGIENE_ABORT_NOTICE } from "../../src/gateway/hygiene.js";
import { validateConversation } from "../../src/messages/validate.js";
import { providerUsage, replayConversation, responseIndexes } from "../../src/replay/replayConversation.js";
import type { CompressionConfig } from "../../src/config/schema.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { buildSummaryPrompt } from "../../src/summarizers/prompt.js";
import { serializeTurns } from "../../src/summarizers/serialize.js";
import { MeteredSummarizer } from "../../src/replay/summarizerMeter.js";
import { lookupModelPrice } from "../../src/providers/prices.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

const SYSTEM_PROMPT = [
  "You are a careful coding agent working in a Python repository.",
  ...Array.from({ length: 120 }, (_, i) => `Rule ${i + 1}: keep module ${i} tidy, run its tests after every edit, and report failures with the exact command.`),
].join("\n");

function fileBody(turn: number): string {
  return Array.from({ length: 40 }, (_, i) => `def handler_${turn}_${i}(request):\n    return compute_value_${i}(request, retries=${(turn * i) % 7})`).join("\n");
}

/** system prompt (~3k tokens), then `turns` × (user ask, read_file call, file body ~900 tokens, answer). */
function agentConversation(turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: SYSTEM_PROMPT }];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    messages.push({ role: "user", content: `Task ${t}: look at src/module_${t}.py and fix the failing test for handler ${t}.` });
    messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/module_${t}.py` }) } }] });
    messages.push({ role: "tool", tool_call_id: id, content: fileBody(t) });
    messages.push({ role: "assistant", content: `Fixed handler_${t}: the retries argument was off by one; tests in tests/test_module_${t}.py pass now.` });
  }
  return messages;
}

/** The built-in compressor recording every usage object it is given. */
class RecordingCompressor extends ContextCompressor {
  readonly usages: UsageReport[] = [];
  override updateFromResponse(usage: UsageReport): NormalizedUsage {
    this.usages.push(usage);
    return super.updateFromResponse(usage);
  }
}

function engine(contextLength: number, compression: Partial<CompressionConfig> = {}, summarizer?: Summarizer): RecordingCompressor {
  return new RecordingCompressor({ model: { model: "claude-sonnet-4", contextLength }, compression, ...(summarizer ? { summarizer } : {}) });
}

const transcript = agentConversation(30);

describe("replayConversation", () => {
  it("sends one request per assistant message, each the context before it", async () => {
    const report = await replayConversation(transcript, { engine: engine(1_000_000), model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.requests).toHaveLength(60);
    expect(report.requests.map((r) => r.responseMessage)).toEqual(responseIndexes(transcript));
    expect(report.requests[0]!.messages).toBe(2);
    expect(report.totals.compactions).toBe(0);
    // Without compaction both runs are the same requests.
    expect(report.totals.costUsd).toBeCloseTo(report.totals.noCompactionCostUsd, 10);
  });

  it("compacts when the context grows past the agent threshold and continues on the compacted list", async () => {
    const e = engine(16_000, { threshold_tokens: 10_000 });
    const report = await replayConversation(transcript, { engine: e, model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.thresholdTokens).toBe(10_000);
    expect(report.hygieneThresholdTokens).toBe(13_600);
    expect(report.totals.compactions).toBeGreaterThanOrEqual(2);
    expect(report.totals.compactionsByLayer.agent).toBe(report.totals.compactions);
    for (const c of report.compactions) expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    // Never sent more than the window; without compaction it would have been.
    expect(report.totals.peakContextTokens).toBeLessThan(16_000);
    expect(report.totals.noCompactionPeakTokens).toBeGreaterThan(16_000);
    expect(report.notes.some((n) => n.startsWith("without compaction the context would reach"))).toBe(true);
    expect(e.compressionCount).toBe(report.totals.compactions);
    // After a compaction the request after it keeps growing from the compacted context.
    const first = report.compactions[0]!;
    expect(report.requests[first.request]!.promptTokens).toBe(first.tokensAfter);
    expect(report.requests[first.request + 1]!.promptTokens).toBeGreaterThan(first.tokensAfter);
  });

  it("reads most input from the cache, and the system prompt survives every compaction after the first", async () => {
    const report = await replayConversation(transcript, { engine: engine(16_000), model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.caching.enabled).toBe(true);
    expect(report.totals.cacheReadShare).toBeGreaterThan(0.8);
    expect(report.totals.costUsd).toBeLessThan(report.totals.noCachingCostUsd * 0.35);
    expect(report.compactions.length).toBeGreaterThanOrEqual(2);
    // The first compaction appends its note to the system prompt, so nothing before it is read once.
    expect(report.compactions[0]!.cacheReadTokens).toBe(0);
    for (const c of report.compactions.slice(1)) expect(c.cacheReadTokens).toBeGreaterThan(3_000); // the system prompt's entry
    for (const c of report.compactions) {
      expect(c.cacheRewriteTokens).toBeGreaterThan(0);
      expect(c.recoveredAfterRequests).toBe(1);
      // Re-writing the compacted context costs more on that request than reading the uncompacted one.
      expect(c.nextRequestCostUsd!).toBeGreaterThan(c.noCompactionCostUsd!);
    }
  });

  it("prices the summaries a metered summarizer wrote with the request they were written for, at the summary model's price", async () => {
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new TiktokenCounter());
    const e = engine(16_000, { threshold_tokens: 10_000 }, meter);
    const report = await replayConversation(transcript, { engine: e, model: "claude-sonnet-4", provider: "anthropic", summaries: { calls: meter.calls, model: "gpt-4o-mini" } });
    const t = report.totals;
    expect(meter.calls.length).toBeGreaterThanOrEqual(2);
    expect(t.summaries!.calls).toBe(meter.calls.length);
    expect(t.summaries!.inputTokens).toBe(meter.calls.reduce((sum, c) => sum + c.inputTokens, 0));
    // every summary was written by the compaction before a request, and is billed on that request's row
    const rows = report.requests.filter((r) => r.summaries);
    expect(rows.map((r) => r.index)).toEqual(report.compactions.map((c) => c.request));
    const price = lookupModelPrice("gpt-4o-mini")!;
    const expected = (t.summaries!.inputTokens * price.input + t.summaries!.outputTokens * price.output) / 1_000_000;
    expect(t.summaries!.costUsd).toBeCloseTo(expected, 12);
    expect(rows.reduce((sum, r) => sum + r.summaries!.costUsd!, 0)).toBeCloseTo(expected, 12);
    expect(t.costWithSummariesUsd).toBeCloseTo(t.costUsd + expected, 12);
    expect(report.requests.at(-1)!.cumulativeCostWithSummariesUsd).toBeCloseTo(t.costWithSummariesUsd, 12);
    const first = rows[0]!;
    expect(first.cumulativeCostWithSummariesUsd - first.cumulativeCostUsd).toBeCloseTo(first.summaries!.costUsd!, 12);
    expect(report.notes.some((n) => n.includes("priced at gpt-4o-mini"))).toBe(true);
  });

  it("leaves summaries of a model without a price out of the costs, and says so", async () => {
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new TiktokenCounter());
    const report = await replayConversation(transcript, { engine: engine(16_000, { threshold_tokens: 10_000 }, meter), model: "claude-sonnet-4", provider: "anthropic", summaries: { calls: meter.calls, model: "house-model-7" } });
    expect(report.totals.summaries).toMatchObject({ costUsd: null, model: "house-model-7" });
    expect(report.totals.costWithSummariesUsd).toBe(report.totals.costUsd);
    expect(report.notes).toContain(`no price for the summary model house-model-7: the ${meter.calls.length} summary calls are left out of the costs`);
  });

  it("reports no summaries when the replay was given none to price", async () => {
    const report = await replayConversation(transcript, { engine: engine(16_000, { threshold_tokens: 10_000 }), model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.totals.summaries).toBeUndefined();
    expect(report.requests.some((r) => r.summaries)).toBe(false);
    expect(report.totals.costWithSummariesUsd).toBe(report.totals.costUsd);
    for (const r of report.requests) expect(r.cumulativeCostWithSummariesUsd).toBe(r.cumulativeCostUsd);
  });

  it("costs less than never compacting on a long session, and the totals add up", async () => {
    const long = agentConversation(80);
    const report = await replayConversation(long, { engine: engine(16_000, { threshold_tokens: 10_000 }), model: "claude-sonnet-4", provider: "anthropic" });
    const t = report.totals;
    expect(t.costUsd).toBeLessThan(t.noCompactionCostUsd);
    expect(t.costUsd).toBeLessThan(t.noCachingCostUsd);
    const sum = (pick: (r: (typeof report.requests)[number]) => number) => report.requests.reduce((s, r) => s + pick(r), 0);
    for (const r of report.requests) expect(r.cacheRead + r.cacheWrite + r.uncached).toBe(r.promptTokens);
    expect(sum((r) => r.promptTokens)).toBe(t.inputTokens);
    expect(sum((r) => r.cacheRead)).toBe(t.cacheReadTokens);
    expect(sum((r) => r.costUsd ?? 0)).toBeCloseTo(t.costUsd, 10);
    expect(report.requests.at(-1)!.cumulativeCostUsd).toBeCloseTo(t.costUsd, 10);
    expect(report.requests.at(-1)!.cumulativeUncachedCostUsd).toBeCloseTo(t.noCachingCostUsd, 10);
    expect(report.requests.at(-1)!.cumulativeNoCompactionCostUsd).toBeCloseTo(t.noCompactionCostUsd, 10);
    expect(t.cacheReadShare).toBeCloseTo(t.cacheReadTokens / t.inputTokens, 12);
    expect(t.peakContextTokens).toBe(Math.max(t.finalContextTokens, ...report.requests.map((r) => r.promptTokens)));
    expect(t.cacheReadTokens).toBeLessThanOrEqual(t.idealCacheReadTokens);
  });

  it("feeds the engine Anthropic usage whose cache split matches the report", async () => {
    const e = engine(16_000);
    const report = await replayConversation(transcript, { engine: e, model: "claude-sonnet-4", provider: "anthropic" });
    expect(e.usages).toHaveLength(report.requests.length);
    e.usages.forEach((usage, i) => {
      const r = report.requests[i]!;
      expect(usage).toEqual({ input_tokens: r.uncached, cache_creation_input_tokens: r.cacheWrite, cache_read_input_tokens: r.cacheRead, output_tokens: r.outputTokens });
    });
  });

  it("feeds OpenAI usage and caches nothing for a model without cache_control", async () => {
    const e = new RecordingCompressor({ model: { model: "gpt-4o", contextLength: 16_000 } });
    const report = await replayConversation(transcript, { engine: e, model: "gpt-4o", provider: "openai" });
    expect(report.caching.enabled).toBe(false);
    expect(report.totals.cacheReadTokens).toBe(0);
    expect(report.totals.costUsd).toBeCloseTo(report.totals.noCachingCostUsd, 10);
    expect(e.usages[0]).toEqual({ prompt_tokens: report.requests[0]!.promptTokens, completion_tokens: report.requests[0]!.outputTokens, total_tokens: report.requests[0]!.promptTokens + report.requests[0]!.outputTokens });
    expect(report.notes[0]).toMatch(/DISABLED/);
  });

  it("lets gateway hygiene compact at 85 % when the agent layer does not", async () => {
    const e = engine(16_000, { enabled: false });
    const report = await replayConversation(transcript, { engine: e, model: "claude-sonnet-4", provider: "anthropic", hygiene: { enabled: true } });
    expect(report.hygieneThresholdTokens).toBe(13_600);
    expect(report.totals.compactionsByLayer.gateway).toBeGreaterThanOrEqual(1);
    expect(report.totals.compactionsByLayer.agent).toBe(0);
    // Hygiene runs when a user message comes in.
    for (const c of report.compactions) expect(transcript[report.requests[c.request]!.responseMessage - 1]!.role).toBe("user");
  });

  it("lets gateway hygiene count the messages that arrived after the last reported prompt (a night of chat)", async () => {
    const night: ChatMessage[] = Array.from({ length: 60 }, (_, i) => ({ role: "user", content: `Overnight note ${i}: ${"the nightly job failed again on module ".repeat(12)}${i}.` }));
    const chat = [...agentConversation(6), ...night, { role: "assistant" as const, content: "Read all your notes; looking at the nightly job now." }];
    const e = engine(16_000, { enabled: false });
    const report = await replayConversation(chat, { engine: e, model: "claude-sonnet-4", provider: "anthropic", hygiene: { enabled: true } });
    const last = report.requests.at(-1)!;
    // The last reported prompt was small; what the night added takes the session past 85 % of the window.
    expect(last.noCompactionPromptTokens).toBeGreaterThan(report.hygieneThresholdTokens);
    expect(report.compactions.map((c) => c.layer)).toContain("gateway");
    expect(last.promptTokens).toBeLessThan(report.hygieneThresholdTokens);
  });

  it("reports an aborted hygiene compaction with the one-line notice and keeps the conversation", async () => {
    const failing: Summarizer = { name: "down", summarize: async () => { throw Object.assign(new Error("401 invalid api key"), { status: 401 }); } };
    const e = engine(16_000, { enabled: false, abort_on_summary_failure: true }, failing);
    const report = await replayConversation(transcript, { engine: e, model: "claude-sonnet-4", provider: "anthropic", hygiene: { enabled: true } });
    expect(report.totals.compactions).toBe(0);
    const aborted = report.requests.filter((r) => r.compactionAborted);
    expect(aborted.length).toBeGreaterThan(0);
    expect(aborted[0]!.compactionAborted!.layer).toBe("gateway");
    expect(aborted[0]!.notices?.[0]).toContain(HYGIENE_ABORT_NOTICE);
    expect(report.requests.at(-1)!.promptTokens).toBe(report.requests.at(-1)!.noCompactionPromptTokens);
  });

  it("flags a model switch as a full cache miss and says so", async () => {
    const report = await replayConversation(transcript, {
      engine: engine(1_000_000),
      model: "claude-sonnet-4",
      provider: "anthropic",
      switches: [{ atRequest: 20, model: "claude-opus-4-1" }, { atRequest: 40, account: "second-key" }],
    });
    expect(report.fullMisses.map((m) => [m.request, m.reason])).toEqual([[20, "model_switch"], [40, "credential_switch"]]);
    expect(report.requests[20]!.cacheRead).toBe(0);
    expect(report.requests[20]!.fullMiss).toBe("model_switch");
    expect(report.requests[21]!.cacheRead).toBeGreaterThan(0);
    expect(report.notes.some((n) => n.includes("request 20: model switch (claude-sonnet-4 → claude-opus-4-1)") && n.includes("undiscounted input price"))).toBe(true);
  });

  it("expires the cache across long gaps when the transcript carries timestamps", async () => {
    const start = Date.UTC(2025, 5, 1);
    // 10 minutes between messages: every 5-minute entry has expired by the next request.
    const stamped = transcript.map((m, i) => ({ ...m, timestamp: new Date(start + i * 600_000).toISOString() }));
    const slow = await replayConversation(stamped, { engine: engine(1_000_000), model: "claude-sonnet-4", provider: "anthropic" });
    expect(slow.timing).toBe("transcript");
    expect(slow.totals.cacheReadTokens).toBe(0);
    const hour = await replayConversation(stamped, { engine: engine(1_000_000), model: "claude-sonnet-4", provider: "anthropic", ttl: "1h" });
    expect(hour.totals.cacheReadShare).toBeGreaterThan(0.8);
  });

  it("rejects a switch beyond the last request, naming it", async () => {
    await expect(replayConversation(transcript, { engine: engine(16_000), model: "claude-sonnet-4", provider: "anthropic", switches: [{ atRequest: 99, model: "x" }] })).rejects.toThrow(
      /switches\[0\]\.atRequest is 99 but the transcript has 60 requests/,
    );
  });

  it("reports progress after every request", async () => {
    const seen: number[] = [];
    await replayConversation(agentConversation(3), { engine: engine(16_000), model: "claude-sonnet-4", provider: "anthropic", onProgress: (p) => seen.push(p.done * 100 + p.total) });
    expect(seen).toEqual([106, 206, 306, 406, 506, 606]);
  });
});

describe("replayConversation — peaks", () => {
  it("counts the messages after the last response in the no-compaction peak as in the peak", async () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "Here is the whole log: " + "lorem ipsum dolor ".repeat(400) },
    ];
    const report = await replayConversation(messages, { engine: engine(1_000_000), model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.totals.compactions).toBe(0);
    expect(report.totals.peakContextTokens).toBe(report.totals.finalContextTokens);
    expect(report.totals.noCompactionPeakTokens).toBe(report.totals.peakContextTokens);
  });

  it("says an overflow without compaction comes after the last request when only the trailing messages overflow", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "lorem ipsum dolor ".repeat(2_000) },
    ];
    const report = await replayConversation(messages, { engine: engine(4_000), model: "claude-sonnet-4", provider: "anthropic" });
    const note = report.notes.find((n) => n.startsWith("without compaction the context would reach"));
    expect(note).toMatch(/over the 4,000-token window after the last request: the next API call would fail$/);
  });
});

describe("providerUsage", () => {
  it("puts the cache split in Anthropic's fields for Claude and sums it into prompt_tokens for others", () => {
    const a = { inputTokens: 100, cacheReadTokens: 70, cacheWriteTokens: 20, uncachedTokens: 10, outputTokens: 5 };
    expect(providerUsage("claude-haiku-4-5", a)).toEqual({ input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 70, output_tokens: 5 });
    expect(providerUsage("gpt-5", a)).toEqual({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, prompt_tokens_details: { cached_tokens: 70 } });
  });

  it("answers a Claude model via OpenRouter in OpenAI chat's shape with cached_tokens and cache_write_tokens", () => {
    const a = { inputTokens: 100, cacheReadTokens: 70, cacheWriteTokens: 20, uncachedTokens: 10, outputTokens: 5 };
    expect(providerUsage("anthropic/claude-sonnet-4", a, "openrouter")).toEqual({
      prompt_tokens: 100,
      completion_tokens: 5,
      total_tokens: 105,
      prompt_tokens_details: { cached_tokens: 70, cache_write_tokens: 20 },
    });
    expect(providerUsage("claude-sonnet-4", a, "anthropic")).toEqual({ input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 70, output_tokens: 5 });
  });

  it("feeds the engine OpenRouter's usage shape when replaying a Claude model via OpenRouter", async () => {
    const e = engine(16_000);
    const report = await replayConversation(transcript, { engine: e, model: "anthropic/claude-sonnet-4", provider: "openrouter" });
    expect(report.totals.cacheReadTokens).toBeGreaterThan(0);
    e.usages.forEach((usage, i) => {
      const r = report.requests[i]!;
      expect(usage).toEqual({
        prompt_tokens: r.promptTokens,
        completion_tokens: r.outputTokens,
        total_tokens: r.promptTokens + r.outputTokens,
        prompt_tokens_details: { cached_tokens: r.cacheRead, cache_write_tokens: r.cacheWrite },
      });
    });
  });
});

/** A log of `lines` lines (600 lines ≈ 7,700 tokens). */
function buildLog(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `line ${i}: request ${i * 7} took ${i % 13} ms`).join("\n");
}

/** The newest request reads a big tool output: an ask, the call and its result after the last usage report, then the answer. */
function withBigOutput(before: ChatMessage[], lines: number): ChatMessage[] {
  return [
    ...before,
    { role: "user", content: "Read the build log." },
    { role: "assistant", content: null, tool_calls: [{ id: "log", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "build.log" }) } }] },
    { role: "tool", tool_call_id: "log", content: buildLog(lines) },
    { role: "assistant", content: "The log is long." },
  ];
}

describe("replayConversation when a tool output jumps the context past the window less the output reserve", () => {
  it("compacts before the request that would cross the line, though the last reported usage is below the trigger", async () => {
    const messages = withBigOutput(agentConversation(22), 600);
    const afters: ChatMessage[][] = [];
    const e = engine(32_000);
    const report = await replayConversation(messages, { engine: e, model: "claude-sonnet-4", provider: "anthropic", onCompaction: (c) => void afters.push([...c.after]) });
    expect(report.requestLimitTokens).toBe(32_000 - 3_200);
    const last = report.requests.at(-1)!;
    const previous = report.requests.at(-2)!;
    // the premise: the last report is below the trigger, and the request would cross the line unless compacted
    expect(previous.promptTokens).toBeLessThan(report.thresholdTokens);
    expect(last.noCompactionPromptTokens).toBeGreaterThan(report.requestLimitTokens);
    expect(last.compacted?.layer).toBe("agent");
    expect(e.lastCompression?.droppedMessages).toBeGreaterThan(0);
    expect(report.requests.every((r) => r.promptTokens <= report.requestLimitTokens)).toBe(true);
    // the big output the model has not read yet is still there, whole
    expect(afters.at(-1)!.some((m) => m.role === "tool" && m.content === buildLog(600))).toBe(true);
    for (const after of afters) expect(validateConversation(after)).toEqual([]);
  });

  it("clears a newest tool output that alone is larger than the window, so the request fits", async () => {
    const messages = withBigOutput([{ role: "system", content: SYSTEM_PROMPT }], 3_000);
    const afters: ChatMessage[][] = [];
    const e = engine(16_000);
    const report = await replayConversation(messages, { engine: e, model: "claude-sonnet-4", provider: "anthropic", onCompaction: (c) => void afters.push([...c.after]) });
    const last = report.requests.at(-1)!;
    expect(last.noCompactionPromptTokens).toBeGreaterThan(16_000);
    expect(last.promptTokens).toBeLessThanOrEqual(report.requestLimitTokens);
    expect(e.lastCompression?.clearedToFitLine).toBe(1);
    const output = afters.at(-1)!.find((m) => m.role === "tool")!;
    expect(String(output.content)).toMatch(/^\[Old tool output cleared to save context space\] \[read_file\]/);
    expect(validateConversation(afters.at(-1)!)).toEqual([]);
    expect(report.notes.some((n) => n.includes("output reserve"))).toBe(false);
  });

  it("says which requests an engine that never compacts sent past the line", async () => {
    class NeverCompacts extends RecordingCompressor {
      override shouldCompress(): boolean {
        return false;
      }
      override async compress(conversation: ChatMessage[]): Promise<ChatMessage[]> {
        return conversation;
      }
    }
    const e = new NeverCompacts({ model: { model: "claude-sonnet-4", contextLength: 16_000 } });
    const report = await replayConversation(withBigOutput([{ role: "system", content: SYSTEM_PROMPT }], 3_000), { engine: e, model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.requests[1]!.promptTokens).toBeGreaterThan(16_000);
    expect(report.notes.some((n) => n.startsWith("1 request sent more than 14,400 tokens, the 16,000-token window less the 1,600-token output reserve (first: request 1,"))).toBe(true);
  });
});

describe("MeteredSummarizer", () => {
  it("records the tokens of the prompt an LLM summarizer sends and of the summary, and keeps the inner summarizer's name", async () => {
    const counter = new TiktokenCounter();
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), counter);
    const request = { messages: transcript.slice(1, 9), maxTokens: 800 };
    const summary = await meter.summarize(request);
    expect(meter.name).toBe("extractive");
    expect(meter.calls).toEqual([{ inputTokens: counter.count(buildSummaryPrompt(request, serializeTurns(request.messages))), outputTokens: counter.count(summary) }]);
  });

  it("records nothing for a summary that failed", async () => {
    const failing: Summarizer = { name: "down", summarize: async () => Promise.reject(new Error("503")) };
    const meter = new MeteredSummarizer(failing, new TiktokenCounter());
    await expect(meter.summarize({ messages: transcript.slice(1, 3), maxTokens: 100 })).rejects.toThrow("503");
    expect(meter.calls).toEqual([]);
  });
});
