/**
 * The rough estimator used when no real usage exists: about four characters a token for Latin text
 * (upstream's `(chars + 3) // 4`), more for scripts whose characters are a token or more each.
 */
import type { ChatMessage, ContentPart } from "../messages/schema.js";

/** Tokens an image part is counted as (one image at the providers' default detail, about 1,500). */
export const IMAGE_TOKENS = 1_500;

/**
 * Tokens of per-message framing counted on top of the content (role marker, separators). Chat formats
 * spend about 3–4 tokens a message; we count 4.
 */
export const MESSAGE_ENVELOPE_TOKENS = 4;

/** Content-part types counted as an image ({@link IMAGE_TOKENS} each). */
export const IMAGE_PART_TYPES: ReadonlySet<string> = new Set(["image_url", "image", "input_image"]);

/**
 * Message fields providers receive back on later turns besides content and tool calls: reasoning text
 * (`reasoning_content`, `reasoning`), structured reasoning (`reasoning_details`, Anthropic `thinking`)
 * and Responses/Codex replay items (`encrypted_content`). Strings count as text, other values as JSON.
 */
export const REPLAY_FIELDS: readonly string[] = ["reasoning_content", "reasoning", "reasoning_details", "thinking", "encrypted_content"];

/** What one message is counted from: its text segments and its number of images. */
export interface MessageTokenParts {
  /** Content text, replay fields, tool-call envelopes and arguments, a tool message's call id and name. */
  texts: string[];
  images: number;
}

/**
 * Quarter-tokens of `text` in one pass over its char codes: 1 per char (so Latin text is chars/4),
 * 3 per CJK ideograph, kana, Hangul, full-width form or surrogate half (emoji, rare ideographs),
 * 2 per Thai char — o200k spends 0.57–0.82 tokens on such a char (measured on sample text,
 * `pnpm bench tokens`), where chars/4 would undercount CJK about 3×.
 */
/** Any character from Thai up (CJK, Hangul, kana, surrogates): only such text needs the per-char pass. */
const BEYOND_LATIN = /[\u0e00-\uffff]/;

function roughQuarters(text: string): number {
  let quarters = text.length;
  if (!BEYOND_LATIN.test(text)) return quarters; // a native scan: Latin text costs no JS loop
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x0e00) continue;
    if (c >= 0x3000 ? c <= 0x9fff || (c >= 0xac00 && c <= 0xdfff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef) : c >= 0x1100 && c <= 0x11ff) {
      quarters += 2;
    } else if (c <= 0x0e7f) {
      quarters += 1;
    }
  }
  return quarters;
}

/** Rough tokens of `text`: `(chars + 3) // 4` for Latin text; CJK, Hangul, kana, Thai and emoji count more (see {@link REPLAY_FIELDS} for messages). */
export function estimateTokensRough(text: string): number {
  return Math.ceil(roughQuarters(text) / 4);
}

function partText(part: ContentPart): string {
  const text = (part as { text?: unknown }).text;
  if (typeof text === "string") return text;
  // A part of another kind (thinking block with its signature, file, audio): its JSON, so it is not free.
  return JSON.stringify(part);
}

function fieldText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Splits a message into what counters measure: string content, the `text` of content parts (a part of
 * another non-image kind counts as its JSON), the {@link REPLAY_FIELDS}, each tool call's envelope (its
 * JSON with empty arguments: id, type, name, framing) and its arguments, a tool message's
 * `tool_call_id` and `name`; image parts (`image_url`, `image`, `input_image`) are counted, not measured.
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
  const fields = message as Record<string, unknown>;
  for (const field of REPLAY_FIELDS) {
    const text = fieldText(fields[field]);
    if (text !== undefined) texts.push(text);
  }
  for (const call of message.tool_calls ?? []) {
    texts.push(JSON.stringify({ ...call, function: { ...call.function, arguments: "" } }), call.function.arguments);
  }
  if (message.role === "tool") {
    if (message.tool_call_id !== undefined) texts.push(message.tool_call_id);
    if (message.name !== undefined) texts.push(message.name);
  }
  return { texts, images };
}

/**
 * Rough tokens of one message: {@link estimateTokensRough} of its text (every segment of
 * {@link messageTokenParts}), {@link IMAGE_TOKENS} per image, plus {@link MESSAGE_ENVELOPE_TOKENS}.
 */
export function estimateMessageTokensRough(message: ChatMessage): number {
  const { texts, images } = messageTokenParts(message);
  const quarters = texts.reduce((sum, text) => sum + roughQuarters(text), 0);
  return Math.ceil(quarters / 4) + images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
}

/** Rough tokens of a conversation: the sum of {@link estimateMessageTokensRough}. */
export function estimateMessagesTokensRough(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokensRough(message), 0);
}
