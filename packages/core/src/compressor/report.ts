/** The `lastCompression` report: what one `compress()` call did, for status lines, logs and tests. */
import type { SummaryFailure } from "../summarizers/failures.ts";

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
  /** The summarizer whose summary was used (or that failed), null when none ran. */
  summarizer: string | null;
  fallbackUsed: boolean;
  /** Why the primary summarizer was not used, when the fallback ran. */
  fallbackReason?: string | undefined;
  /** True when the conversation was returned unchanged. */
  aborted: boolean;
  abortReason?: string | undefined;
  failureKind?: SummaryFailure["kind"] | "nothing_to_compress" | "cooldown" | "invalid_output" | undefined;
  /** Seconds before the summarizer is tried again after a failure (0 when none). */
  cooldownSeconds: number;
  /** Phase 1: outputs cleared, older duplicates pointed to the newer copy, call arguments truncated. */
  prunedToolResults: number;
  deduplicatedToolResults: number;
  truncatedToolArguments: number;
  /** Progress guarantee: the tail floor was lowered to 3 messages. */
  tailFloorReduced: boolean;
  /** Progress guarantee: large tool outputs cleared inside the tail (all but the newest group). */
  tailToolOutputsCleared: number;
  summaryRole?: "user" | "assistant" | undefined;
  mergedIntoTail: boolean;
  noteAdded: boolean;
  /** The estimate after compaction is still at or above the threshold. */
  stillAboveThreshold: boolean;
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
    mergedIntoTail: false,
    noteAdded: false,
    stillAboveThreshold: false,
  };
}
