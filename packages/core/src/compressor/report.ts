/** The `lastCompression` report: what one `compress()` call did, for status lines, logs and tests. */
import type { SummaryFailure } from "../summarizers/failures.js";
import type { SummaryModelCall } from "../summarizers/types.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import type { SummaryRequestNote } from "./summaryConversation.js";

/** What one `compress()` call did. */
export interface CompressionReport {
  /** `compressionCount` after this call (unchanged when nothing was compacted). */
  compressionNumber: number;
  /** Wall-clock start (the compressor's `now()`, ms since the epoch). */
  startedAt: number;
  durationMs: number;
  forced: boolean;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Middle messages replaced by the summary. */
  droppedMessages: number;
  headMessages: number;
  tailMessages: number;
  summaryTokens: number;
  /** The summary's tokens before it was cut down to its budget, when the summarizer wrote more. */
  summaryCappedFromTokens?: number | undefined;
  /**
   * The verbatim guard on the summary used: facts (paths, backticked commands, identifiers, quoted
   * asks) checked against the compacted turns, invented ones removed with their list item or flagged in
   * place (docs/BEHAVIOUR.md, "The compression algorithm"). Absent when no summary was written.
   */
  verbatim?: { checked: number; removed: number; flagged: number } | undefined;
  /** The summarizer whose summary was used (or that failed), null when none ran. */
  summarizer: string | null;
  /**
   * The model calls the summary took and the tokens their API reported (several when the range was
   * longer than the summary model's input, `auxiliary.compression.oversized_range`); absent when no
   * LLM summarizer was called.
   */
  summaryCalls?: { calls: number; inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number } | undefined;
  /**
   * With `compression.summary_request: suffix`: whether the summary was asked as the conversation's
   * suffix (its input read from the provider's prompt cache) or separately, and why (docs/BEHAVIOUR.md,
   * "A summary that reads the cache"). Absent with `separate`, and when no summary was written.
   */
  summaryRequest?: SummaryRequestNote | undefined;
  fallbackUsed: boolean;
  /** Why the primary summarizer was not used, when the fallback ran. */
  fallbackReason?: string | undefined;
  /**
   * True when nothing was compacted: the conversation was returned unchanged, but for its repaired tool
   * pairs (`repairedToolPairs`).
   */
  aborted: boolean;
  abortReason?: string | undefined;
  failureKind?: SummaryFailure["kind"] | "nothing_to_compress" | "cooldown" | "invalid_output" | undefined;
  /** Seconds before the summarizer is tried again after a failure (0 when none). */
  cooldownSeconds: number;
  /** Pruning: outputs cleared, older duplicates pointed to the newer copy, call arguments truncated. */
  prunedToolResults: number;
  deduplicatedToolResults: number;
  truncatedToolArguments: number;
  /** Progress guarantee: the tail floor was lowered to 3 messages. */
  tailFloorReduced: boolean;
  /** Progress guarantee: large tool outputs cleared inside the tail (all but the newest group). */
  tailToolOutputsCleared: number;
  /**
   * Tool outputs the protected tail kept that were cleared because the result was still past the
   * overflow line, the newest group's included (compressor/fitToLine.ts).
   */
  clearedToFitLine: number;
  summaryRole?: "user" | "assistant" | undefined;
  mergedIntoTail: boolean;
  noteAdded: boolean;
  /** The estimate after compaction is still at or above the threshold. */
  stillAboveThreshold: boolean;
  /**
   * Tool-pair problems of the input the output no longer has: orphan results removed, calls without a
   * result given a stub, misplaced or duplicate results moved or dropped. Repaired also when nothing was
   * compacted; a trailing group of calls still running is not a problem.
   */
  repairedToolPairs: number;
  /**
   * The summary prepared in the background (`compression.prepare_at`): `applied` at once, `awaited`
   * (still being written when the trigger fired), `updated` with only the turns that came since, or not
   * used — `stale` (its range changed) or `failed` — and the blocking path ran. `fromStore`: another worker
   * prepared it (a store shared by workers). Absent when there was none.
   */
  preparation?: { outcome: "applied" | "awaited" | "updated" | "stale" | "failed"; reason?: string; fromStore?: boolean } | undefined;
}

/** A report with every counter zeroed, for `compress()` to fill in. */
export function emptyReport(startedAt: number, forced: boolean, messages: number, tokens: number, compressionNumber: number): CompressionReport {
  return {
    compressionNumber,
    startedAt,
    durationMs: 0,
    forced,
    messagesBefore: messages,
    messagesAfter: messages,
    tokensBefore: tokens,
    tokensAfter: tokens,
    droppedMessages: 0,
    headMessages: 0,
    tailMessages: 0,
    summaryTokens: 0,
    summarizer: null,
    fallbackUsed: false,
    aborted: false,
    cooldownSeconds: 0,
    prunedToolResults: 0,
    deduplicatedToolResults: 0,
    truncatedToolArguments: 0,
    tailFloorReduced: false,
    tailToolOutputsCleared: 0,
    clearedToFitLine: 0,
    mergedIntoTail: false,
    noteAdded: false,
    stillAboveThreshold: false,
    repairedToolPairs: 0,
  };
}

/** Marks `report` as a call that returned the conversation unchanged, of `kind`, for `reason`. */
export function markUnchanged(report: CompressionReport, kind: NonNullable<CompressionReport["failureKind"]>, reason: string): void {
  report.aborted = true;
  report.failureKind = kind;
  report.abortReason = reason;
}

/** What a finished compaction contributes to its report. */
export interface CompactionOutcome {
  output: readonly unknown[];
  tokensAfter: number;
  prepared: PreparedCompaction;
  /** `compressionCount` after this compaction. */
  compressionNumber: number;
  thresholdTokens: number;
  /** The summary side; absent when only tool outputs were cleared. */
  summary?:
    | {
        summaryTokens: number;
        cappedFromTokens?: number | undefined;
        fallbackUsed: boolean;
        summaryRole: "user" | "assistant";
        mergedIntoTail: boolean;
        noteAdded: boolean;
        verbatim?: CompressionReport["verbatim"];
        modelCalls?: readonly SummaryModelCall[] | undefined;
      }
    | undefined;
}

/** Fills `report` for a compaction that changed the conversation. */
export function fillCompactionReport(report: CompressionReport, outcome: CompactionOutcome): void {
  const { prepared, summary } = outcome;
  const { plan } = prepared;
  report.compressionNumber = outcome.compressionNumber;
  report.messagesAfter = outcome.output.length;
  report.tokensAfter = outcome.tokensAfter;
  report.droppedMessages = summary ? plan.tailStart - plan.headEnd : 0;
  report.summaryTokens = summary?.summaryTokens ?? 0;
  if (summary?.cappedFromTokens !== undefined) report.summaryCappedFromTokens = summary.cappedFromTokens;
  report.fallbackUsed = summary?.fallbackUsed ?? false;
  if (summary?.verbatim !== undefined) report.verbatim = { checked: summary.verbatim.checked, removed: summary.verbatim.removed, flagged: summary.verbatim.flagged };
  const calls = summary?.modelCalls ?? [];
  if (calls.length > 0) {
    const sum = (pick: (call: SummaryModelCall) => number | undefined) => calls.reduce((n, c) => n + (pick(c) ?? 0), 0);
    report.summaryCalls = { calls: calls.length, inputTokens: sum((c) => c.inputTokens), outputTokens: sum((c) => c.outputTokens) };
    if (calls.some((c) => c.cacheReadTokens !== undefined || c.cacheWriteTokens !== undefined)) Object.assign(report.summaryCalls, { cacheReadTokens: sum((c) => c.cacheReadTokens), cacheWriteTokens: sum((c) => c.cacheWriteTokens) });
  }
  report.prunedToolResults = prepared.cleared;
  report.deduplicatedToolResults = prepared.dedup;
  report.truncatedToolArguments = prepared.truncatedArguments;
  report.tailFloorReduced = prepared.tailFloorReduced;
  report.tailToolOutputsCleared = prepared.tailToolOutputsCleared;
  report.summaryRole = summary?.summaryRole;
  report.mergedIntoTail = summary?.mergedIntoTail ?? false;
  report.noteAdded = summary?.noteAdded ?? false;
  report.stillAboveThreshold = report.tokensAfter >= outcome.thresholdTokens;
}

/**
 * Counts the in-flight tool-call group compress() kept out of compaction and appended unchanged, so
 * the report describes the whole conversation: messages, tail and tokens (tokens before only when the
 * caller did not pass `currentTokens`, which already covers everything).
 */
export function includeInFlightGroup(report: CompressionReport, messages: number, tokens: number, tokensBeforeGiven: boolean): void {
  report.messagesBefore += messages;
  report.messagesAfter += messages;
  report.tailMessages += messages;
  if (!tokensBeforeGiven) report.tokensBefore += tokens;
  report.tokensAfter = report.aborted ? report.tokensBefore : report.tokensAfter + tokens;
}
