import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { normalizeUsage, InvalidUsageError } from "../../src/engine/usage.js";
import { fastApiConversation, roughCounter } from "../compressor/fixtures.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";

const ZERO = { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("usage objects without numbers", () => {
  it("reads an empty usage object as zero tokens", () => {
    expect(normalizeUsage({})).toEqual(ZERO);
  });

  it("reads null counts as zero in every known shape", () => {
    expect(normalizeUsage({ prompt_tokens: null, completion_tokens: null, total_tokens: null })).toEqual(ZERO);
    expect(normalizeUsage({ input_tokens: null, output_tokens: null })).toEqual(ZERO);
    expect(normalizeUsage({ input_tokens: null, cache_read_input_tokens: null, cache_creation_input_tokens: null })).toEqual(ZERO);
  });

  it("reads the numbers that are there and zero for the prompt when only completion tokens are reported", () => {
    expect(normalizeUsage({ completion_tokens: 12 })).toEqual({ ...ZERO, completionTokens: 12, totalTokens: 12 });
  });

  it("reads a usage object with only unknown fields as zero tokens", () => {
    expect(normalizeUsage({ tokens: 5 })).toEqual(ZERO);
  });

  it("still rejects counts that are not numbers", () => {
    expect(() => normalizeUsage({ prompt_tokens: "many" })).toThrow(InvalidUsageError);
    expect(() => normalizeUsage({ input_tokens: -3 })).toThrow(/input_tokens/);
  });

  it("an engine records a usage-less response as 0 without lifting an ineffective-compaction pause", async () => {
    const engine = new ContextCompressor({
      compression: { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 },
      summarizer: { summarize: async () => SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n") },
      tokenCounter: roughCounter,
    });
    for (let i = 0; i < 2; i++) {
      await engine.compress(fastApiConversation());
      engine.updateFromResponse({ prompt_tokens: 50_000 });
    }
    expect(engine.shouldCompressInfo(50_000).reason).toBe("ineffective");
    expect(() => engine.updateFromResponse({})).not.toThrow();
    expect(engine.lastPromptTokens).toBe(0);
    expect(engine.shouldCompressInfo(50_000).reason).toBe("ineffective");
  });
});
