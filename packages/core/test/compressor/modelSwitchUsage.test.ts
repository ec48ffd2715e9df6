import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { roughCounter } from "./fixtures.js";

describe("a model switch forgets the old model's usage", () => {
  it("resets lastPromptTokens and the other counters when the model changes", () => {
    const engine = new ContextCompressor({ model: { model: "big-model", contextLength: 1_000_000 }, tokenCounter: roughCounter });
    engine.updateFromResponse({ prompt_tokens: 150_000, completion_tokens: 900, total_tokens: 150_900 });
    engine.updateModel({ model: "small-model", contextLength: 128_000 });
    expect(engine.lastPromptTokens).toBe(0);
    expect(engine.lastCompletionTokens).toBe(0);
    expect(engine.lastTotalTokens).toBe(0);
    expect(engine.getStatus().lastPromptTokens).toBe(0);
  });

  it("resets them when the same model name moves to another provider", () => {
    const engine = new ContextCompressor({ model: { model: "gpt-5.5", contextLength: 1_050_000, provider: "openai" }, tokenCounter: roughCounter });
    engine.updateFromResponse({ prompt_tokens: 300_000 });
    engine.updateModel({ model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" });
    expect(engine.lastPromptTokens).toBe(0);
  });

  it("keeps the counters when updateModel is called again with the same model", () => {
    const model = { model: "same", contextLength: 200_000 };
    const engine = new ContextCompressor({ model, tokenCounter: roughCounter });
    engine.updateFromResponse({ prompt_tokens: 42_000 });
    engine.updateModel({ ...model });
    expect(engine.lastPromptTokens).toBe(42_000);
  });
});
