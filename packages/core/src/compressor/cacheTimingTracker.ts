/**
 * The stateful shell of cache-aware timing: per session, what the reported usage says about the prefix
 * cache (when the last response came, whether the provider reported cache reads or writes, how much each
 * request adds, how often the agent was idle past the TTL, how big the context was after the last
 * compaction), turned into the inputs of the pure rule {@link cacheAwareTiming}.
 */
import { CACHE_TTL_MS, CACHE_READ_MULTIPLIER, CACHE_WRITE_MULTIPLIER, type CacheTtl } from "../providers/anthropicFacts.js";
import { lookupModelPrice, parsePriceTable, type PriceTable } from "../providers/prices.js";
import { requestLimitTokens } from "../engine/requestFit.js";
import type { HostConfig } from "../config/schema.js";
import { cacheAwareTiming, type CacheAwareTimingDecision, type CacheState, type TimingPrices } from "./cacheAwareTiming.js";

/** Growths of the last this many requests are kept; the largest is the next request's expected growth. */
export const GROWTH_WINDOW = 20;

/** What the tracker remembers about one session. */
interface TimingSession {
  lastResponseMs: number | undefined;
  lastPromptTokens: number;
  sawCache: boolean;
  growths: number[];
  gaps: number;
  expiredGaps: number;
  compactedTokens: number | undefined;
}

/** The limits of one decision, from the engine's thresholds. */
export interface TimingLimits {
  triggerTokens: number;
  /** The compacted context to expect before a compaction was seen (head, tail budget, summary ceiling). */
  compactedTokensEstimate: number;
}

/** The model a decision is for: its name (prices) and its window less the output reserve (the hard limit, engine/requestFit.ts). */
export interface TimingModel {
  model: string;
  contextLength: number;
  maxTokens?: number | undefined;
}

/** Options of {@link CacheTimingTracker}. */
export interface CacheTimingOptions {
  /** `prompt_caching.cache_ttl` (default "5m"). */
  ttl?: CacheTtl;
  /** User prices, searched before the built-in table; a model without a price uses Anthropic's ratios. */
  prices?: PriceTable;
}

/** The cache TTL and prices a host config sets (`prompt_caching.cache_ttl`, `prices`) for a cache tracker. */
export function cacheTrackerOptions(config: { prompt_caching?: Partial<HostConfig["prompt_caching"]>; prices?: unknown }): CacheTimingOptions {
  return { ttl: config.prompt_caching?.cache_ttl ?? "5m", prices: parsePriceTable(config.prices ?? {}) };
}

/**
 * The options of cache-aware timing a host config sets (`prompt_caching.cache_ttl`, `prices`), or
 * undefined when its `compression.timing` is not `cache_aware` (or it is no config object).
 */
export function cacheTimingFromConfig(config: unknown): CacheTimingOptions | undefined {
  if (typeof config !== "object" || config === null) return undefined;
  const c = config as { compression?: Partial<HostConfig["compression"]>; prompt_caching?: Partial<HostConfig["prompt_caching"]>; prices?: unknown };
  if (c.compression?.timing !== "cache_aware") return undefined;
  return cacheTrackerOptions(c);
}

/** Cache write and read prices relative to input for `model` at `ttl`: from the price table, else Anthropic's multipliers. */
export function timingPrices(model: string, ttl: CacheTtl, prices?: PriceTable): TimingPrices {
  const price = lookupModelPrice(model, prices);
  if (price === undefined || price.input <= 0) return { input: 1, cacheWrite: CACHE_WRITE_MULTIPLIER[ttl], cacheRead: CACHE_READ_MULTIPLIER };
  return { input: 1, cacheWrite: (ttl === "1h" ? price.cacheWrite1h : price.cacheWrite5m) / price.input, cacheRead: price.cacheRead / price.input };
}

/** Per-session cache state for cache-aware timing; `clock` (ms since the epoch) may be replaced, e.g. by a replay's request times. */
export class CacheTimingTracker {
  readonly ttl: CacheTtl;
  readonly prices: PriceTable | undefined;
  /** The clock the idle time is measured with (default `Date.now`). */
  clock: () => number;
  private readonly sessions = new Map<string, TimingSession>();

  constructor(options: CacheTimingOptions = {}, clock: () => number = Date.now) {
    this.ttl = options.ttl ?? "5m";
    this.prices = options.prices;
    this.clock = clock;
  }

  private session(id: string): TimingSession {
    let s = this.sessions.get(id);
    if (s === undefined) {
      s = { lastResponseMs: undefined, lastPromptTokens: 0, sawCache: false, growths: [], gaps: 0, expiredGaps: 0, compactedTokens: undefined };
      this.sessions.set(id, s);
    }
    return s;
  }

  /** Records a response's usage in session `id`; `afterCompaction` when it is the first usage after a compaction. */
  recordUsage(id: string, usage: { promptTokens: number; cacheReadTokens: number; cacheWriteTokens: number }, afterCompaction: boolean): void {
    const s = this.session(id);
    const now = this.clock();
    if (s.lastResponseMs !== undefined) {
      s.gaps += 1;
      if (now - s.lastResponseMs > CACHE_TTL_MS[this.ttl]) s.expiredGaps += 1;
    }
    if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0) s.sawCache = true;
    if (afterCompaction) s.compactedTokens = usage.promptTokens;
    else if (s.lastPromptTokens > 0 && usage.promptTokens > s.lastPromptTokens) s.growths = [...s.growths, usage.promptTokens - s.lastPromptTokens].slice(-GROWTH_WINDOW);
    s.lastPromptTokens = usage.promptTokens;
    s.lastResponseMs = now;
  }

  /** The cache of session `id` now: none before any reported cache activity, expired past the TTL since the last response. */
  cacheState(id: string): CacheState {
    const s = this.session(id);
    if (!s.sawCache || s.lastResponseMs === undefined) return "none";
    return this.clock() - s.lastResponseMs > CACHE_TTL_MS[this.ttl] ? "expired" : "warm";
  }

  /** The rule's decision for `promptTokens` in session `id` of `model`. */
  decide(id: string, model: TimingModel, promptTokens: number, limits: TimingLimits): CacheAwareTimingDecision {
    const s = this.session(id);
    return cacheAwareTiming({
      promptTokens,
      triggerTokens: limits.triggerTokens,
      hardLimitTokens: requestLimitTokens(model),
      growthPerTurn: Math.max(0, ...s.growths),
      compactedTokens: s.compactedTokens ?? Math.min(promptTokens, limits.compactedTokensEstimate),
      cache: this.cacheState(id),
      // Laplace's rule of succession over the idle gaps seen so far.
      expiryChancePerTurn: (s.expiredGaps + 1) / (s.gaps + 2),
      prices: timingPrices(model.model, this.ttl, this.prices),
    });
  }

  /** Forgets session `id` (its end or reset). */
  forget(id: string): void {
    this.sessions.delete(id);
  }
}
