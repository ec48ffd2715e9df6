/** Summary failure classification: which failures abort a compaction and which fall back offline. */

/** What the compressor does after a summarizer failure. */
export interface SummaryFailure {
  /** `abort`: return the conversation unchanged. `fallback`: use the offline ExtractiveSummarizer. */
  action: "abort" | "fallback";
  /** auth | quota | network | timeout | server | empty | invalid | aborted | other */
  kind: "auth" | "quota" | "network" | "timeout" | "server" | "empty" | "invalid" | "aborted" | "other";
  /** One readable line for the report. */
  reason: string;
}

/** Thrown by a summarizer that produced an empty or whitespace-only summary. */
export class EmptySummaryError extends Error {
  constructor(message = "summarizer returned an empty summary") {
    super(message);
    this.name = "EmptySummaryError";
  }
}

/** Classifies an error thrown by a summarizer (openai SDK errors, fetch errors, AbortError, …). */
export function classifySummaryFailure(error: unknown): SummaryFailure {
  throw new Error("not implemented");
}
