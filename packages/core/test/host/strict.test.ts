import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost, hostRootDir } from "../../src/host/createContextHost.js";
import { ConfigError, loadConfig } from "../../src/config/load.js";

/** A temp project root with files written from a map of relative paths. */
const project = (files: Record<string, string>): string => tempProject(files, "ce-strict-");

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(() => expect.fail("expected a rejection"), (error: unknown) => error as Error);
}

const TINY = `import { ContextEngine } from "@context-engine/core";
export default class Tiny extends ContextEngine {
  readonly name = "tiny";
  shouldCompress(t = this.lastPromptTokens) { return t >= this.thresholdTokens; }
  async compress(messages: any[]) { return messages; }
}
`;

describe("strict mode and the config folder rule", () => {
  it("defaults strict to false and reads strict: true from the file", async () => {
    const root = project({ "off.yaml": "compression:\n  enabled: true\n", "on.yaml": "strict: true\n" });
    expect((await loadConfig(join(root, "off.yaml"))).strict).toBe(false);
    expect((await loadConfig(join(root, "on.yaml"))).strict).toBe(true);
  });

  it("throws a ConfigError naming the file and line of context.engine for an unknown engine under strict: true", async () => {
    const root = project({ "config.yaml": "strict: true\n\ncontext:\n  engine: nothere\n" });
    const error = await rejection(createContextHost({ config: join(root, "config.yaml") }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${join(root, "config.yaml")}:4 context.engine: no context engine 'nothere'`);
  });

  it("throws for an unknown engine when createContextHost is given strict: true, whatever the config says", async () => {
    const error = await rejection(createContextHost({ config: { context: { engine: "nothere" } } as never, rootDir: project({}), strict: true }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([{ path: "context.engine", message: expect.stringContaining("no context engine 'nothere'") }]);
  });

  it("lets the strict option turn off the file's strict: true, falling back with the usual warning", async () => {
    const root = project({ "config.yaml": "strict: true\ncontext:\n  engine: nothere\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), strict: false });
    expect([host.engineSource, host.warnings]).toEqual(["builtin", ["Context engine 'nothere' not found — falling back to built-in compressor"]]);
  });

  it("names the plugin and its plugins: line when a plugin fails to load under strict", async () => {
    const root = project({ "bad.ts": "export function register() { throw new Error('register exploded'); }\n", "config.yaml": "strict: true\nplugins:\n  - ./bad.ts\n" });
    const error = await rejection(createContextHost({ config: join(root, "config.yaml") }));
    expect(error.message).toContain(`${join(root, "config.yaml")}:3 plugins.0: ${join(root, "bad.ts")}:1: register exploded (plugin ./bad.ts failed to load)`);
  });

  it("turns a directory engine that fails to load into one error under strict, naming its folder", async () => {
    const root = project({ "plugins/context_engine/boom/index.ts": "throw new Error('kaboom at load');\n", "config.yaml": "context:\n  engine: boom\n" });
    const error = await rejection(createContextHost({ config: join(root, "config.yaml"), strict: true }));
    expect((error as ConfigError).issues).toEqual([{ path: "context.engine", line: 2, message: expect.stringContaining(`kaboom at load (context engine 'boom' in ${join(root, "plugins/context_engine/boom")} failed to load)`) }]);
  });

  it("starts normally under strict when the engine resolves", async () => {
    const root = project({ "plugins/context_engine/tiny/index.ts": TINY, "config.yaml": "strict: true\ncontext:\n  engine: tiny\n" });
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect([host.engine.name, host.engineSource, host.warnings]).toEqual(["tiny", "directory", []]);
  });

  it("resolves directory engines from the config file's folder when no rootDir is given", async () => {
    const root = project({ "proj/plugins/context_engine/tiny/index.ts": TINY, "proj/config.yaml": "context:\n  engine: tiny\n" });
    const host = await createContextHost({ config: join(root, "proj/config.yaml") });
    expect([host.engineSource, host.engineOrigin, host.rootDir]).toEqual(["directory", join(root, "proj/plugins/context_engine/tiny"), join(root, "proj")]);
    expect(hostRootDir({}, root)).toBe(root);
  });

  it("lets an explicit rootDir override the config file's folder", async () => {
    const root = project({ "proj/config.yaml": "context:\n  engine: tiny\n", "elsewhere/plugins/context_engine/tiny/index.ts": TINY });
    const host = await createContextHost({ config: join(root, "proj/config.yaml"), rootDir: join(root, "elsewhere") });
    expect([host.engineSource, host.rootDir]).toEqual(["directory", join(root, "elsewhere")]);
  });
});
