/**
 * A model of the provider's prefix cache (Anthropic semantics): given the requests an agent sends,
 * with their `cache_control` breakpoints and timestamps, which input tokens are cache reads, cache
 * writes or uncached, what each request costs, and what an ideal cache would have read.
 *
 * Rules: a breakpoint at message i caches the prefix 0..i under (model, account); a later request reads
 * the longest identical, unexpired cached prefix that ends at or at most `lookbackMessages` before one
 * of its breakpoints; entries live 5 min or 1 h from their last write or read; a breakpoint whose
 * prefix is shorter than the model's minimum cacheable length caches nothing (no error). A model or
 * account change lands on an empty cache: a full miss, flagged on the request.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { TokenCounter } from "../tokens/types.js";
import { CACHE_LOOKBACK_BLOCKS, CACHE_TTL_MS, minimumCacheableTokens } from "../providers/anthropicFacts.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";
import { lookupModelPrice, requestCostUsd } from "../providers/prices.js";
import type { ModelPrice, PriceTable } from "../providers/prices.js";
import { messageFingerprint } from "./fingerprint.js";

/** One request as the agent sends it. */
export interface CacheRequest {
  timestampMs: number;
  model: string;
  /** The credential/account the request is billed to; part of the cache key. */
  account?: string;
  /** The messages with their `cache_control` markers. */
  messages: readonly ChatMessage[];
  /** Input tokens of each message (same length as `messages`); otherwise `options.tokenCounter` counts. */
  tokensPerMessage?: readonly number[];
  /** Output tokens of the response, for the cost. */
  outputTokens?: number;
}

/** Options of {@link simulatePrefixCache}. */
export interface PrefixCacheOptions {
  /** Counts message tokens when a request has no `tokensPerMessage`. */
  tokenCounter?: TokenCounter;
  /** User prices, searched before the built-in table. */
  prices?: PriceTable;
  /** User minimum cacheable lengths by model substring. */
  minimumCacheableTokens?: Readonly<Record<string, number>>;
  /** How far before a breakpoint the provider looks for an earlier entry (default 20). */
  lookbackMessages?: number;
}

/** Why a request found its cache key empty. */
export type FullMissReason = "model_switch" | "credential_switch";

/** The cache accounting of one request. `cacheReadTokens + cacheWriteTokens + uncachedTokens = inputTokens`. */
export interface RequestCacheAccounting {
  index: number;
  model: string;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWriteTokensByTtl: Record<CacheTtl, number>;
  uncachedTokens: number;
  outputTokens: number;
  /** Messages whose content carries a breakpoint. */
  breakpoints: number[];
  /** Messages read from the cache (the hit prefix length). */
  cachedPrefixMessages: number;
  /** Every repeated prefix token (seen in an earlier request of the same model and account, above the minimum) read from cache. */
  idealCacheReadTokens: number;
  /** Tokens an ideal cache writes: the new part of the prefix that a later request repeats. */
  idealCacheWriteTokens: number;
  /** Cost with the modelled cache; null when the model has no price. */
  costUsd: number | null;
  /** Cost with no caching at all. */
  uncachedCostUsd: number | null;
  /** Cost with the ideal cache (writes at the 5m price). */
  idealCostUsd: number | null;
  /** Set when the model or account differs from the previous request's. */
  cacheKeyChange?: FullMissReason;
  /** Set when such a change made this request read nothing from cache. */
  fullMissReason?: FullMissReason;
}

/** Sums over all requests. Shares are of input tokens (0 when there are none). */
export interface PrefixCacheTotals {
  requests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  idealCacheReadTokens: number;
  cacheReadShare: number;
  idealCacheReadShare: number;
  /** Sums over the priced requests. */
  costUsd: number;
  uncachedCostUsd: number;
  idealCostUsd: number;
  fullMisses: number;
  /** Models without a price (their requests are left out of the cost sums). */
  unpricedModels: string[];
}

/** What {@link simulatePrefixCache} returns. */
export interface PrefixCacheReport {
  requests: RequestCacheAccounting[];
  totals: PrefixCacheTotals;
}

interface CacheEntry {
  lastUsedMs: number;
  ttl: CacheTtl;
}

/** A node of the prefix trie: one distinct prefix under one cache key. */
interface PrefixNode {
  children: Map<string, PrefixNode>;
  firstRequest: number;
  lastRequest: number;
  entry?: CacheEntry;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The TTL of the marker(s) on `message` ("1h" wins over "5m"), or undefined when it carries none. */
export function breakpointTtl(message: ChatMessage): CacheTtl | undefined {
  const markers: unknown[] = [message.cache_control];
  if (Array.isArray(message.content)) for (const part of message.content) if (isPlainObject(part)) markers.push(part.cache_control);
  let ttl: CacheTtl | undefined;
  for (const m of markers) {
    if (!isPlainObject(m)) continue;
    ttl = m.ttl === "1h" ? "1h" : (ttl ?? "5m");
  }
  return ttl;
}

function cacheKey(request: CacheRequest): string {
  return `${request.model}\u0000${request.account ?? ""}`;
}

function keyChange(previous: CacheRequest | undefined, current: CacheRequest): FullMissReason | undefined {
  if (previous === undefined) return undefined;
  if (previous.model !== current.model) return "model_switch";
  if ((previous.account ?? "") !== (current.account ?? "")) return "credential_switch";
  return undefined;
}

function validateRequests(requests: readonly CacheRequest[], options: PrefixCacheOptions): void {
  let previousTime = -Infinity;
  requests.forEach((r, index) => {
    const where = `requests[${index}]`;
    if (!Number.isFinite(r.timestampMs)) throw new Error(`${where}.timestampMs must be a finite number of milliseconds`);
    if (r.timestampMs < previousTime) throw new Error(`${where}.timestampMs goes back in time (${r.timestampMs} < ${previousTime})`);
    previousTime = r.timestampMs;
    if (typeof r.model !== "string" || r.model === "") throw new Error(`${where}.model must be a non-empty string`);
    if (!Array.isArray(r.messages)) throw new Error(`${where}.messages must be an array`);
    if (r.tokensPerMessage !== undefined) {
      if (r.tokensPerMessage.length !== r.messages.length) {
        throw new Error(`${where}.tokensPerMessage has ${r.tokensPerMessage.length} entries for ${r.messages.length} messages`);
      }
      r.tokensPerMessage.forEach((n, i) => {
        if (!Number.isFinite(n) || n < 0) throw new Error(`${where}.tokensPerMessage[${i}] must be a number ≥ 0, got ${n}`);
      });
    } else if (options.tokenCounter === undefined) {
      throw new Error(`${where}: give tokensPerMessage or options.tokenCounter`);
    }
  });
}

/** Walks (and grows) the trie of `root` along `fingerprints`, returning the node of each prefix. */
function walk(root: PrefixNode, fingerprints: readonly string[], requestIndex: number): PrefixNode[] {
  const path: PrefixNode[] = [];
  let node = root;
  for (const fp of fingerprints) {
    let child = node.children.get(fp);
    if (child === undefined) {
      child = { children: new Map(), firstRequest: requestIndex, lastRequest: requestIndex };
      node.children.set(fp, child);
    }
    child.lastRequest = requestIndex;
    path.push(child);
    node = child;
  }
  return path;
}

function isAlive(entry: CacheEntry | undefined, nowMs: number): entry is CacheEntry {
  return entry !== undefined && nowMs - entry.lastUsedMs <= CACHE_TTL_MS[entry.ttl];
}

function longerTtl(a: CacheTtl | undefined, b: CacheTtl): CacheTtl {
  return a === "1h" || b === "1h" ? "1h" : "5m";
}

/** Pure: computes the cache accounting of each request, in order, from an empty cache. */
export function simulatePrefixCache(requests: readonly CacheRequest[], options: PrefixCacheOptions = {}): PrefixCacheReport {
  validateRequests(requests, options);
  const lookback = options.lookbackMessages ?? CACHE_LOOKBACK_BLOCKS;
  const tokenMemo = new Map<string, number>();
  const fingerprintsOf = requests.map((r) => r.messages.map(messageFingerprint));

  // Pass 1: the trie of every cache key, recording the first and last request through each prefix.
  const roots = new Map<string, PrefixNode>();
  const paths = requests.map((r, index) => {
    const key = cacheKey(r);
    let root = roots.get(key);
    if (root === undefined) {
      root = { children: new Map(), firstRequest: index, lastRequest: index };
      roots.set(key, root);
    }
    return walk(root, fingerprintsOf[index] as string[], index);
  });

  // Pass 2: replay the requests against the cache.
  const accounting = requests.map((request, index): RequestCacheAccounting => {
    const path = paths[index] as PrefixNode[];
    const fingerprints = fingerprintsOf[index] as string[];
    const cumulative: number[] = [];
    let running = 0;
    request.messages.forEach((message, i) => {
      let tokens = request.tokensPerMessage?.[i];
      if (tokens === undefined) {
        const fp = fingerprints[i] as string;
        tokens = tokenMemo.get(fp);
        if (tokens === undefined) {
          tokens = (options.tokenCounter as TokenCounter).countMessages([message]);
          tokenMemo.set(fp, tokens);
        }
      }
      running += tokens;
      cumulative.push(running);
    });
    const inputTokens = running;
    const prefixTokens = (i: number): number => (i < 0 ? 0 : (cumulative[i] as number));
    const minimum = minimumCacheableTokens(request.model, options.minimumCacheableTokens);
    const now = request.timestampMs;

    const breakpoints: Array<{ at: number; ttl: CacheTtl }> = [];
    request.messages.forEach((m, i) => {
      const ttl = breakpointTtl(m);
      if (ttl !== undefined) breakpoints.push({ at: i, ttl });
    });

    // Longest live entry at or shortly before a breakpoint.
    let hit = -1;
    for (const { at } of breakpoints) {
      for (let j = at; j >= Math.max(0, at - lookback) && j > hit; j -= 1) {
        if (isAlive(path[j]?.entry, now)) {
          hit = j;
          break;
        }
      }
    }
    const hitEntry = hit >= 0 ? path[hit]?.entry : undefined;
    if (hitEntry) hitEntry.lastUsedMs = now;
    const cacheReadTokens = prefixTokens(hit);

    // Writes: each cacheable breakpoint after the hit writes the segment since the previous boundary.
    const written: Record<CacheTtl, number> = { "5m": 0, "1h": 0 };
    let boundary = cacheReadTokens;
    for (const { at, ttl } of breakpoints) {
      const tokens = prefixTokens(at);
      if (tokens < minimum) continue;
      const node = path[at] as PrefixNode;
      node.entry = { lastUsedMs: now, ttl: longerTtl(isAlive(node.entry, now) ? node.entry.ttl : undefined, ttl) };
      if (at > hit && tokens > boundary) {
        written[ttl] += tokens - boundary;
        boundary = tokens;
      }
    }
    const cacheWriteTokens = written["5m"] + written["1h"];
    const uncachedTokens = inputTokens - cacheReadTokens - cacheWriteTokens;

    // The ideal: every prefix an earlier request sent is read; what a later request repeats is written.
    let idealRead = -1;
    let idealWriteEnd = -1;
    path.forEach((node, i) => {
      if (prefixTokens(i) < minimum) return;
      if (node.firstRequest < index) idealRead = i;
      if (node.lastRequest > index) idealWriteEnd = i;
    });
    const idealCacheReadTokens = prefixTokens(idealRead);
    const idealCacheWriteTokens = Math.max(0, prefixTokens(idealWriteEnd) - idealCacheReadTokens);

    const change = keyChange(requests[index - 1], request);
    const outputTokens = request.outputTokens ?? 0;
    const price = lookupModelPrice(request.model, options.prices);
    const cost = (read: number, write: Record<CacheTtl, number>): number | null =>
      price === undefined ? null : requestCostUsd({ uncachedInputTokens: inputTokens - read - write["5m"] - write["1h"], cacheReadTokens: read, cacheWriteTokens: write, outputTokens }, price as ModelPrice);

    const result: RequestCacheAccounting = {
      index,
      model: request.model,
      inputTokens,
      cacheReadTokens,
      cacheWriteTokens,
      cacheWriteTokensByTtl: written,
      uncachedTokens,
      outputTokens,
      breakpoints: breakpoints.map((b) => b.at),
      cachedPrefixMessages: hit + 1,
      idealCacheReadTokens,
      idealCacheWriteTokens,
      costUsd: cost(cacheReadTokens, written),
      uncachedCostUsd: cost(0, { "5m": 0, "1h": 0 }),
      idealCostUsd: cost(idealCacheReadTokens, { "5m": idealCacheWriteTokens, "1h": 0 }),
    };
    if (change !== undefined) {
      result.cacheKeyChange = change;
      if (cacheReadTokens === 0) result.fullMissReason = change;
    }
    return result;
  });

  return { requests: accounting, totals: totalsOf(accounting) };
}

/** Sums a list of request accountings (e.g. a slice of a report). */
export function totalsOf(accounting: readonly RequestCacheAccounting[]): PrefixCacheTotals {
  const sum = (pick: (a: RequestCacheAccounting) => number): number => accounting.reduce((s, a) => s + pick(a), 0);
  const inputTokens = sum((a) => a.inputTokens);
  const cacheReadTokens = sum((a) => a.cacheReadTokens);
  const idealCacheReadTokens = sum((a) => a.idealCacheReadTokens);
  const unpriced = new Set(accounting.filter((a) => a.costUsd === null).map((a) => a.model));
  return {
    requests: accounting.length,
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens: sum((a) => a.cacheWriteTokens),
    uncachedTokens: sum((a) => a.uncachedTokens),
    outputTokens: sum((a) => a.outputTokens),
    idealCacheReadTokens,
    cacheReadShare: inputTokens === 0 ? 0 : cacheReadTokens / inputTokens,
    idealCacheReadShare: inputTokens === 0 ? 0 : idealCacheReadTokens / inputTokens,
    costUsd: sum((a) => a.costUsd ?? 0),
    uncachedCostUsd: sum((a) => a.uncachedCostUsd ?? 0),
    idealCostUsd: sum((a) => a.idealCostUsd ?? 0),
    fullMisses: accounting.filter((a) => a.fullMissReason !== undefined).length,
    unpricedModels: [...unpriced].sort(),
  };
}
