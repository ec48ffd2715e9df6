/** The token-counting contract. */
import type { ChatMessage } from "../messages/schema.js";

/** Counts tokens of text and of whole conversations. */
export interface TokenCounter {
  count(text: string): number;
  countMessages(messages: ChatMessage[]): number;
}
