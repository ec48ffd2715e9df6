/**
 * The request handed to the summarizer for the middle turns: what it sees (earlier summaries taken out),
 * its token budget, the previous summary, and what to keep in focus.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { SummaryRequest } from "../summarizers/types.js";
import { summaryTokenBudget } from "../engine/thresholds.js";
import { messageText } from "./content.js";
import { recentUserAsks } from "./autoFocus.js";
import { isRealUserMessage, turnsForSummary } from "./earlierSummaries.js";

/** Inputs of {@link buildSummaryRequest}. */
export interface SummaryRequestInput {
  /** The middle turns being compacted (after pruning). */
  middle: readonly ChatMessage[];
  /** `turnsForSummary(middle)` when the caller has it already (the prepared compaction's `middleTurns`). */
  middleTurns?: ChatMessage[] | undefined;
  /** Tokens of the content being compacted; sets the budget. */
  contentTokens: number;
  maxSummaryTokens: number;
  previousSummary?: string | undefined;
  /** The session's first summary (SummaryRequest.sessionStart). */
  sessionStart?: string | undefined;
  focusTopic?: string | undefined;
  /** Head messages kept verbatim before the middle; their user asks become `goalContext`. */
  head?: readonly ChatMessage[] | undefined;
  /** Tail messages kept verbatim after the middle; with the rest, their latest user asks become the auto-focus. */
  tail?: readonly ChatMessage[] | undefined;
}

/**
 * The request handed to the summarizer: the turns, the budget (×0.20, 2,000..max), previous summary,
 * focus (the given topic, else the latest user asks as `recentUserAsks`).
 */
export function buildSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const middleTurns = input.middleTurns ?? turnsForSummary(input.middle);
  const request: SummaryRequest = {
    messages: middleTurns,
    maxTokens: summaryTokenBudget(input.contentTokens, input.maxSummaryTokens),
  };
  if (input.previousSummary !== undefined && input.previousSummary.trim() !== "") request.previousSummary = input.previousSummary;
  if (input.sessionStart !== undefined && input.sessionStart.trim() !== "" && request.previousSummary !== undefined) request.sessionStart = input.sessionStart;
  if (input.focusTopic !== undefined && input.focusTopic.trim() !== "") request.focusTopic = input.focusTopic.trim();
  else {
    const recent = recentUserAsks([...turnsForSummary(input.head ?? []), ...middleTurns, ...turnsForSummary(input.tail ?? [])]);
    if (recent.length > 0) request.recentUserAsks = recent;
  }
  const asks = (input.head ?? []).filter(isRealUserMessage).map(messageText);
  if (asks.some((a) => a.trim() !== "")) request.goalContext = asks;
  return request;
}
