import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { computeThresholds } from "../../src/engine/thresholds.js";
import { DEFAULT_THRESHOLD_SETTINGS } from "../../src/engine/ContextEngine.js";
import { roughCounter } from "./fixtures.js";

describe("thresholds: an output reservation as large as the window", () => {
  it("ignores a max_tokens reservation that reaches the context length instead of triggering at 0 tokens", () => {
    const withoutReservation = computeThresholds({ model: "local", contextLength: 128_000 }, DEFAULT_THRESHOLD_SETTINGS);
    for (const maxTokens of [128_000, 200_000]) {
      const plan = computeThresholds({ model: "local", contextLength: 128_000, maxTokens }, DEFAULT_THRESHOLD_SETTINGS);
      expect(plan.thresholdTokens).toBe(withoutReservation.thresholdTokens);
      expect(plan.tailTokenBudget).toBe(withoutReservation.tailTokenBudget);
    }
  });

  it("never computes a trigger of 0 tokens, even when the reservation leaves one token of input room", () => {
    const plan = computeThresholds({ model: "local", contextLength: 128_000, maxTokens: 127_999 }, DEFAULT_THRESHOLD_SETTINGS);
    expect(plan.thresholdTokens).toBeGreaterThan(0);
  });

  it("does not ask to compress an empty conversation when max_tokens equals the context length", () => {
    const engine = new ContextCompressor({ model: { model: "local", contextLength: 32_768, maxTokens: 32_768 }, tokenCounter: roughCounter });
    expect(engine.thresholdTokens).toBeGreaterThan(0);
    expect(engine.shouldCompress(0)).toBe(false);
    expect(engine.shouldCompress(100)).toBe(false);
  });
});
