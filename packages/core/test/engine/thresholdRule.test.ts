import { describe, expect, it } from "vitest";
import { computeThresholds, type ThresholdSettings } from "../../src/engine/thresholds.js";
import { codexThresholdPlan } from "../../src/codex/autoraise.js";

const settings: ThresholdSettings = { threshold: 0.5, modelThresholds: { "glm-5.2": 0.4, "big": 0.3 }, thresholdTokensCap: null, targetRatio: 0.2 };
const plan = (model: string, contextLength: number, extra: Partial<ThresholdSettings> = {}) => computeThresholds({ model, contextLength }, { ...settings, ...extra });

describe("computeThresholds names the rule that set the trigger", () => {
  it("tells the global threshold, an override, the small-context floor, the small window, the minimum and the cap apart", () => {
    expect([plan("m", 200_000).rule, plan("m", 200_000).thresholdTokens]).toEqual(["threshold", 100_000]);
    expect(plan("big", 1_000_000).rule).toBe("model-threshold");
    expect([plan("glm-5.2", 200_000).rule, plan("glm-5.2", 200_000).thresholdTokens]).toEqual(["small-context-floor", 150_000]);
    expect([plan("m", 8_000).rule, plan("m", 8_000).thresholdTokens]).toEqual(["small-window", 6_800]);
    expect([plan("m", 100_000).rule, plan("m", 100_000).thresholdTokens]).toEqual(["minimum-trigger", 64_000]);
    expect([plan("m", 200_000, { thresholdTokensCap: 80_000 }).rule, plan("m", 200_000, { thresholdTokensCap: 80_000 }).thresholdTokens]).toEqual(["token-cap", 80_000]);
  });

  it("names the Codex gpt-5.5 autoraise when it raised the trigger", () => {
    const codex = codexThresholdPlan({ model: "gpt-5.5", provider: "openai-codex", contextLength: 272_000 }, settings, undefined);
    expect(codex.plan.rule).toBe("codex-autoraise");
  });
});
