/** Reading the text of messages: one place for every engine, summarizer, store and the CLI. */
import type { ChatMessage } from "./schema.js";

const IMAGE_PART_TYPES = new Set(["image_url", "image", "input_image"]);

/** The text of a message: string content as is, text parts joined by newlines, other parts left out. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const part of content) {
    const text = (part as { text?: unknown }).text;
    if (typeof text === "string") out = out === "" ? text : `${out}\n${text}`;
  }
  return out;
}

/** The readable text of a content value: text parts joined by newlines, images as `[image]`, other parts as `[type]`. */
export function contentText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      const text = (part as { text?: unknown }).text;
      if (typeof text === "string") return text;
      return IMAGE_PART_TYPES.has(part.type) ? "[image]" : `[${part.type}]`;
    })
    .join("\n");
}

/** Everything searchable in a message: its readable content, then each tool call as `name(arguments)`. */
export function searchableText(message: ChatMessage): string {
  const text = contentText(message.content);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return text;
  const rendered = calls.map((c) => `${c.function.name}(${c.function.arguments})`).join("\n");
  return text === "" ? rendered : `${text}\n${rendered}`;
}
