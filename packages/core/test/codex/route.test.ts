import { describe, expect, it } from "vitest";
import { useTempHermesHome } from "./tempHermesHome.js";
import { installCodexRoute } from "../../src/codex/route.js";
import { codexConfigOf } from "../../src/config/codexSection.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { computeThresholds } from "../../src/engine/thresholds.js";
import { DEFAULT_THRESHOLD_SETTINGS } from "../../src/engine/ContextEngine.js";
import { createRouteHooks } from "../../src/host/hooks.js";
import { builtinRouteHooks } from "../../src/routes/builtin.js";

const CODEX_55 = { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" };

describe("the Codex route extension", () => {
  it("answers the route hooks it taps: windows, wire ids and app-server sessions", () => {
    const hooks = createRouteHooks();
    installCodexRoute(hooks, {});
    expect(hooks.contextWindow.call("gpt-5.6-sol-900k", "openai-codex", "model")).toBe(911_000);
    expect(hooks.contextWindow.call("claude-sonnet-4", "anthropic", "model")).toBeUndefined();
    expect(() => hooks.contextWindow.call("gpt-5.5-900k", "openai-codex", "model.default")).toThrow(/model\.default: "gpt-5\.5-900k"/);
    expect(hooks.wireModel.call("gpt-5.4-900k")).toBe("gpt-5.4");
    expect(hooks.sessionCompaction.call({ model: { ...CODEX_55, apiMode: "codex_app_server" }, serverThread: undefined })).toBeDefined();
    expect(hooks.sessionCompaction.call({ model: CODEX_55, serverThread: undefined })).toBeUndefined();
  });

  it("raises the threshold plan it is handed, with a notice, and leaves other routes' plans alone", () => {
    const hooks = createRouteHooks();
    installCodexRoute(hooks, {});
    const planned = (model: typeof CODEX_55) => ({ plan: computeThresholds(model, DEFAULT_THRESHOLD_SETTINGS), notice: undefined });
    const raised = hooks.thresholdPlan.call(planned(CODEX_55), CODEX_55, DEFAULT_THRESHOLD_SETTINGS);
    expect(raised.plan).toMatchObject({ thresholdTokens: 231_200, rule: "codex-autoraise" });
    expect(raised.notice?.state).toBe("gpt-5.5:50:85");
    const elsewhere = { ...CODEX_55, provider: "openrouter" };
    const untouched = planned(elsewhere);
    expect(hooks.thresholdPlan.call(untouched, elsewhere, DEFAULT_THRESHOLD_SETTINGS)).toBe(untouched);
  });

  it("reads its settings from the codex: section, which wins over the old compression.codex_* keys", () => {
    expect(codexConfigOf({ compression: { codex_app_server_auto: "off" } }).app_server_auto).toBe("off");
    expect(codexConfigOf({ codex: { app_server_auto: "hermes" }, compression: { codex_app_server_auto: "off" } }).app_server_auto).toBe("hermes");
    expect(codexConfigOf(undefined)).toMatchObject({ gpt55_autoraise: true, app_server_auto: "native" });
    expect(() => codexConfigOf({ codex: { app_server_auto: "sometimes" } })).toThrow(/app_server_auto/);
  });

  it("is what raises the built-in compressor's trigger: without it the compressor keeps the global threshold", () => {
    expect(new ContextCompressor({ model: CODEX_55, routes: createRouteHooks() }).thresholdTokens).toBe(136_000);
    expect(new ContextCompressor({ model: CODEX_55, routes: builtinRouteHooks({ codex: { gpt55_autoraise: false } }) }).thresholdTokens).toBe(136_000);
    expect(new ContextCompressor({ model: CODEX_55, routes: builtinRouteHooks() }).thresholdTokens).toBe(231_200);
  });
});

describe("the Codex route's start-up notice", () => {
  useTempHermesHome();

  it("shows its own autoraise notice once, and passes on a notice another route attached", () => {
    const hooks = createRouteHooks();
    installCodexRoute(hooks, {});
    const engine = new ContextCompressor({ model: CODEX_55 });
    const own = { text: "raised", state: "gpt-5.5:50:85" };
    expect(hooks.notices.call([], { engine, source: "builtin", planNotice: own })).toEqual(["raised"]);
    expect(hooks.notices.call([], { engine, source: "builtin", planNotice: own })).toEqual([]);
    expect(hooks.notices.call(["earlier"], { engine, source: "builtin", planNotice: { text: "other", state: "other route state" } })).toEqual(["earlier"]);
  });
});
