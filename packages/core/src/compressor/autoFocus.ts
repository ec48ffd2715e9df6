/**
 * Auto-focus: with no `/compress <topic>`, the summary keeps in focus what the user asked most recently
 * (upstream derives its focus topic the same way). Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { messageText } from "./content.js";

/** How many of the latest user asks become the focus. */
export const AUTO_FOCUS_ASKS = 3;
/** Longest ask kept in the focus, in characters (longer ones are shortened with "…"). */
export const AUTO_FOCUS_ASK_CHARS = 260;

/**
 * The last {@link AUTO_FOCUS_ASKS} non-blank user asks in `messages` (pass turns with summaries already
 * reduced to their own text), oldest first, whitespace collapsed and each shortened to
 * {@link AUTO_FOCUS_ASK_CHARS} characters.
 */
export function recentUserAsks(messages: readonly ChatMessage[]): string[] {
  const asks: string[] = [];
  for (let i = messages.length - 1; i >= 0 && asks.length < AUTO_FOCUS_ASKS; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const text = messageText(message).replace(/\s+/g, " ").trim();
    if (text === "") continue;
    asks.push(text.length > AUTO_FOCUS_ASK_CHARS ? `${text.slice(0, AUTO_FOCUS_ASK_CHARS - 1).trimEnd()}…` : text);
  }
  return asks.reverse();
}
