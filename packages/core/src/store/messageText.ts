/** The flattened text the session store indexes for search. */
import { messageText } from "../compressor/content.ts";
import type { ChatMessage } from "../messages/schema.ts";

/** Content text plus every tool call rendered as `name(arguments)`, one per line. */
export function searchableMessageText(message: ChatMessage): string {
  const text = messageText(message);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return text;
  const rendered = calls.map((c) => `${c.function.name}(${c.function.arguments})`).join("\n");
  return text === "" ? rendered : `${text}\n${rendered}`;
}
