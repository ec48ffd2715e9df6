/**
 * The failure ladder around a summarizer call: an empty summary is a failure; auth, quota, network,
 * cancellation (or `abort_on_summary_failure`) abort the compaction; anything else falls back to the
 * offline summarizer, whose output is capped and marked as a fallback. Every summary used passes the
 * verbatim guard (verbatimGuard.ts: an invented path, command, identifier or quoted ask is removed or
 * flagged) and is then held within the request's token budget (an over-long one is cut down section by
 * section).
 */
import { EmptySummaryError, classifySummaryFailure, type SummaryFailure } from "../summarizers/failures.js";
import { normalizeSummary } from "../summarizers/prompt.js";
import { stripReasoningBlocks } from "../summarizers/reasoning.js";
import type { SummaryModelCall, SummaryRequest, Summarizer } from "../summarizers/types.js";
import { estimateTokensRough } from "../tokens/rough.js";
import { FALLBACK_SUMMARY_MAX_CHARS, cleanSummaryBody, fitSummaryToChars } from "./summaryBody.js";
import { guardVerbatim, type VerbatimGuardResult } from "./verbatimGuard.js";
import { requestSourceTexts, verbatimSource } from "./verbatimSource.js";

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
  /** Counts a summary's tokens, to hold it within `request.maxTokens` (default: the rough estimate). */
  countTokens?: ((text: string) => number) | undefined;
}

/** A summary was produced (by the primary, or by the fallback after `failure`). */
export interface SummaryLadderSuccess {
  ok: true;
  summary: string;
  summarizer: string;
  fallbackUsed: boolean;
  /** Why the primary was not used, when the fallback ran. */
  failure?: SummaryFailure | undefined;
  /** The summary's tokens before it was cut down to the budget, when it was over. */
  cappedFromTokens?: number | undefined;
  /** What the verbatim guard checked, removed and flagged, and the invented facts it found. */
  verbatim: Omit<VerbatimGuardResult, "summary">;
  /** The model calls an LLM summarizer reported for this summary (none for the offline one). */
  modelCalls: SummaryModelCall[];
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
  const answer = await summarizer.summarize(request, signal);
  // Reasoning a model wrote around its summary is scratch work, never stored (a custom summarizer may pass it on).
  const raw = typeof answer === "string" ? stripReasoningBlocks(answer) : answer;
  if (typeof raw !== "string" || raw.trim() === "") throw new EmptySummaryError(`${summarizerName(summarizer)} returned an empty summary`);
  const body = cleanSummaryBody(normalizeSummary(cleanSummaryBody(raw)), maxChars);
  if (body === "") throw new EmptySummaryError(`${summarizerName(summarizer)} returned an empty summary`);
  return body;
}

/**
 * `summary` held within `maxTokens` (as `count` counts): sections laid out again within a shrinking
 * character budget until it fits, every heading kept while room allows. Unchanged when it fits.
 */
export function capSummaryTokens(summary: string, maxTokens: number, count: (text: string) => number): string {
  const tokens = count(summary);
  if (tokens <= maxTokens) return summary;
  let chars = Math.floor((summary.length * maxTokens) / tokens);
  for (;;) {
    const fitted = fitSummaryToChars(summary, chars);
    if (count(fitted) <= maxTokens || chars === 0) return fitted;
    chars = Math.floor(chars * 0.9);
  }
}

/** A ladder success for `written`, its invented facts removed or flagged, cut down to the request's budget when it is over. */
function success(input: SummaryLadderInput, written: string, summarizer: string, modelCalls: SummaryModelCall[], failure?: SummaryFailure): SummaryLadderSuccess {
  // the conversation is a source only when the model read it (a suffix call wrote the summary)
  const { conversation: _offered, ...separate } = input.request;
  const read = failure === undefined && modelCalls.at(-1)?.request === "suffix" ? input.request : separate;
  const { summary, ...verbatim } = guardVerbatim(written, verbatimSource(() => requestSourceTexts(read)));
  const count = input.countTokens ?? estimateTokensRough;
  const capped = capSummaryTokens(summary, input.request.maxTokens, count);
  const cappedFromTokens = capped === summary ? undefined : count(summary);
  return { ok: true, summary: capped, summarizer, fallbackUsed: failure !== undefined, failure, cappedFromTokens, verbatim, modelCalls };
}

function abortedFailure(signal: AbortSignal): SummaryFailure {
  const reason = signal.reason instanceof Error ? signal.reason.message : "the caller cancelled the compaction";
  return { action: "abort", kind: "aborted", reason: `compaction cancelled: ${reason}` };
}

async function runFallback(input: SummaryLadderInput, failure: SummaryFailure, modelCalls: SummaryModelCall[]): Promise<SummaryLadderOutcome> {
  const name = summarizerName(input.fallback);
  try {
    // Ask for a summary that fits the cap, so the fallback chooses what to keep (the cap stays a safety net).
    const request = { ...input.request, maxTokens: Math.min(input.request.maxTokens, FALLBACK_SUMMARY_MAX_TOKENS), onModelCall: (call: SummaryModelCall) => modelCalls.push(call) };
    const summary = await summarizeOnce(input.fallback, request, input.signal, FALLBACK_SUMMARY_MAX_CHARS);
    return success(input, summary, name, modelCalls, failure);
  } catch (error) {
    if (input.signal?.aborted) return { ok: false, failure: abortedFailure(input.signal), summarizer: name };
    const second = classifySummaryFailure(error);
    return { ok: false, summarizer: name, failure: { action: "abort", kind: second.kind, reason: `${failure.reason}; fallback summarizer failed too: ${second.reason}` } };
  }
}

/** Runs the primary summarizer and, where the ladder allows, the fallback. Never throws. */
export async function runSummaryLadder(input: SummaryLadderInput): Promise<SummaryLadderOutcome> {
  // calls a failed primary made before the fallback ran are paid for too
  const modelCalls: SummaryModelCall[] = [];
  if (input.skipPrimary) return runFallback(input, input.skipPrimary, modelCalls);
  const name = summarizerName(input.primary);
  try {
    const request: SummaryRequest = { ...input.request, onModelCall: (call) => modelCalls.push(call) };
    const summary = await summarizeOnce(input.primary, request, input.signal);
    return success(input, summary, name, modelCalls);
  } catch (error) {
    if (input.signal?.aborted) return { ok: false, failure: abortedFailure(input.signal), summarizer: name };
    const failure = classifySummaryFailure(error);
    if (failure.action === "abort") return { ok: false, failure, summarizer: name };
    if (input.abortOnFailure) {
      return { ok: false, summarizer: name, failure: { ...failure, action: "abort", reason: `${failure.reason} (abort_on_summary_failure is set)` } };
    }
    return runFallback(input, failure, modelCalls);
  }
}
