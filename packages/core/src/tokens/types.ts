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
