/**
 * Planning boundaries, the first step after the scan: where the protected head ends and the protected
 * tail starts. Everything between is the middle that gets summarized. Pure; works on indices only.
 */
import type { ChatMessage } from "../messages/schema.js";
import { hasTurnsBetween, indexConversation, type ConversationIndex } from "./conversationIndex.js";

/** The smallest tail the compressor falls back to when the configured floor leaves nothing to compress. */
export const MIN_TAIL_MESSAGES = 3;
/** Messages the budget must leave to summarize for the lowered tail floor to be what the budget covers. */
export const MIN_MESSAGES_TO_SUMMARIZE = 2;

/** Inputs of {@link planBoundaries}. */
export interface BoundaryOptions {
  /** Head size on the first compaction (system + first exchange); later compactions keep the system prompt alone. */
  protectFirstN: number;
  /** Tail floor in messages (`protect_last_n`). */
  protectLastN: number;
  /** Tokens the tail may hold, walked back from the end. */
  tailTokenBudget: number;
  /** Real user messages the tail must contain (`min_tail_user_messages`). */
  minTailUserMessages: number;
  /** True when no earlier compaction left its summary or note in the conversation. */
  isFirstCompaction: boolean;
  /** Tokens of one message (memoized by the caller). */
  countTokens: (message: ChatMessage, index: number) => number;
  /**
   * Optional: tokens of message `index` when at most `limit`, undefined when more — lets the tail walk
   * stop at a huge message without counting it. Without it, {@link countTokens} is used.
   */
  tokensWithin?: (index: number, limit: number) => number | undefined;
  /**
   * Progress guarantee: an anchor that would leave nothing to compress is kept verbatim at the end of
   * the head instead of the tail (default false: anchors are always in the tail).
   */
  keepStallingAnchorsInHead?: boolean;
}

/** head = messages[0, headEnd), middle = [headEnd, tailStart), tail = [tailStart, length). */
export interface BoundaryPlan {
  headEnd: number;
  tailStart: number;
}

/** The protected head: leading system messages, plus the first exchange on the first compaction, never ending inside a tool group. */
export function planHeadEnd(index: ConversationIndex, protectFirstN: number, isFirstCompaction: boolean): number {
  const { messages, leadingSystem: system } = index;
  let headEnd = isFirstCompaction ? Math.max(system, Math.min(protectFirstN, messages.length)) : system;
  if (headEnd < messages.length && messages[headEnd]!.role === "tool") headEnd = Math.max(system, index.groupStart[headEnd]!);
  return headEnd;
}

/** Index of the `count`-th real user message from the end at or after `from` (fewer exist → the oldest found). */
function nthLastRealUser(index: ConversationIndex, from: number, count: number): number | undefined {
  const users = index.realUsers;
  let found: number | undefined;
  let seen = 0;
  for (let p = users.length - 1; p >= 0 && users[p]! >= from && seen < count; p--) {
    found = users[p];
    seen++;
  }
  return found;
}

/** The last assistant reply with visible text of its own, when it is at or after `from`. */
function lastVisibleAssistant(index: ConversationIndex, from: number): number | undefined {
  return index.lastReply >= from ? index.lastReply : undefined;
}

/** Moves a tail start off a tool result: back to the assistant that issued it, else forward past the run. */
function alignTailStart(index: ConversationIndex, headEnd: number, tailStart: number): number {
  const { messages } = index;
  const n = messages.length;
  if (tailStart < n && messages[tailStart]!.role === "tool") {
    tailStart = Math.max(headEnd, index.groupStart[tailStart]!);
    if (tailStart < n && messages[tailStart]!.role === "tool") tailStart = index.runEnd[tailStart]!;
  }
  return Math.max(headEnd, tailStart);
}

/** The tail start by token budget and floor alone, for a head ending at `headEnd`. */
function countedTailStart(messages: readonly ChatMessage[], headEnd: number, options: BoundaryOptions): number {
  const n = messages.length;
  let budgetCount = 0;
  let used = 0;
  for (let i = n - 1; i >= headEnd; i--) {
    const remaining = options.tailTokenBudget - used;
    const tokens = options.tokensWithin ? options.tokensWithin(i, remaining) : options.countTokens(messages[i]!, i);
    if (tokens === undefined || tokens > remaining) break;
    used += tokens;
    budgetCount++;
  }
  let count = Math.max(budgetCount, options.protectLastN);
  if (n - count <= headEnd) {
    // The floor would leave nothing to compress (a conversation shorter than protect_last_n): keep what
    // the budget covers when that leaves turns to summarize, else fall back to the floor of 3.
    const budgetLeavesTurns = n - budgetCount - headEnd >= MIN_MESSAGES_TO_SUMMARIZE;
    count = budgetLeavesTurns ? Math.max(MIN_TAIL_MESSAGES, budgetCount) : MIN_TAIL_MESSAGES;
  }
  return Math.max(headEnd, n - count);
}

/**
 * Chooses the boundaries: the tail is walked back from the end within the token budget, at least
 * `protectLastN` messages (when that would leave nothing to compress: what the budget covers if it leaves
 * two messages to summarize, else 3); it always holds the
 * last real user message, the last visible assistant reply and `minTailUserMessages` user messages;
 * no boundary splits a tool call from its results and the tail never starts with a tool result.
 *
 * With `keepStallingAnchorsInHead`, an anchor that would leave nothing to compress (a long agent run
 * after the only ask, where the head has decayed to the system prompt) stays verbatim at the end of the
 * head instead, so the work after it can still be summarized: the message is never lost.
 *
 * `index` is the scan of `messages` (made here when not given): the real user turns, the last visible
 * reply, the earlier summaries and the tool-call groups are read from it.
 */
export function planBoundaries(messages: readonly ChatMessage[], options: BoundaryOptions, index: ConversationIndex = indexConversation(messages)): BoundaryPlan {
  const n = messages.length;
  let headEnd = planHeadEnd(index, options.protectFirstN, options.isFirstCompaction);
  if (headEnd >= n) return { headEnd: n, tailStart: n };

  for (;;) {
    const counted = alignTailStart(index, headEnd, countedTailStart(messages, headEnd, options));
    const anchors = [
      nthLastRealUser(index, headEnd, 1),
      nthLastRealUser(index, headEnd, Math.max(0, options.minTailUserMessages)),
      lastVisibleAssistant(index, headEnd),
    ].filter((anchor): anchor is number => anchor !== undefined && anchor < counted);
    const tailStart = alignTailStart(index, headEnd, Math.min(counted, ...anchors));
    const earliest = Math.min(...anchors);
    if (!options.keepStallingAnchorsInHead || anchors.length === 0 || hasTurnsBetween(index, headEnd, tailStart) || !hasTurnsBetween(index, earliest + 1, counted)) {
      return { headEnd, tailStart };
    }
    // Keep the earliest anchor (with the results of its calls) in the head and plan the rest again.
    headEnd = index.runEnd[earliest + 1]!;
  }
}
