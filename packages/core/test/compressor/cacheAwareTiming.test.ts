import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheAwareTiming, type CacheAwareTimingInput, type CacheState } from "../../src/compressor/cacheAwareTiming.js";

/** Anthropic's 5m prices relative to input. */
const PRICES = { input: 1, cacheWrite: 1.25, cacheRead: 0.1 };

function input(overrides: Partial<CacheAwareTimingInput>): CacheAwareTimingInput {
  return {
    promptTokens: 100_000,
    triggerTokens: 100_000,
    hardLimitTokens: 168_000,
    growthPerTurn: 3_000,
    compactedTokens: 25_000,
    cache: "warm",
    expiryChancePerTurn: 0.05,
    prices: PRICES,
    ...overrides,
  };
}

const stateArb = fc.constantFrom<CacheState>("warm", "expired", "none");
const inputArb = fc
  .record({
    triggerTokens: fc.integer({ min: 1_000, max: 500_000 }),
    room: fc.integer({ min: 0, max: 500_000 }),
    promptTokens: fc.integer({ min: 0, max: 1_000_000 }),
    growthPerTurn: fc.integer({ min: 0, max: 50_000 }),
    compactedTokens: fc.integer({ min: 0, max: 200_000 }),
    cache: stateArb,
    expiryChancePerTurn: fc.double({ min: 0, max: 1, noNaN: true }),
    cacheWrite: fc.double({ min: 0.5, max: 3, noNaN: true }),
    cacheRead: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((r): CacheAwareTimingInput => ({
    promptTokens: r.promptTokens,
    triggerTokens: r.triggerTokens,
    hardLimitTokens: r.triggerTokens + r.room,
    growthPerTurn: r.growthPerTurn,
    compactedTokens: r.compactedTokens,
    cache: r.cache,
    expiryChancePerTurn: r.expiryChancePerTurn,
    prices: { input: 1, cacheWrite: r.cacheWrite, cacheRead: r.cacheRead },
  }));

describe("cache-aware timing rule", () => {
  it("defers past the trigger while the cache is warm, there is room and the cache rarely expires", () => {
    const decision = cacheAwareTiming(input({ expiryChancePerTurn: 0.5 }));
    expect(decision).toMatchObject({ compact: false, reason: "cache_warm_defer" });
    expect(decision.deferCost).toBeLessThan(decision.compactNowCost);
  });

  it("compacts at the trigger while warm when the cache seldom expires (carrying the long context costs more than rewriting the short one)", () => {
    expect(cacheAwareTiming(input({ expiryChancePerTurn: 0.02 }))).toMatchObject({ compact: true, reason: "cache_warm_compact" });
  });

  it("compacts early when the cache has expired and the saved write pays for the thrown-away headroom", () => {
    expect(cacheAwareTiming(input({ promptTokens: 70_000, cache: "expired" }))).toMatchObject({ compact: true, reason: "cache_expired" });
  });

  it("does not compact an expired cache that is still small (the summarizer would read more than the write saves)", () => {
    expect(cacheAwareTiming(input({ promptTokens: 40_000, cache: "expired" }))).toMatchObject({ compact: false, reason: "below_trigger" });
  });

  it("compacts when the next request would pass the hard limit, warm or not", () => {
    expect(cacheAwareTiming(input({ promptTokens: 166_000, expiryChancePerTurn: 1 }))).toMatchObject({ compact: true, reason: "hard_limit" });
  });

  it("follows the threshold rule when the provider reports no cache", () => {
    expect(cacheAwareTiming(input({ cache: "none", promptTokens: 99_999 })).compact).toBe(false);
    expect(cacheAwareTiming(input({ cache: "none", promptTokens: 100_000 })).compact).toBe(true);
  });

  it("names the input that is negative or not a number", () => {
    expect(() => cacheAwareTiming(input({ growthPerTurn: -1 }))).toThrow(/growthPerTurn must be a number from 0, got -1/);
    expect(() => cacheAwareTiming(input({ expiryChancePerTurn: 2 }))).toThrow(/expiryChancePerTurn must be a number from 0 to 1/);
    expect(() => cacheAwareTiming(input({ prices: { ...PRICES, cacheRead: Number.NaN } }))).toThrow(/prices.cacheRead/);
  });

  it("never lets the next request pass the hard limit when it defers (property)", () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const decision = cacheAwareTiming(i);
        if (!decision.compact && i.promptTokens > 0) expect(i.promptTokens + i.growthPerTurn).toBeLessThanOrEqual(i.hardLimitTokens);
      }),
    );
  });

  it("always compacts at or past the trigger once the cache has expired or there is none (property)", () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        if (i.cache !== "warm" && i.promptTokens >= i.triggerTokens) expect(cacheAwareTiming(i).compact).toBe(true);
      }),
    );
  });

  it("never compacts below the trigger while the cache is warm, unless the hard limit forces it (property)", () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const decision = cacheAwareTiming(i);
        if (i.cache === "warm" && i.promptTokens < i.triggerTokens && decision.compact) expect(decision.reason).toBe("hard_limit");
      }),
    );
  });

  it("keeps every request of a session within the hard limit when each turn adds at most the expected growth (property)", () => {
    const sessionArb = fc.record({
      growth: fc.integer({ min: 1, max: 8_000 }),
      turns: fc.array(fc.record({ add: fc.double({ min: 0, max: 1, noNaN: true }), idleMs: fc.integer({ min: 0, max: 900_000 }) }), { maxLength: 200 }),
    });
    fc.assert(
      fc.property(sessionArb, ({ growth, turns }) => {
        const hardLimitTokens = 64_000;
        const compactedTokens = 12_000;
        let tokens = 4_000;
        for (const turn of turns) {
          const decision = cacheAwareTiming(
            input({ promptTokens: tokens, triggerTokens: 54_400, hardLimitTokens, growthPerTurn: growth, compactedTokens, cache: turn.idleMs > 300_000 ? "expired" : "warm", expiryChancePerTurn: 0.3 }),
          );
          if (decision.compact) tokens = compactedTokens;
          tokens += Math.floor(turn.add * growth);
          expect(tokens).toBeLessThanOrEqual(hardLimitTokens);
        }
      }),
    );
  });
});
