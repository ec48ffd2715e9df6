import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempHermesHome } from "../codex/tempHermesHome.js";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";

describe("routes under a host", () => {
  useTempHermesHome();

  it("installs the Codex route with the codex: section's settings", async () => {
    const host = await createContextHost({ config: { model: { default: "gpt-5.5", provider: "openai-codex" }, codex: { gpt55_autoraise: false } } as never });
    expect(host.engine.thresholdTokens).toBe(136_000);
    expect(host.notices).toEqual([]);
    expect(host.warnings).toEqual([]);
    expect(host.hooks.routes.wireModel.call("gpt-5.6-sol-900k")).toBe("gpt-5.6-sol");
  });

  it("honours an old compression.codex_* key in config.yaml and warns with its file and line", async () => {
    const root = tempProject({ "config.yaml": "model:\n  default: gpt-5.5\n  provider: openai-codex\ncompression:\n  codex_gpt55_autoraise: false\n" });
    const path = join(root, "config.yaml");
    const host = await createContextHost({ config: path });
    expect(host.engine.thresholdTokens).toBe(136_000);
    expect(host.warnings).toEqual([`${path}:5: compression.codex_gpt55_autoraise is deprecated; use codex.gpt55_autoraise`]);
  });

  it("lets a plugin add a route: its threshold plan and its notice reach the built-in compressor and host.notices", async () => {
    const root = tempProject({
      "house-route.ts": `export function register(ctx: any) {
  ctx.hooks.routes.thresholdPlan.tap("house", (planned: any, model: any) =>
    model.model === "house-model" ? { plan: { ...planned.plan, thresholdTokens: 42_000, rule: "house-autoraise" }, notice: { text: "house trigger at 42,000", state: "house" } } : planned);
  ctx.hooks.routes.notices.tap("house", (notices: string[], { planNotice }: any) => planNotice?.state === "house" ? [...notices, planNotice.text] : notices);
}
`,
    });
    const host = await createContextHost({ config: { model: { default: "house-model", context_length: 100_000 }, plugins: ["./house-route.ts"] } as never, rootDir: root });
    expect(host.warnings).toEqual([]);
    expect(host.engine.thresholdTokens).toBe(42_000);
    expect(host.engine.thresholdRule).toBe("house-autoraise");
    expect(host.notices).toEqual(["house trigger at 42,000"]);
  });
});
