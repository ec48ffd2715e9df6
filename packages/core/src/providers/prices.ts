/**
 * Model prices (USD per million tokens) for cost accounting: a built-in table per model family,
 * looked up by substring (longest key wins), overridable by a user table.
 */
import { CACHE_READ_MULTIPLIER, CACHE_WRITE_MULTIPLIER, longestSubstringMatch, normalizeModelId } from "./anthropicFacts.js";
import type { CacheTtl } from "./anthropicFacts.js";
import type { RouteHooks } from "../host/hooks.js";
import { defaultRouteHooks } from "../routes/builtin.js";
import { PriceTableSchema } from "./priceTable.js";

/** USD per million tokens of one model. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

/** A price table keyed by model-name substring. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Anthropic pricing from base input/output: write 1.25× (5m) / 2× (1h), read 0.1× of input. */
export function anthropicPrice(input: number, output: number): ModelPrice {
  return {
    input,
    output,
    cacheWrite5m: input * CACHE_WRITE_MULTIPLIER["5m"],
    cacheWrite1h: input * CACHE_WRITE_MULTIPLIER["1h"],
    cacheRead: input * CACHE_READ_MULTIPLIER,
  };
}

/** OpenAI pricing: caching is automatic, writes cost the base input price, reads `cachedInput`. */
export function openAIPrice(input: number, output: number, cachedInput: number): ModelPrice {
  return { input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead: cachedInput };
}

/** Built-in prices, keyed by normalized model-name substring (lowercase, `.` → `-`). */
export const DEFAULT_PRICES: PriceTable = {
  "opus-4-6": anthropicPrice(5, 25),
  "opus-4-5": anthropicPrice(5, 25),
  "opus-4-1": anthropicPrice(15, 75),
  "opus-4": anthropicPrice(15, 75),
  "3-opus": anthropicPrice(15, 75),
  opus: anthropicPrice(5, 25),
  sonnet: anthropicPrice(3, 15),
  "haiku-4-5": anthropicPrice(1, 5),
  "3-5-haiku": anthropicPrice(0.8, 4),
  "haiku-3-5": anthropicPrice(0.8, 4),
  "3-haiku": anthropicPrice(0.25, 1.25),
  haiku: anthropicPrice(1, 5),
  "gpt-4o": openAIPrice(2.5, 10, 1.25),
  "gpt-4o-mini": openAIPrice(0.15, 0.6, 0.075),
  "gpt-5": openAIPrice(1.25, 10, 0.125),
  "gpt-5-mini": openAIPrice(0.25, 2, 0.025),
  "gpt-5-nano": openAIPrice(0.05, 0.4, 0.005),
};

/** Validates a user price table; errors name the key path (e.g. `prices.my-model.input`). */
export function parsePriceTable(input: unknown, where = "prices"): PriceTable {
  const parsed = PriceTableSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${[where, ...i.path.map(String)].join(".")}: ${i.message}`);
    throw new Error(`Invalid price table:\n${lines.join("\n")}`);
  }
  const table: Record<string, ModelPrice> = {};
  for (const [key, e] of Object.entries(parsed.data)) {
    const derived = anthropicPrice(e.input, e.output);
    table[key] = {
      input: e.input,
      output: e.output,
      cacheWrite5m: e.cache_write_5m ?? derived.cacheWrite5m,
      cacheWrite1h: e.cache_write_1h ?? derived.cacheWrite1h,
      cacheRead: e.cache_read ?? derived.cacheRead,
    };
  }
  return table;
}

/**
 * The price of `model`: the longest matching key of `overrides` first, then of {@link DEFAULT_PRICES};
 * undefined when neither knows the model. A local alias is billed as the id `routes` send for it.
 */
export function lookupModelPrice(model: string, overrides: PriceTable = {}, routes: RouteHooks = defaultRouteHooks()): ModelPrice | undefined {
  const normalized = normalizeModelId(routes.wireModel.call(model));
  return longestSubstringMatch(normalized, overrides) ?? longestSubstringMatch(normalized, DEFAULT_PRICES);
}

/** Token counts of one request, split the way providers bill them. */
export interface BilledTokens {
  uncachedInputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: Readonly<Record<CacheTtl, number>>;
  outputTokens: number;
}

/** Cost in USD of one request's tokens at `price`. */
export function requestCostUsd(tokens: BilledTokens, price: ModelPrice): number {
  const perMillion =
    tokens.uncachedInputTokens * price.input +
    tokens.cacheReadTokens * price.cacheRead +
    tokens.cacheWriteTokens["5m"] * price.cacheWrite5m +
    tokens.cacheWriteTokens["1h"] * price.cacheWrite1h +
    tokens.outputTokens * price.output;
  return perMillion / 1_000_000;
}
