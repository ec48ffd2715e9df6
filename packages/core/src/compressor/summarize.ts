/**
 * Summarizing, the step after pruning: the request for the prepared middle (summaryRequest.ts), run
 * through the summarizer's failure ladder (summaryLadder.ts). Never throws.
 */
import type { SummaryFailure } from "../summarizers/failures.js";
import type { Summarizer } from "../summarizers/types.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import { runSummaryLadder, type SummaryLadderOutcome } from "./summaryLadder.js";
import { buildSummaryRequest } from "./summaryRequest.js";
import { offeredConversation, type ConversationOffer } from "./summaryConversation.js";

/** What {@link summarizePrepared} asks with, besides the prepared compaction. */
export interface SummarizeOptions {
  primary: Summarizer;
  fallback: Summarizer;
  /** The summary to update when the conversation holds none of its own (the session's last summary). */
  sessionSummary?: string | undefined;
  /** The session's first summary, the task's setup (SummaryRequest.sessionStart). */
  sessionStart?: string | undefined;
  focusTopic?: string | undefined;
  maxSummaryTokens: number;
  signal?: AbortSignal | undefined;
  /** `compression.abort_on_summary_failure`: every failure aborts. */
  abortOnFailure: boolean;
  /** Skip the primary (e.g. during a cooldown) and use the fallback directly, for this reason. */
  skipPrimary?: SummaryFailure | undefined;
  /** Counts a summary's tokens, to hold it within the request's budget. */
  countTokens: (text: string) => number;
  /** With `compression.summary_request: suffix`: the conversation's model and tools, or why it is not offered. */
  conversation?: ConversationOffer | undefined;
}

/** Asks for the summary of `prepared`'s middle: its turns, budget, previous summary and focus (and the conversation, when offered). */
export function summarizePrepared(prepared: PreparedCompaction, options: SummarizeOptions): Promise<SummaryLadderOutcome> {
  const { plan } = prepared;
  const conversation = offeredConversation(prepared, options.conversation);
  const built = buildSummaryRequest({
    middle: prepared.pruned.slice(plan.headEnd, plan.tailStart),
    middleTurns: prepared.middleTurns,
    contentTokens: prepared.contentTokens,
    maxSummaryTokens: options.maxSummaryTokens,
    previousSummary: prepared.previousSummaryInMessages ?? options.sessionSummary,
    sessionStart: options.sessionStart,
    focusTopic: options.focusTopic,
    head: prepared.head,
    tail: prepared.tail,
  });
  const request = conversation === undefined ? built : { ...built, conversation };
  return runSummaryLadder({
    primary: options.primary,
    fallback: options.fallback,
    request,
    signal: options.signal,
    abortOnFailure: options.abortOnFailure,
    skipPrimary: options.skipPrimary,
    countTokens: options.countTokens,
  });
}
