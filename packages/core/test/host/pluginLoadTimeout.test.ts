import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { ConfigError, loadConfig } from "../../src/config/load.js";
import { createContextHost } from "../../src/host/createContextHost.js";

const project = (files: Record<string, string>): string => tempProject(files, "ce-load-timeout-");

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(() => expect.fail("expected a rejection"), (error: unknown) => error as Error);
}

const NEVER = "await new Promise(() => {});\n";
const TINY = `import { ContextEngine } from "@context-engine/core";
export class Tiny extends ContextEngine {
  readonly name = "tiny";
  shouldCompress() { return false; }
  async compress(messages: any[]) { return messages; }
}
`;

describe("plugin load timeout", () => {
  it("starts the host with a warning naming a plugins: module whose loading never finishes", async () => {
    const root = project({ "stuck.ts": `${NEVER}export function register() {}\n`, "config.yaml": "plugins:\n  - ./stuck.ts\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), pluginLoadTimeoutMs: 300 });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings).toEqual([expect.stringMatching(/^Plugin \.\/stuck\.ts did not finish loading within 0\.3 s/)]);
  });

  it("makes a register(ctx) that never returns a ConfigError at its plugins: line under strict", async () => {
    const root = project({ "hang.ts": "export function register() { return new Promise(() => {}); }\n", "config.yaml": "strict: true\nplugins:\n  - ./hang.ts\n" });
    const error = await rejection(createContextHost({ config: join(root, "config.yaml"), pluginLoadTimeoutMs: 300 }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${join(root, "config.yaml")}:3 plugins.0: plugin ./hang.ts did not finish loading within 0.3 s`);
  });

  it("falls back from a directory engine whose module never finishes loading, naming its folder", async () => {
    const root = project({ "plugins/context_engine/stuck/index.ts": `${NEVER}${TINY}export default Tiny;\n` });
    const host = await createContextHost({ config: { context: { engine: "stuck" } } as never, rootDir: root, pluginLoadTimeoutMs: 300 });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toMatch(/^Context engine 'stuck' in .*plugins\/context_engine\/stuck failed to load: did not finish loading within 0\.3 s/);
  });

  it("falls back from a plugin engine whose factory never returns", async () => {
    const root = project({
      "slow.ts": `export function register(ctx: any) { ctx.registerContextEngine(() => new Promise(() => {}), "slow"); }\n`,
      "config.yaml": "context:\n  engine: slow\nplugins:\n  - ./slow.ts\n",
    });
    // long enough for the module itself to load on a busy machine; only the factory never returns
    const host = await createContextHost({ config: join(root, "config.yaml"), pluginLoadTimeoutMs: 3_000 });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toMatch(/^Context engine 'slow' from \.\/slow\.ts failed to start: did not finish building its engine within 3 s/);
  });

  it("reads the timeout from plugin_load_timeout (seconds) in config.yaml, 10 s by default", async () => {
    const root = project({ "stuck.ts": `${NEVER}export function register() {}\n`, "config.yaml": "plugin_load_timeout: 0.3\nplugins:\n  - ./stuck.ts\n", "plain.yaml": "plugins: []\n" });
    expect((await loadConfig(join(root, "plain.yaml"))).plugin_load_timeout).toBe(10);
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect(host.warnings).toEqual([expect.stringMatching(/^Plugin \.\/stuck\.ts did not finish loading within 0\.3 s \(plugin_load_timeout\)/)]);
  });
});
