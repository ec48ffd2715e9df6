/**
 * Token counters: js-tiktoken (o200k_base, loaded lazily and once) and the rough estimator, both with
 * per-message memoization so re-counting a conversation after one new message costs O(that message).
 */
import type { ChatMessage } from "../messages/schema.ts";
import type { TokenCounter } from "./types.ts";

/** Exact-ish counts with tiktoken's o200k_base encoding; counts are memoized per message object. */
export class TiktokenCounter implements TokenCounter {
  count(text: string): number {
    throw new Error("not implemented");
  }
  countMessages(messages: ChatMessage[]): number {
    throw new Error("not implemented");
  }
}

/** The rough estimator as a {@link TokenCounter} (no encoding to load), memoized per message object. */
export class RoughTokenCounter implements TokenCounter {
  count(text: string): number {
    throw new Error("not implemented");
  }
  countMessages(messages: ChatMessage[]): number {
    throw new Error("not implemented");
  }
}
