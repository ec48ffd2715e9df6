import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import type { ChatMessage } from "../../src/messages/schema.js";

class EchoEngine extends ContextEngine {
  readonly name = "echo";
  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages;
  }
}

describe("ContextEngine defaults", () => {
  it("offers no tools and answers an unknown tool with a JSON error", async () => {
    const engine = new EchoEngine();
    expect(engine.getToolSchemas()).toEqual([]);
    expect(JSON.parse(await engine.handleToolCall("lcm_grep", {}))).toEqual({ error: "Unknown context engine tool: lcm_grep" });
  });

  it("clamps the awaiting-real-usage sentinel to 0 in getStatus", () => {
    const engine = new EchoEngine({ model: { model: "m", contextLength: 200_000 } });
    engine.lastPromptTokens = -1;
    expect(engine.getStatus()).toEqual({ lastPromptTokens: 0, thresholdTokens: 100_000, contextLength: 200_000, usagePercent: 0, compressionCount: 0 });
  });

  it("computes usagePercent and caps it at 100", () => {
    const engine = new EchoEngine({ model: { model: "m", contextLength: 200_000 } });
    engine.updateFromResponse({ prompt_tokens: 50_000, completion_tokens: 10 });
    expect(engine.getStatus().usagePercent).toBe(25);
    engine.updateFromResponse({ prompt_tokens: 250_000 });
    expect(engine.getStatus().usagePercent).toBe(100);
  });

  it("zeroes the usage counters when the model changes (the old model's prompt tokens say nothing about the new one)", () => {
    const engine = new EchoEngine({ model: { model: "a", contextLength: 200_000 } });
    engine.updateFromResponse({ prompt_tokens: 120_000, completion_tokens: 10 });
    engine.updateModel({ model: "b", contextLength: 200_000 });
    expect([engine.lastPromptTokens, engine.lastCompletionTokens, engine.lastTotalTokens]).toEqual([0, 0, 0]);
  });

  it("records the last usage from Anthropic and OpenAI reports", () => {
    const engine = new EchoEngine();
    engine.updateFromResponse({ input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 7 });
    expect([engine.lastPromptTokens, engine.lastCompletionTokens, engine.lastTotalTokens]).toEqual([125, 7, 132]);
  });

  it("zeroes counters and the compaction count on session reset", () => {
    const engine = new EchoEngine();
    engine.updateFromResponse({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    engine.compressionCount = 3;
    engine.onSessionReset();
    expect([engine.lastPromptTokens, engine.lastCompletionTokens, engine.lastTotalTokens, engine.compressionCount]).toEqual([0, 0, 0, 0]);
  });

  it("re-resolves model_thresholds on every model switch", () => {
    const engine = new EchoEngine({ thresholds: { modelThresholds: { "claude-sonnet": 0.8 } }, model: { model: "claude-sonnet-4", contextLength: 200_000 } });
    expect(engine.thresholdTokens).toBe(160_000);
    engine.updateModel({ model: "gpt-4o", contextLength: 200_000 });
    expect([engine.thresholdPercent, engine.thresholdTokens]).toEqual([0.5, 100_000]);
  });

  it("takes its threshold policy from the config a host passes to its constructor", () => {
    const config = { compression: { threshold: 0.4, model_thresholds: { "claude-sonnet": 0.8 }, threshold_tokens: null, target_ratio: 0.2 } };
    const engine = new EchoEngine({ config, model: { model: "gpt-4o", contextLength: 200_000 } });
    expect([engine.thresholdPercent, engine.thresholdTokens]).toEqual([0.4, 80_000]);
    engine.updateModel({ model: "claude-sonnet-4", contextLength: 200_000 });
    expect(engine.thresholdTokens).toBe(160_000);
    const explicit = new EchoEngine({ config, thresholds: { threshold: 0.6 }, model: { model: "m", contextLength: 200_000 } });
    expect(explicit.thresholdTokens).toBe(120_000);
  });

  it("fires shouldCompress exactly at the threshold", () => {
    const engine = new EchoEngine({ model: { model: "m", contextLength: 200_000 } });
    expect(engine.shouldCompress(99_999)).toBe(false);
    expect(engine.shouldCompress(100_000)).toBe(true);
  });
});
