/**
 * Provider facts about Anthropic prompt caching, kept in one place so the marker placement, the
 * adapter, the price table and the prefix-cache model all agree.
 */

/** Cache lifetimes a `cache_control` marker can ask for. */
export type CacheTtl = "5m" | "1h";

/** The marker Anthropic reads: `{type: "ephemeral"}` (5 minutes) or with `ttl: "1h"`. */
export interface CacheControlMarker {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

/** Anthropic accepts at most this many `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** How long an entry lives after its last write or read, per TTL. */
export const CACHE_TTL_MS: Readonly<Record<CacheTtl, number>> = { "5m": 5 * 60_000, "1h": 60 * 60_000 };

/** Cache-write price as a multiple of the base input price, per TTL. */
export const CACHE_WRITE_MULTIPLIER: Readonly<Record<CacheTtl, number>> = { "5m": 1.25, "1h": 2 };

/** Cache-read price as a multiple of the base input price. */
export const CACHE_READ_MULTIPLIER = 0.1;

/**
 * The provider looks for an earlier cache entry at most this many blocks before each breakpoint
 * (about 20 per Anthropic's documentation); the prefix-cache model counts messages.
 */
export const CACHE_LOOKBACK_BLOCKS = 20;

/** Usage fields of an Anthropic response that report cache traffic. */
export const ANTHROPIC_CACHE_USAGE_FIELDS = {
  write: "cache_creation_input_tokens",
  read: "cache_read_input_tokens",
} as const;

/** Minimum cacheable prefix length for models this table does not know. */
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS = 4096;

/**
 * Minimum cacheable prefix length (tokens) by model-name substring (normalized: lowercase, `.` → `-`);
 * the longest matching key wins. Below it the provider caches nothing and raises no error.
 */
export const MINIMUM_CACHEABLE_TOKENS: Readonly<Record<string, number>> = {
  "opus-4-6": 4096,
  "opus-4-5": 4096,
  "opus-4-1": 1024,
  "opus-4": 1024,
  "3-opus": 1024,
  opus: 1024,
  sonnet: 1024,
  "haiku-4-5": 4096,
  "3-5-haiku": 2048,
  "haiku-3-5": 2048,
  "3-haiku": 2048,
  haiku: 2048,
};

/** A fresh marker object for `ttl` (never shared between messages). */
export function cacheControlMarker(ttl: CacheTtl = "5m"): CacheControlMarker {
  return ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/** Throws a clear error unless `ttl` is "5m" or "1h". */
export function assertCacheTtl(ttl: unknown, where = "ttl"): asserts ttl is CacheTtl {
  if (ttl !== "5m" && ttl !== "1h") {
    throw new Error(`${where} must be "5m" or "1h", got ${JSON.stringify(ttl)}`);
  }
}

/** Lowercases a model id and turns `.` into `-` so `claude-sonnet-4.5` and `claude-sonnet-4-5` match alike. */
export function normalizeModelId(model: string): string {
  return model.trim().toLowerCase().replace(/\./g, "-");
}

/** The value of the longest key of `table` contained in `normalizedModel`, or undefined. */
export function longestSubstringMatch<T>(normalizedModel: string, table: Readonly<Record<string, T>>): T | undefined {
  let bestKey: string | undefined;
  for (const key of Object.keys(table)) {
    const needle = normalizeModelId(key);
    if (needle !== "" && normalizedModel.includes(needle) && (bestKey === undefined || needle.length > normalizeModelId(bestKey).length)) {
      bestKey = key;
    }
  }
  return bestKey === undefined ? undefined : table[bestKey];
}

/**
 * The minimum cacheable prefix length for `model`: user overrides first (longest substring match),
 * then {@link MINIMUM_CACHEABLE_TOKENS}, else {@link DEFAULT_MINIMUM_CACHEABLE_TOKENS}.
 */
export function minimumCacheableTokens(model: string, overrides: Readonly<Record<string, number>> = {}): number {
  const normalized = normalizeModelId(model);
  return longestSubstringMatch(normalized, overrides) ?? longestSubstringMatch(normalized, MINIMUM_CACHEABLE_TOKENS) ?? DEFAULT_MINIMUM_CACHEABLE_TOKENS;
}
