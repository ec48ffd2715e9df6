import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempHermesHome } from "../codex/tempHermesHome.js";
import { createContextHost, mainEndpoint } from "../../src/host/createContextHost.js";
import { validateConfigObject } from "../../src/config/load.js";

describe("start-up notices", () => {
  const home = useTempHermesHome();

  const codex = { model: { default: "gpt-5.5", provider: "openai-codex" } } as never;

  it("shows the Codex gpt-5.5 autoraise notice once per profile and records it", async () => {
    const first = await createContextHost({ config: codex });
    expect(first.engine.thresholdTokens).toBe(231_200);
    expect(first.notices).toHaveLength(1);
    expect(first.notices[0]).toContain("context-engine config set codex.gpt55_autoraise false");
    expect(readFileSync(join(home(), ".codex_gpt55_autoraise_notice"), "utf8").trim()).toBe("gpt-5.5:50:85");
    const second = await createContextHost({ config: codex });
    expect(second.notices).toEqual([]);
    expect(second.engine.thresholdTokens).toBe(231_200);
  });

  it("keeps the raise but hides the notice when codex_gpt55_autoraise_notice is false", async () => {
    const host = await createContextHost({ config: { ...(codex as object), compression: { codex_gpt55_autoraise_notice: false } } as never });
    expect(host.engine.thresholdTokens).toBe(231_200);
    expect(host.notices).toEqual([]);
  });

  it("shows nothing for gpt-5.5 outside the Codex route", async () => {
    const host = await createContextHost({ config: { model: { default: "gpt-5.5", provider: "openrouter" } } as never });
    expect(host.notices).toEqual([]);
    expect(host.engine.thresholdPercent).toBe(0.5);
  });
});

describe("the main model's endpoint for summaries", () => {
  it("sends a local -900k alias as its base model id", () => {
    expect(mainEndpoint(validateConfigObject({ model: { default: "gpt-5.6-sol-900k", provider: "openai-codex" } }))).toEqual({ model: "gpt-5.6-sol" });
    expect(mainEndpoint(validateConfigObject({ model: "gpt-5.4-900k" }))).toEqual({ model: "gpt-5.4" });
    expect(mainEndpoint(validateConfigObject({ model: { default: "claude-sonnet-4", base_url: "http://127.0.0.1:9/v1" } }))).toEqual({ model: "claude-sonnet-4", baseUrl: "http://127.0.0.1:9/v1" });
  });
});
