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

/**
 * Token counts keyed by text, so a message parsed afresh (same content, new object) is not tokenized
 * again. Least recently used texts are evicted once either bound of {@link TokenContentCacheLimits} is
 * passed, so memory stays within about `maxChars` × 2 bytes plus a small cost per entry.
 */
export class TokenContentCache {
  readonly maxEntries: number;
  readonly maxChars: number;
  readonly minChars: number;
  readonly #counts = new Map<string, number>();
  #chars = 0;

  constructor(limits: TokenContentCacheLimits = {}) {
    this.maxEntries = limits.maxEntries ?? 20_000;
    this.maxChars = limits.maxChars ?? 16_000_000;
    this.minChars = limits.minChars ?? 64;
  }

  /** Texts kept. */
  get size(): number {
    return this.#counts.size;
  }

  /** Characters of the texts kept. */
  get chars(): number {
    return this.#chars;
  }

  /** The count of `text` (marking it recently used), or undefined. */
  get(text: string): number | undefined {
    const count = this.#counts.get(text);
    if (count !== undefined) {
      this.#counts.delete(text);
      this.#counts.set(text, count);
    }
    return count;
  }

  /** Remembers `text`'s count when the text is cacheable, evicting the least recently used as needed. */
  set(text: string, tokens: number): void {
    if (text.length < this.minChars || text.length > this.maxChars) return;
    if (this.#counts.delete(text)) this.#chars -= text.length;
    this.#counts.set(text, tokens);
    this.#chars += text.length;
    for (const oldest of this.#counts.keys()) {
      if (this.#counts.size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#counts.delete(oldest);
      this.#chars -= oldest.length;
    }
  }

  /** `text`'s count from the cache, else from `count` (then cached). */
  through(text: string, count: (text: string) => number): number {
    if (text.length < this.minChars) return count(text);
    const cached = this.get(text);
    if (cached !== undefined) return cached;
    const tokens = count(text);
    this.set(text, tokens);
    return tokens;
  }
}
