/** A plugin declares its own config section (docs/BEHAVIOUR.md, "Plugin settings"): the host checks it and hands it over as ctx.settings. */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { ConfigError } from "../../src/config/load.js";

const project = (files: Record<string, string>): string => tempProject(files, "ce-settings-");

/** A directory engine that declares `keep_last` with `zodImport` and reports the settings it got as its name's suffix. */
function engineWithSettings(name: string, zodImport = `import { z } from "@context-engine/core";`): string {
  return `import { ContextEngine, type ChatMessage, type EngineContext } from "@context-engine/core";
${zodImport}
export const settings = z.object({ keep_last: z.number().int().min(1).default(20) });
export default class Engine extends ContextEngine {
  readonly name = ${JSON.stringify(name)};
  readonly got: unknown;
  constructor(ctx: EngineContext<z.output<typeof settings>>) { super(ctx); this.got = ctx.settings; }
  shouldCompress(): boolean { return false; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
`;
}

const settingsOf = (engine: unknown) => (engine as { got: unknown }).got;

describe("a plugin's own config section", () => {
  it("reaches a directory engine parsed by the schema it exports, with no unknown-key warning", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail"), "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  keep_last: 10\n" });
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect([host.engine.name, host.warnings]).toEqual(["head_tail", []]);
    expect(settingsOf(host.engine)).toEqual({ keep_last: 10 });
    // ctx.config keeps the section as written
    expect((host.config as Record<string, unknown>).head_tail).toEqual({ keep_last: 10 });
  });

  it("fills in the defaults when the config has no section for the plugin", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail") });
    const host = await createContextHost({ config: { context: { engine: "head_tail" } } as never, rootDir: root });
    expect(settingsOf(host.engine)).toEqual({ keep_last: 20 });
  });

  it("refuses an invalid value as a config error at the key and its line, before the plugin's code gets it", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail"), "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  keep_last: 0\n" });
    const error = await createContextHost({ config: join(root, "config.yaml") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([{ path: "head_tail.keep_last", line: 4, message: expect.stringMatching(/>=1/) }]);
  });

  it("warns about a key the schema does not declare, naming the key it probably meant", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail"), "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  kep_last: 5\n" });
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect(host.warnings).toEqual([`${join(root, "config.yaml")}:4: unknown key head_tail.kep_last (ignored) — did you mean head_tail.keep_last?`]);
  });

  it("warns about a section no loaded plugin owns, naming it, and says when its directory engine is just not the configured one", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail"), "config.yaml": "head_tail:\n  keep_last: 5\nmemory:\n  size: 3\n" });
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect(host.warnings).toEqual([
      `${join(root, "config.yaml")}:1: unknown key head_tail (no loaded plugin owns it: plugins/context_engine/head_tail/ loads only when context.engine names it; ignored)`,
      `${join(root, "config.yaml")}:3: unknown key memory (no loaded plugin owns it; ignored)`,
    ]);
  });

  it("hands a plugins: entry its section (named after its file, or by settingsSection) in register(ctx) and in its engine's context", async () => {
    const plugin = (engine: string, section: string) => `import { ContextEngine, z, type ChatMessage, type EngineContext, type PluginContext } from "@context-engine/core";
${section}
export const settings = z.object({ level: z.enum(["low", "high"]).default("low") });
class Engine extends ContextEngine {
  readonly name = ${JSON.stringify(engine)};
  readonly got: unknown;
  constructor(ctx: EngineContext) { super(ctx); this.got = ctx.settings; }
  shouldCompress(): boolean { return false; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
export function register(ctx: PluginContext<z.output<typeof settings>>) {
  ctx.warn(${JSON.stringify(engine)} + " registers with " + JSON.stringify(ctx.settings));
  ctx.registerContextEngine((engineCtx) => new Engine(engineCtx), ${JSON.stringify(engine)});
}
`;
    const root = project({ "memory.ts": plugin("memory_engine", ""), "named.ts": plugin("recall_engine", 'export const settingsSection = "recall";'), "config.yaml": "context:\n  engine: recall_engine\nplugins: [./memory.ts, ./named.ts]\nmemory:\n  level: high\nrecall: {}\n" });
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect(host.warnings).toEqual(['memory_engine registers with {"level":"high"}', 'recall_engine registers with {"level":"low"}']);
    expect([host.engine.name, settingsOf(host.engine)]).toEqual(["recall_engine", { level: "low" }]);
    const bad = await createContextHost({ config: { plugins: [join(root, "named.ts")], recall: { level: "max" } } as never, rootDir: root }).catch((e: unknown) => e);
    expect((bad as ConfigError).issues).toEqual([{ path: "recall.level", message: expect.stringMatching(/low|high/) }]);
  });

  it("reads a schema built with another copy of zod 4 (the plugin's own `zod` install) through its own methods", async () => {
    const root = project({ "plugins/context_engine/head_tail/index.ts": engineWithSettings("head_tail", `import { z } from "zod";`), "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  keep_last: 3\n" });
    mkdirSync(join(root, "node_modules"), { recursive: true });
    symlinkSync(fileURLToPath(new URL("../../node_modules/zod", import.meta.url)), join(root, "node_modules/zod"));
    const host = await createContextHost({ config: join(root, "config.yaml") });
    expect([host.engine.name, host.warnings, settingsOf(host.engine)]).toEqual(["head_tail", [], { keep_last: 3 }]);
    writeFileSync(join(root, "config.yaml"), "context:\n  engine: head_tail\nhead_tail:\n  keep_last: none\n");
    await expect(createContextHost({ config: join(root, "config.yaml") })).rejects.toThrow(/config\.yaml:4 head_tail\.keep_last: /);
  });

  it("refuses settings that are not a zod schema, naming the file", async () => {
    const root = project({ "plugins/context_engine/odd/index.ts": engineWithSettings("odd", "const z = { object: (x: unknown) => x, number: () => ({ int: () => ({ min: () => ({ default: () => 1 }) }) }) } as any;") });
    const host = await createContextHost({ config: { context: { engine: "odd" } } as never, rootDir: root });
    expect(host.warnings[0]).toContain("index.ts: `export const settings` must be a zod 4 schema");
  });
});
