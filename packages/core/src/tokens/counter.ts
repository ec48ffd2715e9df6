/**
 * Token counters: js-tiktoken (o200k_base, loaded lazily and once) and the rough estimator, both with
 * per-message memoization so re-counting a conversation after one new message costs O(that message).
 */
import { createRequire } from "node:module";
import type { Tiktoken, TiktokenBPE } from "js-tiktoken/lite";
import type { ChatMessage } from "../messages/schema.js";
import { estimateMessageTokensRough, estimateTokensRough, IMAGE_TOKENS, MESSAGE_ENVELOPE_TOKENS, messageTokenParts } from "./rough.js";
import type { TokenCounter } from "./types.js";

/** What a memo entry was computed from; a message whose content or calls were reassigned is recounted. */
interface MemoEntry {
  content: ChatMessage["content"];
  toolCalls: ChatMessage["tool_calls"];
  tokens: number;
}

/**
 * A {@link TokenCounter} whose `countMessages` sums per-message counts memoized by message object
 * (a WeakMap, so dropped messages are collected). Messages are treated as immutable: an entry is
 * reused while the message's `content` and `tool_calls` are the same values as when it was counted.
 * A message counts its text (content, tool-call names and arguments), {@link IMAGE_TOKENS} per image,
 * and {@link MESSAGE_ENVELOPE_TOKENS}.
 */
export abstract class MemoizedTokenCounter implements TokenCounter {
  readonly #memo = new WeakMap<ChatMessage, MemoEntry>();

  /** Tokens of `text`. */
  abstract count(text: string): number;

  /** Tokens of one message (memoized). */
  countMessage(message: ChatMessage): number {
    const cached = this.#memo.get(message);
    if (cached !== undefined && cached.content === message.content && cached.toolCalls === message.tool_calls) {
      return cached.tokens;
    }
    const tokens = this.measureMessage(message);
    this.#memo.set(message, { content: message.content, toolCalls: message.tool_calls, tokens });
    return tokens;
  }

  /** Counts one message without the memo: text segments through {@link count}, plus images and envelope. */
  protected measureMessage(message: ChatMessage): number {
    const { texts, images } = messageTokenParts(message);
    let tokens = images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
    for (const text of texts) tokens += text.length === 0 ? 0 : this.count(text);
    return tokens;
  }

  /** Sum of {@link countMessage} over `messages`. */
  countMessages(messages: ChatMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }
}

/**
 * Longest run of non-whitespace (or of whitespace) encoded in one piece. js-tiktoken's byte-pair merge
 * is quadratic in a piece's length (a 10,000-letter run takes seconds), so longer runs are cut into
 * pieces of this size; ordinary text has no such runs, and a cut changes a count by about one token.
 */
export const MAX_ENCODE_RUN = 64;
const LONG_RUN = new RegExp(`\\S{${MAX_ENCODE_RUN}}|\\s{${MAX_ENCODE_RUN}}`, "g");

let o200k: Tiktoken | undefined;

/** The o200k_base encoding, loaded on first use and shared by the whole process. */
export function o200kEncoding(): Tiktoken {
  if (o200k === undefined) {
    const require = createRequire(import.meta.url);
    const { Tiktoken: TiktokenClass } = require("js-tiktoken/lite") as typeof import("js-tiktoken/lite");
    const ranks = require("js-tiktoken/ranks/o200k_base") as TiktokenBPE;
    o200k = new TiktokenClass(ranks);
  }
  return o200k;
}

/** Tokens of `text` under `encoding`; special-token strings count as plain text, long runs are cut. */
export function countWithEncoding(encoding: Tiktoken, text: string): number {
  const encode = (piece: string) => (piece.length === 0 ? 0 : encoding.encode(piece, [], []).length);
  let start = 0;
  let total = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const end = match.index + match[0].length;
    total += encode(text.slice(start, end));
    start = end;
  }
  return total + encode(text.slice(start));
}

/** Exact-ish counts with tiktoken's o200k_base encoding; counts are memoized per message object. */
export class TiktokenCounter extends MemoizedTokenCounter {
  count(text: string): number {
    return countWithEncoding(o200kEncoding(), text);
  }
}

/** The rough estimator as a {@link TokenCounter} (no encoding to load), memoized per message object. */
export class RoughTokenCounter extends MemoizedTokenCounter {
  count(text: string): number {
    return estimateTokensRough(text);
  }

  /** Exactly {@link estimateMessageTokensRough}, so this counter agrees with `estimateMessagesTokensRough`. */
  protected override measureMessage(message: ChatMessage): number {
    return estimateMessageTokensRough(message);
  }
}

let sharedCounter: TiktokenCounter | undefined;

/** The process-wide {@link TiktokenCounter} (one memo shared by everyone who asks). */
export function defaultTokenCounter(): TiktokenCounter {
  sharedCounter ??= new TiktokenCounter();
  return sharedCounter;
}
