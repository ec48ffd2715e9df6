/**
 * Turns conversation messages into the plain-text transcript a summary model reads:
 * `[USER]: …`, `[ASSISTANT]: …` + `[Tool calls: name(args)]`, `[TOOL RESULT <id>]: …`, `[SYSTEM]: …`.
 * Long bodies are truncated, the whole transcript is capped, secrets are redacted, and an assistant's
 * inline reasoning blocks (`<think>…</think>`) are left out.
 */
import type { ChatMessage } from "../messages/schema.js";
import { redactSecrets } from "./redact.js";
import { stripReasoningBlocks } from "./reasoning.js";

export { redactSecrets } from "./redact.js";

/** A body longer than this is truncated. */
export const MAX_BODY_CHARS = 6_000;
/** Characters kept from the start of a truncated body. */
export const BODY_HEAD_CHARS = 4_000;
/** Characters kept from the end of a truncated body. */
export const BODY_TAIL_CHARS = 1_500;
/** Upper bound of the whole serialized transcript, marker included. */
export const MAX_SERIALIZED_CHARS = 160_000;
/** Share of the capped transcript taken from its start (the rest comes from its end). */
export const SERIALIZED_HEAD_SHARE = 0.45;
/** Inserted where text was cut out. */
export const TRUNCATION_MARKER = "\n...[truncated]...\n";

import { contentText } from "../messages/text.js";

export { contentText };

/** Keeps the first 4,000 and last 1,500 characters of a body over 6,000 characters. */
export function truncateBody(text: string): string {
  if (text.length <= MAX_BODY_CHARS) return text;
  return text.slice(0, BODY_HEAD_CHARS) + TRUNCATION_MARKER + text.slice(text.length - BODY_TAIL_CHARS);
}

/** Caps a transcript at `maxChars` (marker included), keeping 45 % from its start and 55 % from its end. */
export function capSerializedInput(text: string, maxChars = MAX_SERIALIZED_CHARS): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - TRUNCATION_MARKER.length);
  const head = Math.floor(budget * SERIALIZED_HEAD_SHARE);
  const tail = budget - head;
  return text.slice(0, head) + TRUNCATION_MARKER + text.slice(text.length - tail);
}

function clean(text: string): string {
  return truncateBody(redactSecrets(text));
}

/** One message as transcript text (secrets redacted, long bodies truncated, an assistant's reasoning blocks left out). */
export function serializeMessage(message: ChatMessage): string {
  const text = contentText(message.content);
  const body = clean(message.role === "assistant" ? stripReasoningBlocks(text) : text);
  switch (message.role) {
    case "system":
      return `[SYSTEM]: ${body}`;
    case "user":
      return `[USER]: ${body}`;
    case "tool":
      return `[TOOL RESULT ${message.tool_call_id ?? "unknown"}]: ${body}`;
    case "assistant": {
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) return `[ASSISTANT]: ${body}`;
      const rendered = calls.map((call) => `${call.function.name}(${clean(call.function.arguments)})`).join(", ");
      return `[ASSISTANT]: ${body}\n[Tool calls: ${rendered}]`;
    }
  }
}

/** The whole transcript for a summary model, capped at 160,000 characters. */
export function serializeTurns(messages: ChatMessage[]): string {
  return capSerializedInput(messages.map(serializeMessage).join("\n\n"));
}
