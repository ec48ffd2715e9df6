import { describe, expect, it } from "vitest";
import { codexAutoraise, codexThresholdPlan, isCodexAutoraiseEligible } from "../../src/codex/autoraise.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { DEFAULT_THRESHOLD_SETTINGS } from "../../src/engine/ContextEngine.js";

const codex = (model: string, percent = 0.5, enabled = true) => codexAutoraise({ model, provider: "openai-codex", percent, enabled });

describe("codexAutoraise", () => {
  it("raises gpt-5.5 on the Codex OAuth route from 50 % to 85 %", () => {
    expect(codex("gpt-5.5")).toEqual({ percent: 0.85, raised: true, from: 0.5, to: 0.85 });
  });

  it.each(["gpt-5.4", "gpt-5.4-mini", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna"])("raises the 272k base name %s on the Codex route too", (model) => {
    expect(codex(model).raised).toBe(true);
  });

  it.each(["gpt-5.6-sol-900k", "gpt-5.4-900k"])("leaves the -900k variant %s on the global threshold", (model) => {
    expect(codex(model)).toEqual({ percent: 0.5, raised: false, from: 0.5, to: 0.5 });
  });

  it.each([
    ["openai", "gpt-5.5"],
    ["openrouter", "openai/gpt-5.5"],
    ["copilot", "gpt-5.5"],
    [undefined, "gpt-5.5"],
  ] as const)("does not touch gpt-5.5 on provider %s", (provider, model) => {
    expect(codexAutoraise({ model, provider, percent: 0.5, enabled: true }).raised).toBe(false);
  });

  it("does not touch other models on the Codex route", () => {
    expect(codex("gpt-5.2").raised).toBe(false);
    expect(codex("o4-mini").percent).toBe(0.5);
  });

  it("is raise-only: a configured 90 % stays 90 %", () => {
    expect(codex("gpt-5.5", 0.9)).toEqual({ percent: 0.9, raised: false, from: 0.9, to: 0.9 });
  });

  it("is off when codex_gpt55_autoraise is false", () => {
    expect(codex("gpt-5.5", 0.5, false)).toEqual({ percent: 0.5, raised: false, from: 0.5, to: 0.5 });
  });

  it("recognises the provider id in any case", () => {
    expect(isCodexAutoraiseEligible("gpt-5.5", "OpenAI-Codex")).toBe(true);
  });
});

describe("codexThresholdPlan", () => {
  const model = { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" };

  it("raises over a per-model override below 85 % and keeps the cap on thresholds in force", () => {
    const plan = codexThresholdPlan(model, { ...DEFAULT_THRESHOLD_SETTINGS, modelThresholds: { "gpt-5.5": 0.6 } }, {});
    expect(plan.autoraise).toEqual({ percent: 0.85, raised: true, from: 0.75, to: 0.85 });
    expect(plan.plan.thresholdTokens).toBe(231_200);
    const capped = codexThresholdPlan(model, { ...DEFAULT_THRESHOLD_SETTINGS, thresholdTokensCap: 150_000 }, {});
    expect(capped.plan.thresholdTokens).toBe(150_000);
  });

  it("returns a notice with how to turn it off, unless the notice is disabled", () => {
    const { notice } = codexThresholdPlan(model, DEFAULT_THRESHOLD_SETTINGS, undefined);
    expect(notice?.state).toBe("gpt-5.5:50:85");
    expect(notice?.text).toContain("85 %");
    expect(notice?.text).toContain("231,200 tokens");
    expect(notice?.text).toContain("context-engine config set codex.gpt55_autoraise false");
    expect(notice?.text).toContain("context-engine config set codex.gpt55_autoraise_notice false");
    const quiet = codexThresholdPlan(model, DEFAULT_THRESHOLD_SETTINGS, { codex_gpt55_autoraise_notice: false });
    expect(quiet.notice).toBeUndefined();
    expect(quiet.plan.thresholdPercent).toBe(0.85);
  });
});

describe("ContextCompressor on the Codex route", () => {
  it("fires at 231,200 tokens for gpt-5.5 with a 272k window on openai-codex and offers the notice", () => {
    const compressor = new ContextCompressor({ model: { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" } });
    expect(compressor.thresholdPercent).toBe(0.85);
    expect(compressor.thresholdTokens).toBe(231_200);
    expect(compressor.tailTokenBudget).toBe(46_240);
    expect(compressor.autoraiseNotice).toContain("codex.gpt55_autoraise false");
    expect(compressor.autoraiseNoticeState).toBe("gpt-5.5:50:85");
    expect(compressor.shouldCompress(231_199)).toBe(false);
    expect(compressor.shouldCompress(231_200)).toBe(true);
  });

  it("uses the global 50 % when the autoraise is turned off", () => {
    const compressor = new ContextCompressor({
      compression: { codex_gpt55_autoraise: false },
      model: { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" },
    });
    expect(compressor.thresholdTokens).toBe(136_000);
    expect(compressor.autoraiseNotice).toBeUndefined();
  });

  it("re-resolves on a model switch: a -900k variant or another route returns to the global threshold", () => {
    const compressor = new ContextCompressor({ model: { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" } });
    compressor.updateModel({ model: "gpt-5.6-sol-900k", contextLength: 911_000, provider: "openai-codex" });
    expect(compressor.thresholdPercent).toBe(0.5);
    expect(compressor.thresholdTokens).toBe(455_500);
    expect(compressor.autoraiseNotice).toBeUndefined();
    compressor.updateModel({ model: "gpt-5.5", contextLength: 1_050_000, provider: "openai" });
    expect(compressor.thresholdTokens).toBe(525_000);
  });
});
