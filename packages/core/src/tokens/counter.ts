/**
 * Token counters: exact o200k_base (see o200k.ts, loaded lazily and once) and the rough estimator, both
 * with per-message memoization so re-counting a conversation after one new message costs O(that
 * message), and a content cache so a re-parsed message costs lookups only.
 */
import type { ChatMessage } from "../messages/schema.js";
import { TokenContentCache, type TokenContentCacheLimits } from "./contentCache.js";
import { countO200k, o200kPiecesUpTo } from "./o200k.js";
import { estimateMessageTokensRough, estimateTokensRough, IMAGE_TOKENS, MESSAGE_ENVELOPE_TOKENS, messageTokenParts, replayFieldValues } from "./rough.js";
import type { TokenCounter } from "./types.js";

/**
 * The {@link MemoizedTokenCounter.countingId} of the built-in counters; the number after the slash
 * changes whenever what a message counts changes (v2: reasoning/replay fields, whole tool-call
 * envelopes, tool call ids, CJK-aware rough rates; v3: the Codex replay items).
 */
export const MESSAGE_COUNTING_VERSION = { exact: "o200k_base/3", rough: "rough/3" } as const;

/** What a memo entry was computed from; a message whose content, calls or replay fields were reassigned is recounted. */
interface MemoEntry {
  content: ChatMessage["content"];
  toolCalls: ChatMessage["tool_calls"];
  /** The message's replay field values (see `replayFieldValues`); undefined when it had none. */
  replay: unknown[] | undefined;
  tokens: number;
}

/** True when `message` still has the content, calls and replay field values `entry` was computed from. */
function unchangedSince(entry: MemoEntry, message: ChatMessage): boolean {
  if (entry.content !== message.content || entry.toolCalls !== message.tool_calls) return false;
  const replay = replayFieldValues(message);
  if (replay === undefined || entry.replay === undefined) return replay === entry.replay;
  for (let i = 0; i < replay.length; i++) if (entry.replay[i] !== replay[i]) return false;
  return true;
}

/**
 * A {@link TokenCounter} whose `countMessages` sums per-message counts memoized by message object
 * (a WeakMap, so dropped messages are collected) and, below that, by text: a bounded LRU
 * {@link TokenContentCache} from text segment to count, so fresh objects with known content (a
 * re-parsed transcript) are not tokenized again. Messages are treated as immutable: a memo entry is
 * reused while the message's `content`, `tool_calls` and replay fields are the same values as when it
 * was counted.
 * A message counts every segment of `messageTokenParts` (content, reasoning and replay fields, tool-call
 * envelopes and arguments, a tool message's call id and name), {@link IMAGE_TOKENS} per image, and
 * {@link MESSAGE_ENVELOPE_TOKENS}.
 */
export abstract class MemoizedTokenCounter implements TokenCounter {
  readonly #memo = new WeakMap<ChatMessage, MemoEntry>();
  /** Counts by text segment (bounded; see {@link TokenContentCacheLimits}). */
  readonly contentCache: TokenContentCache;
  /**
   * Names how this counter counts a message (for example `o200k_base/2`), so a count stored with a
   * message (the session store's `tokens`) is reused only by a counter that would compute the same
   * number; undefined for counters whose counts must not be reused.
   */
  readonly countingId: string | undefined = undefined;

  constructor(cacheLimits: TokenContentCacheLimits = {}) {
    this.contentCache = new TokenContentCache(cacheLimits);
  }

  /** Tokens of `text`. */
  abstract count(text: string): number;

  /** Tokens of one message (memoized). */
  countMessage(message: ChatMessage): number {
    const cached = this.#memo.get(message);
    if (cached !== undefined && unchangedSince(cached, message)) {
      return cached.tokens;
    }
    const tokens = this.measureMessage(message);
    this.remember(message, tokens);
    return tokens;
  }

  /** Records `tokens` as `message`'s count (e.g. read back from a store) so counting it costs a lookup. */
  remember(message: ChatMessage, tokens: number): void {
    this.#memo.set(message, { content: message.content, toolCalls: message.tool_calls, replay: replayFieldValues(message), tokens });
  }

  /** Counts one message without the memo: text segments through the content cache, plus images and envelope. */
  protected measureMessage(message: ChatMessage): number {
    const { texts, images } = messageTokenParts(message);
    let tokens = images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
    for (const text of texts) tokens += text.length === 0 ? 0 : this.contentCache.through(text, this.#count);
    return tokens;
  }

  readonly #count = (text: string): number => this.count(text);

  /** Sum of {@link countMessage} over `messages`. */
  countMessages(messages: ChatMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }
}

/**
 * Exact counts under OpenAI's o200k_base encoding, identical to tiktoken's (checked against js-tiktoken
 * in the tests), computed from gpt-tokenizer's vocabulary with a byte-pair merge that stays
 * O(n log n) on any input (see o200k.ts); memoized per message object and per text.
 */
export class TiktokenCounter extends MemoizedTokenCounter {
  override readonly countingId: string | undefined = MESSAGE_COUNTING_VERSION.exact;

  count(text: string): number {
    return countO200k(text);
  }

  /**
   * True when `message` has more than `limit` tokens. A message whose pre-tokenizer pieces alone pass
   * the limit is decided without merging a byte (a 1 MB blob that cannot fit a tail budget costs a
   * scan of its first `limit` pieces); otherwise it is counted exactly (and memoized).
   */
  exceeds(message: ChatMessage, limit: number): boolean {
    const { texts, images } = messageTokenParts(message);
    let floor = images * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS;
    for (const text of texts) {
      if (floor > limit) return true;
      floor += o200kPiecesUpTo(text, limit - floor + 1);
    }
    return floor > limit || this.countMessage(message) > limit;
  }
}

/** The rough estimator as a {@link TokenCounter} (no encoding to load), memoized per message object. */
export class RoughTokenCounter extends MemoizedTokenCounter {
  override readonly countingId: string | undefined = MESSAGE_COUNTING_VERSION.rough;

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
