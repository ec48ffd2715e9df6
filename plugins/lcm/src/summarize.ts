/**
 * The summary escalation ladder: normal (target budget) → aggressive (half the budget) → deterministic
 * truncation with a marker naming the summary id. Every rung is bounded by a timeout, and a result is
 * only accepted when it stays within {@link SUMMARY_OVERRUN_TOLERANCE}× its budget and is smaller than
 * its sources, so a summary always shrinks the context, even when the summarizer throws, hangs or inflates.
 */
import { classifySummaryFailure, estimateTokensRough, redactSecrets, type ChatMessage, type Summarizer, type TokenCounter } from "./core.js";
import { neutralizeInstructions } from "./neutralize.js";
import type { SummaryLevel } from "./store/LcmStore.js";

/** Thrown when a summarizer call exceeded its time budget. */
export class SummaryTimeoutError extends Error {
  constructor(ms: number) {
    super(`summarizer did not answer within ${ms} ms`);
    this.name = "SummaryTimeoutError";
  }
}

/** Thrown when the caller's signal aborted the compaction. */
export class CompactionAbortedError extends Error {
  constructor() {
    super("compaction aborted by the caller");
    this.name = "CompactionAbortedError";
  }
}

/**
 * Runs `task` with a signal that aborts after `ms` or when `outer` aborts; rejects with
 * {@link SummaryTimeoutError} / {@link CompactionAbortedError} even if the task ignores its signal.
 */
export async function withTimeout<T>(task: (signal: AbortSignal) => Promise<T>, ms: number, outer?: AbortSignal): Promise<T> {
  if (outer?.aborted) throw new CompactionAbortedError();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onOuterAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SummaryTimeoutError(ms));
    }, ms);
    onOuterAbort = () => {
      controller.abort();
      reject(new CompactionAbortedError());
    };
    outer?.addEventListener("abort", onOuterAbort, { once: true });
  });
  try {
    return await Promise.race([task(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener("abort", onOuterAbort);
  }
}

/**
 * How far over its token budget a summary may run and still be kept: models overshoot a requested length
 * often, and a somewhat long summary beats a deterministic truncation (lossless-claw keeps up to 3×).
 */
export const SUMMARY_OVERRUN_TOLERANCE = 3;

/** How the summarizer fared during one compaction. */
export interface SummarizerHealth {
  /** Set once it threw or timed out (or when it is paused): later summaries skip it. */
  failed: boolean;
  lastError?: string;
  /** Set when it refused its credentials (401/403): the engine pauses it. */
  authFailure?: string;
}

/** What one summary needs. */
export interface LadderInput {
  summarizer: Summarizer;
  counter: TokenCounter;
  /** The turns (or rendered child summaries) to summarize. */
  messages: ChatMessage[];
  /** Their plain text, for the deterministic rung. */
  sourceText: string;
  sourceTokens: number;
  /** Token budget of the normal rung. */
  targetTokens: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Shared across one compaction: once the summarizer threw or timed out, later summaries skip it. */
  health: SummarizerHealth;
  focusTopic?: string | undefined;
  /** The summary before these turns, as background for continuity (a leaf's previous summary). */
  precedingSummary?: string | undefined;
}

/** The accepted summary body (without the fallback marker, which needs the id) and its level. */
export interface LadderResult {
  body: string;
  level: SummaryLevel;
}

/** The rung-3 marker appended to a deterministic summary. */
export function truncationMarker(summaryId: string): string {
  return `[deterministic fallback summary (truncated source text) — call lcm_expand with id "${summaryId}" for the original messages]`;
}

/**
 * Head (70 %) and tail of `text` within `maxTokens` tokens less 50 for the marker, cut on a marked gap.
 * Measured with core's rough estimator, which counts CJK, kana, Hangul and Thai text as the tokens it
 * costs (a CJK character is about ¾ token, not ¼), so no script overruns the budget.
 */
export function deterministicTruncation(text: string, maxTokens: number): string {
  const budget = Math.max(4, maxTokens - 50);
  const flat = text.replace(/\s+\n/g, "\n").trim();
  const total = estimateTokensRough(flat);
  if (total <= budget) return flat;
  const cut = (chars: number) => {
    const head = Math.floor(chars * 0.7);
    const tail = Math.max(0, chars - head - 5);
    return `${flat.slice(0, head)}\n…\n${tail > 0 ? flat.slice(flat.length - tail) : ""}`;
  };
  let chars = Math.max(16, Math.floor((flat.length * budget) / total));
  let out = cut(chars);
  while (chars > 16 && estimateTokensRough(out) > budget) out = cut((chars = Math.max(16, Math.floor(chars * 0.9))));
  return out;
}

/** Walks the ladder and returns the first acceptable summary body. Rethrows only the caller's abort. */
export async function summarizeWithLadder(input: LadderInput): Promise<LadderResult> {
  const rungs: { level: SummaryLevel; maxTokens: number }[] = [
    { level: 1, maxTokens: input.targetTokens },
    { level: 2, maxTokens: Math.max(1, Math.floor(input.targetTokens / 2)) },
  ];
  for (const rung of rungs) {
    if (input.health.failed) break;
    try {
      const request = {
        messages: input.messages,
        maxTokens: rung.maxTokens,
        ...(input.focusTopic ? { focusTopic: input.focusTopic } : {}),
        ...(input.precedingSummary ? { precedingSummary: input.precedingSummary } : {}),
      };
      const text = await withTimeout((signal) => input.summarizer.summarize(request, signal), input.timeoutMs, input.signal);
      const body = typeof text === "string" ? text.trim() : "";
      if (!body) continue;
      const tokens = input.counter.count(body);
      if (tokens <= rung.maxTokens * SUMMARY_OVERRUN_TOLERANCE && tokens < input.sourceTokens) return { body, level: rung.level };
    } catch (error) {
      if (error instanceof CompactionAbortedError) throw error;
      input.health.failed = true;
      input.health.lastError = error instanceof Error ? error.message : String(error);
      const auth = authFailureReason(error);
      if (auth !== undefined) input.health.authFailure = auth;
    }
  }
  const budget = Math.max(1, Math.min(Math.floor(input.targetTokens / 2), Math.floor(input.sourceTokens / 2)));
  return { body: deterministicTruncation(fallbackSourceText(input.sourceText), budget), level: 3 };
}

/**
 * Matches the message of an error that says its credentials were refused: an HTTP 401 or 403, "unauthorized",
 * "forbidden", an invalid or incorrect API key.
 */
const AUTH_MESSAGE = /\b(?:401|403)\b|\bunauthori[sz]ed\b|\bforbidden\b|\b(?:invalid|incorrect|bad|wrong)[ _-]?api[ _-]?key\b/i;

/**
 * Why a summarizer's error means its credentials were refused, or undefined when it does not: the SDK's
 * typed 401/403 errors (core's classification), and a plain error whose message says 401, 403,
 * unauthorized or invalid API key (a custom summarizer's own `throw new Error(...)`), so both open the breaker.
 */
export function authFailureReason(error: unknown): string | undefined {
  const failure = classifySummaryFailure(error);
  if (failure.kind === "auth") return failure.reason;
  if (failure.kind !== "other") return undefined;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return AUTH_MESSAGE.test(message) ? `summarizer refused its credentials: ${message.replace(/\s+/g, " ").trim().slice(0, 200)}` : undefined;
}

/** Source text fit to be shown as a summary: secrets redacted (as every summarizer does), instruction-like text left out. */
export function fallbackSourceText(text: string): string {
  return neutralizeInstructions(redactSecrets(text));
}
