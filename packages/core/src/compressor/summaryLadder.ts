/**
 * The failure ladder around a summarizer call: an empty summary is a failure; auth, quota, network,
 * cancellation (or `abort_on_summary_failure`) abort the compaction; anything else falls back to the
 * offline summarizer, whose output is capped and marked as a fallback.
 */
import { EmptySummaryError, classifySummaryFailure, type SummaryFailure } from "../summarizers/failures.js";
import { normalizeSummary } from "../summarizers/prompt.js";
import type { SummaryRequest, Summarizer } from "../summarizers/types.js";
import { FALLBACK_SUMMARY_MAX_CHARS, cleanSummaryBody } from "./summaryMessage.js";

/** The token budget a fallback summary is asked for: {@link FALLBACK_SUMMARY_MAX_CHARS} at about 4 characters a token. */
export const FALLBACK_SUMMARY_MAX_TOKENS = Math.floor(FALLBACK_SUMMARY_MAX_CHARS / 4);

/** Inputs of {@link runSummaryLadder}. */
export interface SummaryLadderInput {
  primary: Summarizer;
  fallback: Summarizer;
  request: SummaryRequest;
  signal?: AbortSignal | undefined;
  /** `compression.abort_on_summary_failure`: every failure aborts. */
  abortOnFailure: boolean;
  /** Skip the primary (e.g. during a cooldown) and use the fallback directly, for this reason. */
  skipPrimary?: SummaryFailure | undefined;
}

/** A summary was produced (by the primary, or by the fallback after `failure`). */
export interface SummaryLadderSuccess {
  ok: true;
  summary: string;
  summarizer: string;
  fallbackUsed: boolean;
  /** Why the primary was not used, when the fallback ran. */
  failure?: SummaryFailure | undefined;
}

/** No summary: the compaction must return the conversation unchanged. */
export interface SummaryLadderAbort {
  ok: false;
  failure: SummaryFailure;
  summarizer: string;
}

/** The ladder's outcome. */
export type SummaryLadderOutcome = SummaryLadderSuccess | SummaryLadderAbort;

/** A summarizer's display name: its `name`, else its class name. */
export function summarizerName(summarizer: Summarizer): string {
  return summarizer.name ?? summarizer.constructor?.name ?? "summarizer";
}

async function summarizeOnce(summarizer: Summarizer, request: SummaryRequest, signal: AbortSignal | undefined, maxChars?: number): Promise<string> {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : Object.assign(new Error("aborted"), { name: "AbortError" });
  const raw = await summarizer.summarize(request, signal);
  if (typeof raw !== "string" || raw.trim() === "") throw new EmptySummaryError(`${summarizerName(summarizer)} returned an empty summary`);
  const body = cleanSummaryBody(normalizeSummary(cleanSummaryBody(raw)), maxChars);
  if (body === "") throw new EmptySummaryError(`${summarizerName(summarizer)} returned an empty summary`);
  return body;
}

function abortedFailure(signal: AbortSignal): SummaryFailure {
  const reason = signal.reason instanceof Error ? signal.reason.message : "the caller cancelled the compaction";
  return { action: "abort", kind: "aborted", reason: `compaction cancelled: ${reason}` };
}

async function runFallback(input: SummaryLadderInput, failure: SummaryFailure): Promise<SummaryLadderOutcome> {
  const name = summarizerName(input.fallback);
  try {
    // Ask for a summary that fits the cap, so the fallback chooses what to keep (the cap stays a safety net).
    const request = { ...input.request, maxTokens: Math.min(input.request.maxTokens, FALLBACK_SUMMARY_MAX_TOKENS) };
    const summary = await summarizeOnce(input.fallback, request, input.signal, FALLBACK_SUMMARY_MAX_CHARS);
    return { ok: true, summary, summarizer: name, fallbackUsed: true, failure };
  } catch (error) {
    if (input.signal?.aborted) return { ok: false, failure: abortedFailure(input.signal), summarizer: name };
    const second = classifySummaryFailure(error);
    return { ok: false, summarizer: name, failure: { action: "abort", kind: second.kind, reason: `${failure.reason}; fallback summarizer failed too: ${second.reason}` } };
  }
}

/** Runs the primary summarizer and, where the ladder allows, the fallback. Never throws. */
export async function runSummaryLadder(input: SummaryLadderInput): Promise<SummaryLadderOutcome> {
  if (input.skipPrimary) return runFallback(input, input.skipPrimary);
  const name = summarizerName(input.primary);
  try {
    const summary = await summarizeOnce(input.primary, input.request, input.signal);
    return { ok: true, summary, summarizer: name, fallbackUsed: false };
  } catch (error) {
    if (input.signal?.aborted) return { ok: false, failure: abortedFailure(input.signal), summarizer: name };
    const failure = classifySummaryFailure(error);
    if (failure.action === "abort") return { ok: false, failure, summarizer: name };
    if (input.abortOnFailure) {
      return { ok: false, summarizer: name, failure: { ...failure, action: "abort", reason: `${failure.reason} (abort_on_summary_failure is set)` } };
    }
    return runFallback(input, failure);
  }
}
