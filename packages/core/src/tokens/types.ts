/** The token-counting contract. */
import type { ChatMessage } from "../messages/schema.js";

/** Counts tokens of text and of whole conversations. */
export interface TokenCounter {
  count(text: string): number;
  countMessages(messages: ChatMessage[]): number;
}

/** A counter that can count one message (memoized), such as every `MemoizedTokenCounter`. */
type MessageCountingCounter = TokenCounter & { countMessage?: (message: ChatMessage) => number };

/** Counts one message with `counter`: its `countMessage` when it has one (memoized), else `countMessages([message])`. */
export function messageCounter(counter: TokenCounter): (message: ChatMessage) => number {
  const withOne = counter as MessageCountingCounter;
  return typeof withOne.countMessage === "function" ? (message) => withOne.countMessage!(message) : (message) => counter.countMessages([message]);
}

/**
 * The `countingId` of `counter` (see `MemoizedTokenCounter.countingId`): names how it counts a message,
 * so a stored count is reused only by a counter that would compute the same number; undefined for
 * counters without one.
 */
export function countingIdOf(counter: TokenCounter): string | undefined {
  const id = (counter as { countingId?: unknown }).countingId;
  return typeof id === "string" ? id : undefined;
}
