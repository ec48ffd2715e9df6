import { describe, expect, it } from "vitest";
import { codexThresholdPlan, isCodexAutoraiseEligible } from "../../src/codex/autoraise.js";
import { codexModelFamily } from "../../src/codex/models.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { DEFAULT_THRESHOLD_SETTINGS } from "../../src/engine/ContextEngine.js";
import { roughCounter } from "../compressor/fixtures.js";

describe("Codex autoraise with a vendor-prefixed model name", () => {
  it("recognises openai/gpt-5.5 as the gpt-5.5 family", () => {
    expect(codexModelFamily("openai/gpt-5.5")).toBe("gpt-5.5");
    expect(codexModelFamily("OpenAI/GPT-5.4-mini")).toBe("gpt-5.4-mini");
    expect(isCodexAutoraiseEligible("openai/gpt-5.5", "openai-codex")).toBe(true);
  });

  it("raises openai/gpt-5.5 on Codex OAuth to 85 % like gpt-5.5, with the same notice state", () => {
    const model = { model: "openai/gpt-5.5", contextLength: 272_000, provider: "openai-codex" };
    const { plan, notice } = codexThresholdPlan(model, DEFAULT_THRESHOLD_SETTINGS, undefined);
    expect(plan.thresholdPercent).toBe(0.85);
    expect(plan.thresholdTokens).toBe(231_200);
    expect(notice?.state).toBe("gpt-5.5:50:85");
    const engine = new ContextCompressor({ model, tokenCounter: roughCounter });
    expect(engine.thresholdTokens).toBe(231_200);
  });

  it("leaves openai/gpt-5.5 elsewhere on the global threshold", () => {
    expect(isCodexAutoraiseEligible("openai/gpt-5.5", "openrouter")).toBe(false);
  });
});
