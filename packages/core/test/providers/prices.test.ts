import { describe, expect, it } from "vitest";
import { anthropicPrice, DEFAULT_PRICES, lookupModelPrice, parsePriceTable, requestCostUsd } from "../../src/providers/prices.js";
import { DEFAULT_MINIMUM_CACHEABLE_TOKENS, minimumCacheableTokens } from "../../src/providers/anthropicFacts.js";

describe("price table", () => {
  it("derives Anthropic cache prices from the input price: write 1.25× (5m) / 2× (1h), read 0.1×", () => {
    expect(anthropicPrice(3, 15)).toEqual({ input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.30000000000000004 });
    const sonnet = lookupModelPrice("claude-sonnet-4-5-20250929");
    expect(sonnet?.cacheWrite5m).toBeCloseTo(3.75);
    expect(sonnet?.cacheWrite1h).toBeCloseTo(6);
    expect(sonnet?.cacheRead).toBeCloseTo(0.3);
  });

  it("finds a model by substring whatever its spelling, the longest key winning", () => {
    expect(lookupModelPrice("anthropic/claude-opus-4.6")?.input).toBe(5);
    expect(lookupModelPrice("claude-opus-4-1-20250805")?.input).toBe(15);
    expect(lookupModelPrice("claude-opus-4-20250514")?.input).toBe(15);
    expect(lookupModelPrice("claude-3-5-haiku-20241022")?.input).toBe(0.8);
    expect(lookupModelPrice("claude-haiku-4-5")?.input).toBe(1);
    expect(lookupModelPrice("gpt-4o-mini-2024-07-18")?.input).toBe(0.15);
    expect(lookupModelPrice("gpt-4o-2024-08-06")?.input).toBe(2.5);
    expect(lookupModelPrice("gpt-5.1-codex")?.input).toBe(1.25);
    expect(lookupModelPrice("gpt-5-mini")?.input).toBe(0.25);
  });

  it("returns undefined for an unknown model", () => {
    expect(lookupModelPrice("llama-3.1-70b")).toBeUndefined();
  });

  it("lets a user table override the built-in one, deriving missing cache prices", () => {
    const user = parsePriceTable({ claude: { input: 2, output: 8 }, "my-local": { input: 0, output: 0, cache_read: 0 } });
    expect(lookupModelPrice("claude-sonnet-4-5", user)).toEqual({ input: 2, output: 8, cacheWrite5m: 2.5, cacheWrite1h: 4, cacheRead: 0.2 });
    expect(lookupModelPrice("my-local-7b", user)?.input).toBe(0);
    expect(lookupModelPrice("gpt-4o", user)).toEqual(DEFAULT_PRICES["gpt-4o"]);
  });

  it("rejects a bad user table naming the key path", () => {
    expect(() => parsePriceTable({ "my-model": { input: -1, output: 2 } })).toThrow(/prices\.my-model\.input: must be 0 or more/);
    expect(() => parsePriceTable({ "my-model": { output: 2 } })).toThrow(/prices\.my-model\.input/);
  });

  it("prices a request's reads, writes, uncached input and output", () => {
    const price = anthropicPrice(3, 15);
    const cost = requestCostUsd({ uncachedInputTokens: 1_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: { "5m": 1_000_000, "1h": 1_000_000 }, outputTokens: 1_000_000 }, price);
    expect(cost).toBeCloseTo(3 + 0.3 + 3.75 + 6 + 15);
  });
});

describe("minimumCacheableTokens", () => {
  it("knows the Claude families and defaults to 4096 for unknown models", () => {
    expect(minimumCacheableTokens("claude-sonnet-4-5")).toBe(1024);
    expect(minimumCacheableTokens("anthropic/claude-opus-4.1")).toBe(1024);
    expect(minimumCacheableTokens("claude-opus-4-6")).toBe(4096);
    expect(minimumCacheableTokens("claude-3-5-haiku-20241022")).toBe(2048);
    expect(minimumCacheableTokens("claude-haiku-4-5")).toBe(4096);
    expect(minimumCacheableTokens("some-new-model")).toBe(DEFAULT_MINIMUM_CACHEABLE_TOKENS);
    expect(DEFAULT_MINIMUM_CACHEABLE_TOKENS).toBe(4096);
  });

  it("takes user overrides first", () => {
    expect(minimumCacheableTokens("claude-sonnet-4-5", { "sonnet-4-5": 2048 })).toBe(2048);
  });
});
