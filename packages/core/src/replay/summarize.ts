/**
 * Pure: turns what the replay loop recorded and the prefix-cache accounting of the replay and of its
 * no-compaction variant into the {@link ReplayReport} (rows, compaction cache effects, totals, notes).
 */
import type { PrefixCacheReport, RequestCacheAccounting } from "../caching/prefixCacheModel.js";
import { requestCostUsd, type ModelPrice } from "../providers/prices.js";
import type { CompactionEffect, CompactionLayer, FullMissNote, InvalidOutputNote, InvalidOutputs, ReplayReport, ReplayRequest, RequestCompaction, SummaryCosts } from "./types.js";
import type { SummariesSince } from "./meteredSummaries.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";

/** A request's read share at or above which the cache counts as recovered after a compaction. */
export const RECOVERED_READ_SHARE = 0.8;

/** What the replay loop records about one request besides its cache accounting. */
export interface LoopRecord {
  responseMessage: number;
  timestampMs: number;
  messages: number;
  compacted?: RequestCompaction;
  compactionAborted?: { layer: CompactionLayer; reason: string };
  /** Outputs refused before this request (they break provider rules), and the first of them. */
  invalidOutputs?: number;
  invalidOutput?: InvalidOutputNote;
  notices?: string[];
  /** Summaries written since the request before: their prompt and summary tokens, and what suffix calls read from the cache. */
  summaries?: SummariesSince;
}

/** Everything {@link buildReplayReport} needs. */
export interface ReplayParts extends Pick<ReplayReport, "engine" | "model" | "provider" | "ttl" | "caching" | "contextLength" | "requestLimitTokens" | "thresholdTokens" | "thresholdRule" | "hygieneThresholdTokens" | "timing"> {
  records: LoopRecord[];
  replay: PrefixCacheReport;
  noCompaction: PrefixCacheReport;
  finalContextTokens: number;
  /** Tokens of the whole transcript: the final context had nothing been compacted. */
  noCompactionFinalContextTokens: number;
  /** The summary model and its price when the summaries were metered (price undefined: unknown). */
  summaryModel?: { model: string; price: ModelPrice | undefined };
}

/**
 * `tokens` of summaries priced at `price`: a separate call's prompt new (no cache reads or writes), a suffix
 * call's input as the cache served it (reads, writes at `ttl`, the rest uncached).
 */
function summaryCosts(tokens: SummariesSince, price: ModelPrice | undefined, ttl: CacheTtl): SummaryCosts {
  const { suffixCalls, cacheReadTokens, cacheWriteTokens, ...counts } = tokens;
  const billed = { uncachedInputTokens: tokens.inputTokens - cacheReadTokens - cacheWriteTokens, cacheReadTokens, cacheWriteTokens: { "5m": 0, "1h": 0, [ttl]: cacheWriteTokens }, outputTokens: tokens.outputTokens };
  const costUsd = price === undefined ? null : requestCostUsd(billed, price);
  return { ...counts, ...(suffixCalls > 0 ? { suffixCalls, cacheReadTokens, cacheWriteTokens } : {}), costUsd };
}

/** The summaries of every request, summed. */
function sumSummaries(records: readonly LoopRecord[]): SummariesSince {
  const sum: SummariesSince = { calls: 0, inputTokens: 0, outputTokens: 0, suffixCalls: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  for (const { summaries } of records) {
    if (!summaries) continue;
    for (const key of Object.keys(sum) as Array<keyof SummariesSince>) sum[key] += summaries[key];
  }
  return sum;
}

function formatTokens(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The report's note on the summaries: their calls and tokens at the summary model's price, the suffix calls' cache reads among them. */
function summariesNote(summaries: SummaryCosts & { model: string }): string {
  const calls = `${summaries.calls} summary call${summaries.calls === 1 ? "" : "s"}`;
  if (summaries.costUsd === null) return `no price for the summary model ${summaries.model}: the ${calls} ${summaries.calls === 1 ? "is" : "are"} left out of the costs`;
  const suffix = summaries.suffixCalls ?? 0;
  const how =
    suffix === 0
      ? "the prompt an LLM summarizer sends, uncached"
      : suffix === summaries.calls
        ? "each the conversation's suffix, its input as the prompt cache served it"
        : `${suffix} of them the conversation's suffix, its input as the prompt cache served it; the others' prompts uncached`;
  const read = suffix === 0 ? "" : ` (${formatTokens(summaries.cacheReadTokens ?? 0)} read from the cache, ${formatTokens(summaries.cacheWriteTokens ?? 0)} written)`;
  return `${calls} priced at ${summaries.model} (${how}): ${formatTokens(summaries.inputTokens)} tokens in${read}, ${formatTokens(summaries.outputTokens)} out`;
}

function recoveredAfter(accounting: readonly RequestCacheAccounting[], from: number): number | null {
  for (let j = from + 1; j < accounting.length; j += 1) {
    const a = accounting[j] as RequestCacheAccounting;
    if (a.inputTokens > 0 && a.cacheReadTokens >= RECOVERED_READ_SHARE * a.inputTokens) return j - from;
  }
  return null;
}

function fullMissNote(a: RequestCacheAccounting, previousModel: string | undefined): FullMissNote | undefined {
  if (a.fullMissReason === undefined) return undefined;
  const what = a.fullMissReason === "model_switch" ? `model switch (${previousModel ?? "?"} → ${a.model})` : "credential switch (another account)";
  return {
    request: a.index,
    reason: a.fullMissReason,
    note:
      `request ${a.index}: ${what} — the model and account are part of the cache key, so this request missed the cache entirely ` +
      `and sent the whole conversation (${formatTokens(a.inputTokens)} tokens) at the undiscounted input price (the model is part of the cache key)`,
  };
}

/** Builds the report. Row i of `records`, `replay.requests` and `noCompaction.requests` is request i. */
export function buildReplayReport(parts: ReplayParts): ReplayReport {
  const main = parts.replay.requests;
  const plain = parts.noCompaction.requests;
  let cumulative = 0;
  let cumulativeUncached = 0;
  let cumulativeNoCompaction = 0;
  let cumulativeWithSummaries = 0;
  const requests = parts.records.map((record, index): ReplayRequest => {
    const a = main[index] as RequestCacheAccounting;
    const p = plain[index] as RequestCacheAccounting;
    const summaries = record.summaries && record.summaries.calls > 0 ? summaryCosts(record.summaries, parts.summaryModel?.price, parts.ttl) : undefined;
    cumulative += a.costUsd ?? 0;
    cumulativeUncached += a.uncachedCostUsd ?? 0;
    cumulativeNoCompaction += p.costUsd ?? 0;
    cumulativeWithSummaries += (a.costUsd ?? 0) + (summaries?.costUsd ?? 0);
    const row: ReplayRequest = {
      index,
      responseMessage: record.responseMessage,
      timestampMs: record.timestampMs,
      model: a.model,
      messages: record.messages,
      promptTokens: a.inputTokens,
      outputTokens: a.outputTokens,
      cacheRead: a.cacheReadTokens,
      cacheWrite: a.cacheWriteTokens,
      uncached: a.uncachedTokens,
      costUsd: a.costUsd,
      uncachedCostUsd: a.uncachedCostUsd,
      cumulativeCostUsd: cumulative,
      cumulativeUncachedCostUsd: cumulativeUncached,
      cumulativeCostWithSummariesUsd: cumulativeWithSummaries,
      noCompactionPromptTokens: p.inputTokens,
      noCompactionCostUsd: p.costUsd,
      cumulativeNoCompactionCostUsd: cumulativeNoCompaction,
    };
    if (record.compacted) row.compacted = record.compacted;
    if (record.compactionAborted) row.compactionAborted = record.compactionAborted;
    if (record.invalidOutput) row.invalidOutput = record.invalidOutput;
    if (a.fullMissReason) row.fullMiss = a.fullMissReason;
    if (record.notices && record.notices.length > 0) row.notices = record.notices;
    if (summaries) row.summaries = summaries;
    return row;
  });

  const compactions: CompactionEffect[] = [];
  requests.forEach((row, index) => {
    if (!row.compacted) return;
    compactions.push({
      request: index,
      layer: row.compacted.layer,
      tokensBefore: row.compacted.before,
      tokensAfter: row.compacted.after,
      cacheRewriteTokens: row.cacheWrite,
      cacheReadTokens: row.cacheRead,
      nextRequestCostUsd: row.costUsd,
      noCompactionCostUsd: row.noCompactionCostUsd,
      recoveredAfterRequests: recoveredAfter(main, index),
    });
  });

  const fullMisses = main.map((a, i) => fullMissNote(a, main[i - 1]?.model)).filter((n): n is FullMissNote => n !== undefined);
  const t = parts.replay.totals;
  const noCompactionPeak = Math.max(parts.noCompactionFinalContextTokens, ...plain.map((p) => p.inputTokens));
  const notes: string[] = [];
  if (!parts.caching.enabled) notes.push(parts.caching.banner.replace(/^💾 /, ""));
  if (noCompactionPeak > parts.contextLength) {
    const at = plain.findIndex((p) => p.inputTokens > parts.contextLength);
    notes.push(
      `without compaction the context would reach ${formatTokens(noCompactionPeak)} tokens, over the ${formatTokens(parts.contextLength)}-token window ` +
        (at >= 0 ? `from request ${at} on: those API calls would fail (the no-compaction cost counts them anyway)` : "after the last request: the next API call would fail"),
    );
  }
  const over = requests.filter((r) => r.promptTokens > parts.requestLimitTokens);
  if (over.length > 0) {
    const first = over[0] as ReplayRequest;
    const reserve = parts.contextLength - parts.requestLimitTokens;
    notes.push(
      `${over.length} request${over.length === 1 ? "" : "s"} sent more than ${formatTokens(parts.requestLimitTokens)} tokens, the ${formatTokens(parts.contextLength)}-token window less the ${formatTokens(reserve)}-token output reserve (first: request ${first.index}, ` +
        `${formatTokens(first.promptTokens)} tokens): the engine did not compact ${over.length === 1 ? "it" : "them"} to fit, and the API may reject ${over.length === 1 ? "it" : "them"}`,
    );
  }
  for (const miss of fullMisses) notes.push(miss.note);
  if (t.unpricedModels.length > 0) notes.push(`no price for ${t.unpricedModels.join(", ")}: their requests are left out of the costs`);
  const summaries = parts.summaryModel === undefined ? undefined : { model: parts.summaryModel.model, ...summaryCosts(sumSummaries(parts.records), parts.summaryModel.price, parts.ttl) };
  if (summaries && summaries.calls > 0) notes.push(summariesNote(summaries));
  const aborted = requests.filter((r) => r.compactionAborted).length;
  if (aborted > 0) notes.push(`${aborted} compaction attempt${aborted === 1 ? "" : "s"} returned the conversation unchanged`);

  const firstInvalid = parts.records.find((r) => r.invalidOutput)?.invalidOutput;
  const invalidOutputs: InvalidOutputs = { count: parts.records.reduce((sum, r) => sum + (r.invalidOutputs ?? 0), 0), ...(firstInvalid ? { first: firstInvalid } : {}) };

  const byLayer: Record<CompactionLayer, number> = { gateway: 0, agent: 0 };
  for (const c of compactions) byLayer[c.layer] += 1;
  const peakContextTokens = Math.max(parts.finalContextTokens, ...requests.map((r) => r.promptTokens));
  return {
    engine: parts.engine,
    model: parts.model,
    provider: parts.provider,
    ttl: parts.ttl,
    caching: parts.caching,
    contextLength: parts.contextLength,
    requestLimitTokens: parts.requestLimitTokens,
    thresholdTokens: parts.thresholdTokens,
    ...(parts.thresholdRule === undefined ? {} : { thresholdRule: parts.thresholdRule }),
    hygieneThresholdTokens: parts.hygieneThresholdTokens,
    timing: parts.timing,
    requests,
    compactions,
    fullMisses,
    invalidOutputs,
    notes,
    totals: {
      requests: t.requests,
      compactions: compactions.length,
      compactionsByLayer: byLayer,
      abortedCompactions: aborted,
      peakContextTokens,
      finalContextTokens: parts.finalContextTokens,
      inputTokens: t.inputTokens,
      cacheReadTokens: t.cacheReadTokens,
      cacheWriteTokens: t.cacheWriteTokens,
      uncachedTokens: t.uncachedTokens,
      outputTokens: t.outputTokens,
      cacheReadShare: t.cacheReadShare,
      idealCacheReadShare: t.idealCacheReadShare,
      idealCacheReadTokens: t.idealCacheReadTokens,
      costUsd: t.costUsd,
      noCachingCostUsd: t.uncachedCostUsd,
      noCompactionCostUsd: parts.noCompaction.totals.costUsd,
      noCompactionCacheReadShare: parts.noCompaction.totals.cacheReadShare,
      noCompactionPeakTokens: noCompactionPeak,
      idealCostUsd: t.idealCostUsd,
      fullMisses: t.fullMisses,
      unpricedModels: t.unpricedModels,
      ...(summaries ? { summaries } : {}),
      costWithSummariesUsd: t.costUsd + (summaries?.costUsd ?? 0),
    },
  };
}
