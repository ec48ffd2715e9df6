/**
 * The rough estimator used when no real usage exists: about four characters a token for Latin text
 * (upstream's `(chars + 3) // 4`), more for scripts whose characters are a token or more each.
 */
import type { ChatMessage, ContentPart, ToolCall } from "../messages/schema.js";

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
 * and Responses/Codex replay items (`encrypted_content`, and the `codex_reasoning_items` and
 * `codex_message_items` a Codex Responses session carries, often most of its payload). Strings count
 * as text, other values as JSON.
 */
export const REPLAY_FIELDS = [
  "reasoning_content",
  "reasoning",
  "reasoning_details",
  "thinking",
  "encrypted_content",
  "codex_reasoning_items",
  "codex_message_items",
] as const;

/** A message's {@link REPLAY_FIELDS}, as read by name. */
type ReplayFields = { readonly [K in (typeof REPLAY_FIELDS)[number]]?: unknown };

/**
 * The values of `message`'s {@link REPLAY_FIELDS} in that order, or undefined when it has none (the
 * common case: no allocation). Each field is read by name: a read by computed key would be megamorphic
 * over the message shapes of a conversation and cost more than estimating the message.
 */
export function replayFieldValues(message: ChatMessage): unknown[] | undefined {
  const m = message as ReplayFields;
  const a = m.reasoning_content;
  const b = m.reasoning;
  const c = m.reasoning_details;
  const d = m.thinking;
  const e = m.encrypted_content;
  const f = m.codex_reasoning_items;
  const g = m.codex_message_items;
  return a === undefined && b === undefined && c === undefined && d === undefined && e === undefined && f === undefined && g === undefined
    ? undefined
    : [a, b, c, d, e, f, g];
}

/** What one message is counted from: its text segments and its number of images. */
export interface MessageTokenParts {
  /** Content text, replay fields, tool-call envelopes and arguments, a tool message's call id and name. */
  texts: string[];
  images: number;
}

/**
 * The characters that weigh more than a quarter token in {@link roughQuarters} (Thai, Hangul jamo, CJK,
 * kana, Hangul, surrogate halves, compatibility ideographs, full-width forms): only text holding one
 * needs the per-char pass, from the first of them on (curly quotes, dashes and arrows weigh a quarter).
 */
const HEAVY_CHAR = /[\u0e00-\u0e7f\u1100-\u11ff\u3000-\u9fff\uac00-\udfff\uf900-\ufaff\uff00-\uffef]/;

/**
 * Quarter-tokens of `text` in one pass over its char codes: 1 per char (so Latin text is chars/4),
 * 3 per CJK ideograph, kana, Hangul, full-width form or surrogate half (emoji, rare ideographs),
 * 2 per Thai char — o200k spends 0.57–0.82 tokens on such a char (measured on sample text,
 * `pnpm bench tokens`), where chars/4 would undercount CJK about 3×.
 */
export function roughQuarters(text: string): number {
  let quarters = text.length;
  const first = text.search(HEAVY_CHAR); // a native scan: text without heavy chars costs no JS loop
  if (first === -1) return quarters;
  for (let i = first; i < text.length; i++) {
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
  textsSink.texts = texts;
  const images = visitMessageParts(message, textsSink);
  textsSink.texts = NO_TEXTS;
  return { texts, images };
}

const NO_TEXTS: string[] = [];

/** Collects the parts of one message at a time into `texts` (the walk is synchronous, so one sink serves all, with no closures). */
const textsSink = {
  texts: NO_TEXTS,
  text(text: string): void {
    this.texts.push(text);
  },
  envelope(call: ToolCall): void {
    this.texts.push(toolCallEnvelope(call));
  },
};

/** A tool call's envelope as counted: its JSON with empty arguments (id, type, name, framing). */
function toolCallEnvelope(call: ToolCall): string {
  return JSON.stringify({ ...call, function: { ...call.function, arguments: "" } });
}

/** Receives the parts {@link visitMessageParts} walks (an object, so a walk allocates no closures). */
interface MessagePartSink {
  text(text: string): void;
  envelope(call: ToolCall): void;
}

/**
 * Walks what {@link messageTokenParts} measures: `sink.text` for each text segment (the arguments of a
 * tool call included), `sink.envelope` for each tool call (whose envelope is {@link toolCallEnvelope});
 * returns the number of images.
 */
function visitMessageParts(message: ChatMessage, sink: MessagePartSink): number {
  let images = 0;
  const content = message.content;
  if (typeof content === "string") {
    sink.text(content);
  } else if (Array.isArray(content)) {
    for (const part of content) {
      if (IMAGE_PART_TYPES.has(part.type)) images += 1;
      else sink.text(partText(part));
    }
  }
  const replay = replayFieldValues(message);
  if (replay !== undefined) {
    for (const field of replay) {
      const value = fieldText(field);
      if (value !== undefined) sink.text(value);
    }
  }
  const calls = message.tool_calls;
  if (calls !== undefined) {
    for (let i = 0; i < calls.length; i++) {
      sink.envelope(calls[i]!);
      sink.text(calls[i]!.function.arguments);
    }
  }
  if (message.role === "tool") {
    if (message.tool_call_id !== undefined) sink.text(message.tool_call_id);
    if (message.name !== undefined) sink.text(message.name);
  }
  return images;
}

/** A char that makes a string's JSON longer than its length + 2, or that weighs more than a quarter token. */
const NOT_PLAIN = /["\\\u0000-\u001f\u0e00-\uffff]/;

/**
 * The length of `value`'s JSON when it is made of plain strings (see {@link NOT_PLAIN}), finite numbers,
 * booleans, null and plain objects of them, computed without serializing; undefined otherwise. With
 * `emptyKey`, that key's value counts as `""`.
 */
function plainJsonLength(value: unknown, emptyKey?: string): number | undefined {
  if (typeof value === "string") return NOT_PLAIN.test(value) ? undefined : value.length + 2;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : undefined;
  if (value === null) return 4;
  if (typeof value !== "object" || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  let length = 1;
  let members = 0;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) continue;
    const keyLength = plainJsonLength(key);
    const memberLength = key === emptyKey ? 2 : plainJsonLength(member);
    if (keyLength === undefined || memberLength === undefined) return undefined;
    length += keyLength + 1 + memberLength + 1; // "key":value followed by a comma or the closing brace
    members += 1;
  }
  return members === 0 ? 2 : length;
}

/** Quarter-tokens of a tool call's envelope: its length when plain (no serializing), else that of its JSON. */
function envelopeQuarters(call: ToolCall): number {
  const fn = call.function as unknown;
  if (typeof fn === "object" && fn !== null && typeof (fn as { arguments?: unknown }).arguments === "string") {
    let length = 1;
    let plain = true;
    for (const key of Object.keys(call)) {
      const member = (call as unknown as Record<string, unknown>)[key];
      if (member === undefined) continue;
      const keyLength = plainJsonLength(key);
      const memberLength = key === "function" ? plainJsonLength(member, "arguments") : plainJsonLength(member);
      if (keyLength === undefined || memberLength === undefined) {
        plain = false;
        break;
      }
      length += keyLength + 1 + memberLength + 1;
    }
    if (plain) return length;
  }
  return roughQuarters(toolCallEnvelope(call));
}

/**
 * Rough tokens of one message: {@link estimateTokensRough} of its text (every segment of
 * {@link messageTokenParts}), {@link IMAGE_TOKENS} per image, plus {@link MESSAGE_ENVELOPE_TOKENS}.
 */
export function estimateMessageTokensRough(message: ChatMessage): number {
  roughSink.quarters = 0;
  const images = visitMessageParts(message, roughSink);
  return Math.ceil(roughSink.quarters / 4) + images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
}

/** Sums the quarter-tokens of the parts of one message at a time (estimates are synchronous, so one sink serves all). */
const roughSink = {
  quarters: 0,
  text(text: string): void {
    this.quarters += roughQuarters(text);
  },
  envelope(call: ToolCall): void {
    this.quarters += envelopeQuarters(call);
  },
};

/** Rough tokens of a conversation: the sum of {@link estimateMessageTokensRough}. */
export function estimateMessagesTokensRough(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokensRough(message), 0);
}
