import { describe, expect, it } from "vitest";
import {
  baseModelName,
  CodexModelError,
  codexModelFamily,
  resolveCodexModel,
  routeContextWindow,
} from "../../src/codex/models.js";
import { knownContextLength, modelInfoFromConfig } from "../../src/host/modelInfo.js";
import { HostConfigSchema } from "../../src/config/schema.js";

describe("resolveCodexModel", () => {
  it.each([
    ["gpt-5.6-sol-900k", "gpt-5.6-sol"],
    ["gpt-5.6-terra-900k", "gpt-5.6-terra"],
    ["gpt-5.6-luna-900k", "gpt-5.6-luna"],
    ["gpt-5.4-900k", "gpt-5.4"],
  ])("strips the -900k suffix of %s before the id is sent and gives about 911k input tokens", (alias, wire) => {
    expect(resolveCodexModel(alias)).toEqual({ wireModel: wire, contextLength: 911_000, isLargeVariant: true });
  });

  it.each(["gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna"])(
    "keeps the advertised 272,000 tokens for the base name %s",
    (name) => {
      expect(resolveCodexModel(name)).toEqual({ wireModel: name, contextLength: 272_000, isLargeVariant: false });
    },
  );

  it("leaves an unknown model's name alone with an unknown window", () => {
    expect(resolveCodexModel("o4-mini")).toEqual({ wireModel: "o4-mini", contextLength: undefined, isLargeVariant: false });
  });

  it.each(["gpt-5.5-900k", "gpt-5.4-mini-900k"])("refuses %s: that model is capped at 272k and has no -900k variant", (name) => {
    expect(() => resolveCodexModel(name, "model.default")).toThrow(CodexModelError);
    expect(() => resolveCodexModel(name, "model.default")).toThrow(/model\.default: .*capped at 272,000 tokens.*gpt-5\.6-sol-900k/);
  });

  it("refuses a -900k suffix on a name that is not a Codex family", () => {
    expect(() => resolveCodexModel("claude-opus-4-6-900k")).toThrow(/no -900k variant of "claude-opus-4-6"/);
  });

  it("accepts the alias in any letter case and keeps the base id's spelling", () => {
    expect(resolveCodexModel(" GPT-5.6-Sol-900K ")).toEqual({ wireModel: "GPT-5.6-Sol", contextLength: 911_000, isLargeVariant: true });
  });
});

describe("codexModelFamily and baseModelName", () => {
  it("picks the longest family so gpt-5.4-mini is not read as gpt-5.4", () => {
    expect(codexModelFamily("gpt-5.4-mini")).toBe("gpt-5.4-mini");
    expect(codexModelFamily("gpt-5.4-2026-03-05")).toBe("gpt-5.4");
    expect(codexModelFamily("gpt-5.45")).toBeUndefined();
    expect(codexModelFamily("gpt-5.2")).toBeUndefined();
  });

  it("gives pricing and usage the base model of an alias", () => {
    expect(baseModelName("gpt-5.6-terra-900k")).toBe("gpt-5.6-terra");
    expect(baseModelName("gpt-5.5")).toBe("gpt-5.5");
  });
});

describe("routeContextWindow", () => {
  it.each([
    ["gpt-5.5", "openai-codex", 272_000],
    ["gpt-5.5", "openai", 1_050_000],
    ["gpt-5.5", undefined, 1_050_000],
    ["openai/gpt-5.5", "openrouter", 1_050_000],
    ["gpt-5.5", "copilot", 400_000],
    ["gpt-5.6-luna", "openai-codex", 272_000],
    ["gpt-5.6-luna-900k", "openai-codex", 911_000],
    ["gpt-5.4-900k", "openai-codex", 911_000],
    ["gpt-5.2", "openai-codex", undefined],
    ["claude-sonnet-4-5", "anthropic", undefined],
  ] as const)("gives %s on %s a window of %s", (model, provider, window) => {
    expect(routeContextWindow(model, provider)).toBe(window);
  });
});

describe("host model info", () => {
  it("sizes gpt-5.5 on the Codex route at 272,000 tokens and a -900k alias at 911,000", () => {
    const codex = HostConfigSchema.parse({ model: { default: "gpt-5.5", provider: "openai-codex" } });
    expect(modelInfoFromConfig(codex)).toMatchObject({ model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex" });
    const large = HostConfigSchema.parse({ model: { default: "gpt-5.6-sol-900k", provider: "openai-codex" } });
    expect(modelInfoFromConfig(large)).toMatchObject({ model: "gpt-5.6-sol-900k", contextLength: 911_000 });
  });

  it("keeps the 1,050,000-token window of gpt-5.5 when no provider is named", () => {
    expect(knownContextLength("gpt-5.5")).toBe(1_050_000);
    expect(modelInfoFromConfig(HostConfigSchema.parse({ model: "gpt-5.5" })).contextLength).toBe(1_050_000);
  });

  it("lets an explicit context_length win over the route facts", () => {
    const config = HostConfigSchema.parse({ model: { default: "gpt-5.5", provider: "openai-codex", context_length: 400_000 } });
    expect(modelInfoFromConfig(config).contextLength).toBe(400_000);
  });

  it("fails clearly when the config asks for gpt-5.5-900k", () => {
    const config = HostConfigSchema.parse({ model: { default: "gpt-5.5-900k", provider: "openai-codex" } });
    expect(() => modelInfoFromConfig(config)).toThrow(/gpt-5\.5-900k.*no -900k variant/);
  });
});
