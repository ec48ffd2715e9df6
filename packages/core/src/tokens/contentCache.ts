/** A bounded least-recently-used map from text to its token count (the memoized counters' content cache). */

/** Bounds of a {@link TokenContentCache}. */
export interface TokenContentCacheLimits {
  /** Most texts kept (default 20,000). */
  maxEntries?: number;
  /** Most characters of kept texts, summed (default 16,000,000, about 32 MB of keys). */
  maxChars?: number;
  /** Texts shorter than this are not cached: counting them is about as cheap as a lookup (default 64). */
  minChars?: number;
}

/** A kept text and its count; texts with the same fingerprint are chained, most recently set first. */
interface Entry {
  text: string;
  tokens: number;
  next: Entry | undefined;
}

/** Texts kept per fingerprint; a chain that would grow longer drops its oldest text. */
const MAX_CHAIN = 4;
/** Chars read from each end of a text, and spread over its middle, to fingerprint it. */
const EDGE_SAMPLES = 32;
const MIDDLE_SAMPLES = 64;

/**
 * A cheap fingerprint of `text` (its length and up to 128 of its chars: every char of a text that short,
 * else both ends and evenly spaced chars between): a lookup then costs about 128 char reads and one
 * string comparison instead of hashing every char, which is what a `Map<string, …>` does for each
 * freshly parsed text (about 1.5 ns a char, a fifth of counting it). Texts that differ only where the
 * fingerprint does not look share a chain.
 */
function fingerprint(text: string): number {
  const n = text.length;
  let hash = Math.imul(n ^ 0x2545f491, 0x9e3779b1);
  if (n <= 2 * EDGE_SAMPLES + MIDDLE_SAMPLES) {
    for (let i = 0; i < n; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  } else {
    for (let i = 0; i < EDGE_SAMPLES; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const step = (n - 2 * EDGE_SAMPLES) / MIDDLE_SAMPLES;
    for (let k = 0; k < MIDDLE_SAMPLES; k++) hash = Math.imul(hash ^ text.charCodeAt(EDGE_SAMPLES + Math.floor(k * step)), 0x01000193);
    for (let i = n - EDGE_SAMPLES; i < n; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return (hash ^ (hash >>> 15)) & 0x3fffffff; // a small integer: cheap to key a Map by
}

/**
 * Token counts keyed by text, so a message parsed afresh (same content, new object) is not tokenized
 * again. Least recently used texts are evicted once either bound of {@link TokenContentCacheLimits} is
 * passed, so memory stays within about `maxChars` × 2 bytes plus a small cost per entry. Texts are found
 * by a {@link fingerprint} and compared whole, so a hit is exact and a miss costs no full string hash;
 * recency is kept per fingerprint (texts sharing one are evicted together).
 */
export class TokenContentCache {
  readonly maxEntries: number;
  readonly maxChars: number;
  readonly minChars: number;
  /** Chains by fingerprint, least recently used first. */
  readonly #chains = new Map<number, Entry>();
  #size = 0;
  #chars = 0;

  constructor(limits: TokenContentCacheLimits = {}) {
    this.maxEntries = limits.maxEntries ?? 20_000;
    this.maxChars = limits.maxChars ?? 16_000_000;
    this.minChars = limits.minChars ?? 64;
  }

  /** Texts kept. */
  get size(): number {
    return this.#size;
  }

  /** Characters of the texts kept. */
  get chars(): number {
    return this.#chars;
  }

  /** The count of `text` (marking it recently used), or undefined. */
  get(text: string): number | undefined {
    return this.#get(text, fingerprint(text));
  }

  /** Remembers `text`'s count when the text is cacheable, evicting the least recently used as needed. */
  set(text: string, tokens: number): void {
    this.#set(text, fingerprint(text), tokens);
  }

  /** `text`'s count from the cache, else from `count` (then cached). */
  through(text: string, count: (text: string) => number): number {
    if (text.length < this.minChars) return count(text);
    const print = fingerprint(text);
    const cached = this.#get(text, print);
    if (cached !== undefined) return cached;
    const tokens = count(text);
    this.#set(text, print, tokens);
    return tokens;
  }

  #get(text: string, print: number): number | undefined {
    const chain = this.#chains.get(print);
    for (let entry = chain; entry !== undefined; entry = entry.next) {
      if (entry.text === text) {
        this.#chains.delete(print); // re-inserted last: most recently used
        this.#chains.set(print, chain!);
        return entry.tokens;
      }
    }
    return undefined;
  }

  #set(text: string, print: number, tokens: number): void {
    if (text.length < this.minChars || text.length > this.maxChars) return;
    const chain = this.#chains.get(print);
    const head: Entry = { text, tokens, next: chain };
    let kept = 1;
    // Unlink an older entry for the same text, and cut the chain at MAX_CHAIN texts.
    for (let before = head, entry = chain; entry !== undefined; entry = entry.next) {
      if (entry.text === text || kept === MAX_CHAIN) {
        before.next = entry.next;
        this.#size -= 1;
        this.#chars -= entry.text.length;
      } else {
        kept += 1;
        before = entry;
      }
    }
    if (chain !== undefined) this.#chains.delete(print);
    this.#chains.set(print, head);
    this.#size += 1;
    this.#chars += text.length;
    for (const [oldest, entries] of this.#chains) {
      if (this.#size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#chains.delete(oldest);
      for (let entry: Entry | undefined = entries; entry !== undefined; entry = entry.next) {
        this.#size -= 1;
        this.#chars -= entry.text.length;
      }
    }
  }
}
