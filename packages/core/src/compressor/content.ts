/** Small, allocation-light readers of message content shared by the compressor phases. */
import type { ChatMessage } from "../messages/schema.js";
import { messageText } from "../messages/text.js";

export { messageText };

/** True when the content holds anything that is not a text part (images, audio, provider blocks). */
export function hasNonTextParts(message: ChatMessage): boolean {
  const content = message.content;
  if (!Array.isArray(content)) return false;
  return content.some((part) => typeof (part as { text?: unknown }).text !== "string");
}

/** Character size of a message's content: text length, non-text parts counted as large. */
export function contentSize(message: ChatMessage): number {
  const content = message.content;
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let size = 0;
  for (const part of content) {
    const text = (part as { text?: unknown }).text;
    size += typeof text === "string" ? text.length : 1_000;
  }
  return size;
}

/** True for an assistant message with non-blank text the user could see. */
export function isVisibleAssistantReply(message: ChatMessage): boolean {
  return message.role === "assistant" && messageText(message).trim() !== "";
}

/** A copy of `message` whose content starts with `prefix` (string content, or a leading text part). */
export function prependText(message: ChatMessage, prefix: string): ChatMessage {
  const content = message.content;
  if (Array.isArray(content)) return { ...message, content: [{ type: "text", text: prefix }, ...content] };
  const rest = typeof content === "string" ? content : "";
  return { ...message, content: rest.trim() === "" ? prefix : `${prefix}\n\n${rest}` };
}

/** A copy of `message` whose content ends with `suffix` (string content, or a trailing text part). */
export function appendText(message: ChatMessage, suffix: string): ChatMessage {
  const content = message.content;
  if (Array.isArray(content)) return { ...message, content: [...content, { type: "text", text: suffix }] };
  const head = typeof content === "string" ? content : "";
  return { ...message, content: head.trim() === "" ? suffix : `${head}\n\n${suffix}` };
}
