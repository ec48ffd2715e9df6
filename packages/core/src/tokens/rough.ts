/** The rough estimator used when no real usage exists: about four characters a token. */
import type { ChatMessage } from "../messages/schema.ts";

/** Tokens an image part is counted as. */
export const IMAGE_TOKENS = 1_500;

/** `ceil(chars / 4)`, i.e. `(chars + 3) // 4`. */
export function estimateTokensRough(text: string): number {
  throw new Error("not implemented");
}

/** Rough tokens of a conversation: text content, tool-call envelopes (name + arguments), images at 1,500 each. */
export function estimateMessagesTokensRough(messages: ChatMessage[]): number {
  throw new Error("not implemented");
}
