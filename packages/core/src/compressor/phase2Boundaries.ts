/**
 * Phase 2: where the protected head ends and the protected tail starts. Everything between is the
 * middle that phase 3 summarizes. Pure; works on indices only.
 */
import type { ChatMessage } from "../messages/schema.ts";
import { alignBoundaryBackward, alignBoundaryForward } from "../messages/toolPairs.ts";
import { isVisibleAssistantReply } from "./content.ts";
import { isPureSummaryMessage, isRealUserMessage } from "./summaryMessage.ts";

/** The smallest tail the compressor falls back to when the configured floor leaves nothing to compress. */
export const MIN_TAIL_MESSAGES = 3;

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
}

/** head = messages[0, headEnd), middle = [headEnd, tailStart), tail = [tailStart, length). */
export interface BoundaryPlan {
  headEnd: number;
  tailStart: number;
}

function leadingSystemCount(messages: readonly ChatMessage[]): number {
  let i = 0;
  while (i < messages.length && messages[i]!.role === "system") i++;
  return i;
}

/** The protected head: leading system messages, plus the first exchange on the first compaction, never ending inside a tool group. */
export function planHeadEnd(messages: readonly ChatMessage[], protectFirstN: number, isFirstCompaction: boolean): number {
  const system = leadingSystemCount(messages);
  let headEnd = isFirstCompaction ? Math.max(system, Math.min(protectFirstN, messages.length)) : system;
  if (headEnd < messages.length && messages[headEnd]!.role === "tool") {
    headEnd = Math.max(system, alignBoundaryBackward(messages as ChatMessage[], headEnd));
  }
  return headEnd;
}

/** Index of the `count`-th real user message from the end at or after `from` (fewer exist → the oldest found). */
function nthLastRealUser(messages: readonly ChatMessage[], from: number, count: number): number | undefined {
  let found: number | undefined;
  let seen = 0;
  for (let i = messages.length - 1; i >= from && seen < count; i--) {
    if (isRealUserMessage(messages[i]!)) {
      found = i;
      seen++;
    }
  }
  return found;
}

function lastVisibleAssistant(messages: readonly ChatMessage[], from: number): number | undefined {
  for (let i = messages.length - 1; i >= from; i--) {
    const message = messages[i]!;
    if (isVisibleAssistantReply(message) && !isPureSummaryMessage(message)) return i;
  }
  return undefined;
}

/**
 * Chooses the boundaries: the tail is walked back from the end within the token budget, at least
 * `protectLastN` messages (a floor of 3 when that would leave nothing to compress); it always holds the
 * last real user message, the last visible assistant reply and `minTailUserMessages` user messages;
 * no boundary splits a tool call from its results and the tail never starts with a tool result.
 */
export function planBoundaries(messages: readonly ChatMessage[], options: BoundaryOptions): BoundaryPlan {
  const n = messages.length;
  const headEnd = planHeadEnd(messages, options.protectFirstN, options.isFirstCompaction);
  if (headEnd >= n) return { headEnd: n, tailStart: n };

  let budgetCount = 0;
  let used = 0;
  for (let i = n - 1; i >= headEnd; i--) {
    const tokens = options.countTokens(messages[i]!, i);
    if (used + tokens > options.tailTokenBudget) break;
    used += tokens;
    budgetCount++;
  }
  let count = Math.max(budgetCount, options.protectLastN);
  if (n - count <= headEnd) count = Math.min(count, MIN_TAIL_MESSAGES);
  let tailStart = Math.max(headEnd, n - count);

  const anchors = [
    nthLastRealUser(messages, headEnd, 1),
    nthLastRealUser(messages, headEnd, Math.max(0, options.minTailUserMessages)),
    lastVisibleAssistant(messages, headEnd),
  ];
  for (const anchor of anchors) if (anchor !== undefined) tailStart = Math.min(tailStart, anchor);

  if (tailStart < n && messages[tailStart]!.role === "tool") {
    tailStart = Math.max(headEnd, alignBoundaryBackward(messages as ChatMessage[], tailStart));
    if (tailStart < n && messages[tailStart]!.role === "tool") tailStart = alignBoundaryForward(messages as ChatMessage[], tailStart);
  }
  return { headEnd, tailStart: Math.max(headEnd, tailStart) };
}
