/** The rough estimator used when no real usage exists: about four characters a token. */
import type { ChatMessage, ContentPart } from "../messages/schema.js";

/** Tokens an image part is counted as. */
export const IMAGE_TOKENS = 1_500;

/**
 * Tokens of per-message framing counted on top of the content (role marker, separators, a tool
 * message's call id). Chat formats spend about 3–4 tokens a message; we count 4.
 */
export const MESSAGE_ENVELOPE_TOKENS = 4;

/** Content-part types counted as an image ({@link IMAGE_TOKENS} each). */
export const IMAGE_PART_TYPES: ReadonlySet<string> = new Set(["image_url", "image", "input_image"]);

/** What one message is counted from: its text segments and its number of images. */
export interface MessageTokenParts {
  /** Content text, and each tool call's name and arguments. */
  texts: string[];
  images: number;
}

/** `ceil(chars / 4)`, i.e. `(chars + 3) // 4`. */
export function estimateTokensRough(text: string): number {
  return Math.ceil(text.length / 4);
}

function partText(part: ContentPart): string {
  const text = (part as { text?: unknown }).text;
  if (typeof text === "string") return text;
  // A part of an unknown kind (provider block, file, audio): its serialized form, so it is not free.
  return JSON.stringify(part);
}

/**
 * Splits a message into what counters measure: string content, the `text` of content parts (a part of
 * another non-image kind counts as its JSON), each tool call's name and arguments; image parts
 * (`image_url`, `image`, `input_image`) are counted, not measured.
 */
export function messageTokenParts(message: ChatMessage): MessageTokenParts {
  const texts: string[] = [];
  let images = 0;
  const content = message.content;
  if (typeof content === "string") {
    texts.push(content);
  } else if (Array.isArray(content)) {
    for (const part of content) {
      if (IMAGE_PART_TYPES.has(part.type)) images += 1;
      else texts.push(partText(part));
    }
  }
  for (const call of message.tool_calls ?? []) {
    texts.push(call.function.name, call.function.arguments);
  }
  return { texts, images };
}

/**
 * Rough tokens of one message: `ceil(chars / 4)` of its text (content, tool-call names and arguments),
 * {@link IMAGE_TOKENS} per image, plus {@link MESSAGE_ENVELOPE_TOKENS}.
 */
export function estimateMessageTokensRough(message: ChatMessage): number {
  const { texts, images } = messageTokenParts(message);
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
}

/** Rough tokens of a conversation: text content, tool-call envelopes (name + arguments), images at 1,500 each. */
export function estimateMessagesTokensRough(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokensRough(message), 0);
}
