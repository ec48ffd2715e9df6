import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { fastApiConversation, roughCounter } from "./fixtures.js";

const summarizer: Summarizer = { name: "template", summarize: async () => SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n") };
const SETTINGS = { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };

/** An engine that has just compacted the FastAPI example (its result is well under the threshold). */
async function justCompacted(): Promise<ContextCompressor> {
  const engine = new ContextCompressor({ compression: SETTINGS, summarizer, tokenCounter: roughCounter });
  await engine.compress(fastApiConversation());
  expect(engine.lastCompression).toMatchObject({ aborted: false, stillAboveThreshold: false });
  return engine;
}

describe("preflight after a compaction waits for the provider's real usage", () => {
  it("does not compact again on an estimate at or above the threshold before real usage arrives", async () => {
    const engine = await justCompacted();
    const estimate = engine.thresholdTokens + 2_000;
    expect(engine.shouldDeferPreflightToRealUsage(estimate)).toBe(true);
    expect(engine.shouldCompressInfo(estimate)).toMatchObject({ should: false, reason: "awaiting_usage" });
    expect(engine.shouldCompress(estimate)).toBe(false);
  });

  it("judges by the real usage once it arrives, and by estimates again after that", async () => {
    const engine = await justCompacted();
    const estimate = engine.thresholdTokens + 2_000;
    engine.updateFromResponse({ prompt_tokens: engine.thresholdTokens + 500 });
    expect(engine.shouldDeferPreflightToRealUsage(estimate)).toBe(false);
    expect(engine.shouldCompress()).toBe(true);
    expect(engine.shouldCompress(estimate)).toBe(true);
  });

  it("never defers an estimate that exceeds the whole context window", async () => {
    const engine = await justCompacted();
    expect(engine.shouldDeferPreflightToRealUsage(engine.contextLength)).toBe(false);
    expect(engine.shouldCompress(engine.contextLength)).toBe(true);
  });

  it("does not defer on a new model: a switch ends the wait for the old model's usage", async () => {
    const engine = await justCompacted();
    engine.updateModel({ model: "smaller-model", contextLength: 64_000 });
    expect(engine.shouldDeferPreflightToRealUsage(engine.thresholdTokens)).toBe(false);
    expect(engine.shouldCompress(engine.thresholdTokens)).toBe(true);
  });
});
