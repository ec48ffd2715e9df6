/**
 * Cache-aware timing (`compression.timing: cache_aware`), as a pure rule: when to compact given what a
 * compaction costs on the provider's prefix cache (docs/BEHAVIOUR.md, "Cache-aware timing").
 *
 * A compaction rewrites the cached prefix, so the request after it writes the whole compacted context
 * to the cache again. While the cache is warm, carrying the long context one more request costs a cache
 * read of it; while it has expired (the agent was idle past the TTL), the next request writes the whole
 * context anyway, and compacting first makes that write smaller. The rule:
 *
 * 1. never past the hard limit: when the next request (`promptTokens + growthPerTurn`) would not fit in
 *    `hardLimitTokens`, compact;
 * 2. no cache (the provider reported neither reads nor writes): the threshold rule;
 * 3. cache expired: compact early when the write it saves now, `(promptTokens − compactedTokens) ×
 *    cacheWrite`, pays for the headroom it throws away: the summarizer reads the
 *    `triggerTokens − promptTokens` tokens the threshold rule would have let grow once more, at the
 *    input price; from the trigger on, compact;
 * 4. cache warm, at or past the trigger: compare one step ahead — compacting now writes the compacted
 *    context (`compactedTokens × cacheWrite`) and the request after reads it, or writes it again when
 *    the cache expires meanwhile (chance `expiryChancePerTurn`); deferring reads the long context once
 *    (`promptTokens × cacheRead`) and compacts on the next request. Defer when deferring costs less.
 */

/** Prices per token in any one unit (only their ratios matter): base input, cache write, cache read. */
export interface TimingPrices {
  input: number;
  cacheWrite: number;
  cacheRead: number;
}

/**
 * The provider's prefix cache as the agent last saw it: `warm` (the last request read or wrote it and
 * it has not outlived its TTL), `expired` (idle past the TTL), `none` (no cache reads or writes reported).
 */
export type CacheState = "warm" | "expired" | "none";

/** What {@link cacheAwareTiming} decides from. Token counts are whole prompt sizes. */
export interface CacheAwareTimingInput {
  /** The prompt tokens of the last request (the context now). */
  promptTokens: number;
  /** Where the threshold rule compacts (`compression.threshold` of the window). */
  triggerTokens: number;
  /** The window less the output reservation: no request may send more. */
  hardLimitTokens: number;
  /** Tokens the next request may add (a high estimate: the guard of the hard limit relies on it). */
  growthPerTurn: number;
  /** The expected context right after a compaction (head, summary, protected tail). */
  compactedTokens: number;
  cache: CacheState;
  /** Chance that the cache expires before the next request (the share of idle gaps past the TTL). */
  expiryChancePerTurn: number;
  prices: TimingPrices;
}

/** Why the rule decided as it did. */
export type CacheAwareTimingReason = "below_trigger" | "at_trigger" | "hard_limit" | "cache_expired" | "cache_warm_defer" | "cache_warm_compact";

/** The decision, with the two one-step costs compared while warm (0 otherwise), in the prices' unit. */
export interface CacheAwareTimingDecision {
  compact: boolean;
  reason: CacheAwareTimingReason;
  compactNowCost: number;
  deferCost: number;
}

function check(value: number, name: string, max = Infinity): void {
  if (!Number.isFinite(value) || value < 0 || value > max) {
    throw new Error(`cacheAwareTiming: ${name} must be a number from 0${max === Infinity ? "" : ` to ${max}`}, got ${String(value)}`);
  }
}

/** Pure: whether to compact before the next request, and why. Throws on a negative or non-finite input, naming it. */
export function cacheAwareTiming(input: CacheAwareTimingInput): CacheAwareTimingDecision {
  const { promptTokens: tokens, triggerTokens, hardLimitTokens, growthPerTurn, compactedTokens, cache, prices } = input;
  for (const [name, value] of Object.entries({ promptTokens: tokens, triggerTokens, hardLimitTokens, growthPerTurn, compactedTokens })) check(value, name);
  for (const [name, value] of Object.entries(prices)) check(value, `prices.${name}`);
  check(input.expiryChancePerTurn, "expiryChancePerTurn", 1);
  const decide = (compact: boolean, reason: CacheAwareTimingReason, compactNowCost = 0, deferCost = 0): CacheAwareTimingDecision => ({ compact, reason, compactNowCost, deferCost });

  if (tokens > 0 && tokens + growthPerTurn > hardLimitTokens) return decide(true, "hard_limit");
  if (cache === "none") return tokens >= triggerTokens ? decide(true, "at_trigger") : decide(false, "below_trigger");
  if (cache === "expired") {
    const early = tokens > compactedTokens && (tokens - compactedTokens) * prices.cacheWrite >= (triggerTokens - tokens) * prices.input;
    return early || tokens >= triggerTokens ? decide(true, "cache_expired") : decide(false, "below_trigger");
  }
  if (tokens < triggerTokens) return decide(false, "below_trigger");
  const q = input.expiryChancePerTurn;
  const nextRequest = (compactedTokens + growthPerTurn) * (q * prices.cacheWrite + (1 - q) * prices.cacheRead);
  const compactNowCost = compactedTokens * prices.cacheWrite + nextRequest;
  const deferCost = tokens * prices.cacheRead + compactedTokens * prices.cacheWrite;
  return deferCost < compactNowCost ? decide(false, "cache_warm_defer", compactNowCost, deferCost) : decide(true, "cache_warm_compact", compactNowCost, deferCost);
}
