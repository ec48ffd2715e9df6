/**
 * Huge tool outputs stay out of the model's context: the message is stored whole (lcm_grep searches it,
 * lcm_expand reads it), and the assembled context holds a preview instead, its start and end with the
 * stored message's id. The preview carries the artifact signature, so lcm never stores it back.
 */
import { COMPACTION_SIGNATURE, type ChatMessage } from "./core.js";
import { searchableText } from "./messageText.js";
import type { StoredMessage } from "./store/LcmStore.js";
import { deterministicTruncation } from "./summarize.js";

/** The visible opening of a preview. */
export const EXTERNALIZED_TAG = "[lcm: large tool output kept out of context]";

/** How every preview starts: the tag, then the invisible signature. */
const OPENING = `${EXTERNALIZED_TAG}${COMPACTION_SIGNATURE}`;

/** Tokens a preview shows of the output (its start and end). */
export const PREVIEW_TOKENS = 400;

/** True when `stored` is a tool result larger than `aboveTokens` (0 turns externalizing off). */
export function isExternalized(stored: StoredMessage, aboveTokens: number): boolean {
  return aboveTokens > 0 && stored.role === "tool" && stored.tokens > aboveTokens;
}

/** The preview that stands for the stored tool result `stored` in the context (its other fields kept). */
export function externalizedPreview(stored: StoredMessage): ChatMessage {
  const text = searchableText(stored.message);
  const shown = deterministicTruncation(text, PREVIEW_TOKENS);
  const header =
    `${OPENING} ${stored.tokens} tokens (${text.length} characters), stored as ${stored.id}; its start and end are shown. ` +
    `Call lcm_expand with id "${stored.id}" (offset pages on) for the full text, or lcm_grep to search it.`;
  return { ...stored.message, content: `${header}\n${shown}` };
}

/** True for a preview lcm put into a context (recognised by its signed opening). */
export function isExternalizedPreview(message: ChatMessage): boolean {
  return message.role === "tool" && typeof message.content === "string" && message.content.startsWith(OPENING);
}
