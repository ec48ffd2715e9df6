/**
 * The fidelity bench's measure of what the summary model is shown: the built-in compressor with the
 * offline summarizer wrapped in a meter that builds, for every summary, the prompts an LLM summarizer
 * sends (one per chunk of a range longer than its input, or one with a digest), and the eval scoring
 * each compaction's removed facts against them (`promptRecall`) — no model is called. Users with an API
 * key get the LLM summarizer, so this is the recall that bounds their summaries.
 */
import { ContextCompressor, type ChatMessage } from "@context-engine/core";
import type { OversizedRangeMode } from "@context-engine/core/compressor";
import type { CompressionConfig } from "@context-engine/core";
import { addSurvival, emptySurvival, evaluateFidelity, evaluateForcedCompaction, MeteredSummarizer, survivalShare, type FidelityReport, type KindSurvival, type SurvivalByKind } from "@context-engine/core/lab";
import { ExtractiveSummarizer, defaultTokenCounter } from "@context-engine/core";

/** What the summary model was shown in one transcript's run, and what the calls cost. */
export interface PromptFigures {
  recall: SurvivalByKind;
  /** Summaries written, and the model calls and prompt tokens an LLM summarizer spends on them. */
  summaries: number;
  calls: number;
  promptTokens: number;
  /** The most calls one summary took. */
  maxCallsPerSummary: number;
}

/**
 * A built-in compressor whose summarizer is the offline one, metered with its prompts kept (as `mode` reads
 * an oversized range, or as the conversation's suffix where `summaryRequest` is `suffix` and the cache serves it).
 */
export function meteredCompressor(model: string, window: number, mode: OversizedRangeMode = "chunks", summaryRequest: CompressionConfig["summary_request"] = "separate"): { engine: ContextCompressor; meter: MeteredSummarizer } {
  const meter = new MeteredSummarizer(new ExtractiveSummarizer(), defaultTokenCounter(), { keepPrompts: true, oversizedRange: mode });
  return { engine: new ContextCompressor({ model: { model, provider: "anthropic", contextLength: window }, compression: { summary_request: summaryRequest }, summarizer: meter }), meter };
}

/**
 * What the summary model is shown of `messages` replayed at `window` with `summary_request: suffix` (each
 * summary the conversation as the agent sent it where the cache serves it, else the separate prompts), and
 * how many summaries went as the suffix; undefined when the replay does not compact.
 */
export async function measureSuffixPrompts(messages: ChatMessage[], model: string, window: number): Promise<{ figures: PromptFigures; suffixSummaries: number } | undefined> {
  const { engine, meter } = meteredCompressor(model, window, "chunks", "suffix");
  const report = await evaluateFidelity(messages, { engine, model, provider: "anthropic", prompts: meter });
  if (report.compactions.length === 0) return undefined;
  return { figures: promptFigures(meter, report.promptRecall), suffixSummaries: meter.calls.filter((call) => call.suffix !== undefined).length };
}

/** The figures of `meter` for a run whose prompt recall was `recall`. */
export function promptFigures(meter: MeteredSummarizer, recall: SurvivalByKind | undefined): PromptFigures {
  return {
    recall: recall ?? emptySurvival(),
    summaries: meter.prompts.length,
    calls: meter.calls.length,
    promptTokens: meter.calls.reduce((sum, c) => sum + c.inputTokens, 0),
    maxCallsPerSummary: meter.prompts.reduce((max, p) => Math.max(max, p.length), 0),
  };
}

/**
 * One transcript at `window` with `mode`: the replay, or one forced compaction when it never compacts
 * on its own; undefined when even that removes nothing.
 */
export async function measurePrompts(messages: ChatMessage[], model: string, window: number, mode: OversizedRangeMode): Promise<PromptFigures | undefined> {
  const replayed = meteredCompressor(model, window, mode);
  const report: FidelityReport = await evaluateFidelity(messages, { engine: replayed.engine, model, provider: "anthropic", prompts: replayed.meter });
  if (report.compactions.length > 0) return promptFigures(replayed.meter, report.promptRecall);
  const forced = meteredCompressor(model, window, mode);
  const compaction = await evaluateForcedCompaction(messages, forced.engine, undefined, forced.meter);
  return compaction === undefined ? undefined : promptFigures(forced.meter, compaction.promptRecall);
}

/** One forced compaction of the whole of `messages` at `window` (the longest range it can compact), read as `mode` reads it; undefined when it removes nothing. */
export async function measureForcedPrompts(messages: ChatMessage[], model: string, window: number, mode: OversizedRangeMode): Promise<PromptFigures | undefined> {
  const forced = meteredCompressor(model, window, mode);
  const compaction = await evaluateForcedCompaction(messages, forced.engine, undefined, forced.meter);
  return compaction === undefined ? undefined : promptFigures(forced.meter, compaction.promptRecall);
}

/** Sums figures of several runs. */
export function addPromptFigures(rows: readonly PromptFigures[]): PromptFigures {
  return rows.reduce<PromptFigures>(
    (acc, r) => ({
      recall: addSurvival(acc.recall, r.recall),
      summaries: acc.summaries + r.summaries,
      calls: acc.calls + r.calls,
      promptTokens: acc.promptTokens + r.promptTokens,
      maxCallsPerSummary: Math.max(acc.maxCallsPerSummary, r.maxCallsPerSummary),
    }),
    { recall: emptySurvival(), summaries: 0, calls: 0, promptTokens: 0, maxCallsPerSummary: 0 },
  );
}

/** The kinds a prompt must show, with their labels. */
export const PROMPT_KINDS: Array<[keyof SurvivalByKind, string]> = [
  ["path", "paths"],
  ["error", "real errors"],
  ["command", "acting commands"],
  ["read", "reads"],
  ["ask", "user asks"],
];
/** Issue #32's goal for the summary model's prompt, per kind but reads. */
export const PROMPT_RECALL_GOAL = 0.98;

function share(entry: KindSurvival): string {
  const s = survivalShare(entry);
  return s === undefined ? "—" : `${entry.kept}/${entry.total} ${(s * 100).toFixed(1)}%`;
}

/** The lines of a split's prompt-recall totals (`goals`: print the ≥ 98 % check beside each kind but reads). */
export function promptRecallLines(label: string, figures: PromptFigures, goals: boolean): string[] {
  const perCall = figures.summaries === 0 ? "" : `: ${figures.calls} summarizer calls for ${figures.summaries} summaries (at most ${figures.maxCallsPerSummary} for one), ${Math.round(figures.promptTokens / figures.summaries).toLocaleString("en-US")} prompt tokens per summary`;
  const lines = [`    ${label}${perCall}`];
  for (const [kind, name] of PROMPT_KINDS) {
    const entry = figures.recall[kind];
    const s = survivalShare(entry);
    const goal = !goals || kind === "read" || s === undefined ? "" : s >= PROMPT_RECALL_GOAL ? ` (goal ≥ ${PROMPT_RECALL_GOAL * 100} %: met)` : ` (goal ≥ ${PROMPT_RECALL_GOAL * 100} %: MISSED)`;
    lines.push(`      ${name.padEnd(16)} ${share(entry).padStart(18)}${goal}`);
  }
  return lines;
}
