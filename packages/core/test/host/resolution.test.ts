import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject, yamlAliasBomb } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { ConfigError } from "../../src/config/load.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";

/** A temp project root with files written from a map of relative paths. */
const project = (files: Record<string, string>): string => tempProject(files, "ce-host-");

/** TypeScript source of an engine class extending the real ContextEngine. */
function engineSource(name: string, extra = ""): string {
  return `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export class Engine extends ContextEngine {
  readonly name: string = ${JSON.stringify(name)};
  private readonly tag: string = "typed";
  shouldCompress(t: number = this.lastPromptTokens): boolean { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages.slice(-1); }
  ${extra}
}
`;
}

describe("engine resolution", () => {
  it("uses the built-in compressor by default, with no warnings", async () => {
    const host = await createContextHost({ rootDir: project({}) });
    expect(host.engine.name).toBe("compressor");
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings).toEqual([]);
  });

  it("hands engines the summarizer wrapSummarizer made of the one it settled on", async () => {
    const seen: string[] = [];
    const host = await createContextHost({
      rootDir: project({}),
      summarizer: { name: "inner", summarize: async () => "## Goal\n- keep going" },
      wrapSummarizer: (inner) => ({ name: `metered ${inner.name}`, summarize: (request, signal) => (seen.push(`${request.messages.length} turns`), inner.summarize(request, signal)) }),
    });
    expect(host.summarizer.name).toBe("metered inner");
    const turns = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}: ${"words ".repeat(40)}` }) as const);
    await host.engine.compress([...turns], { force: true });
    expect(seen.length).toBe(1);
  });

  it("loads a TypeScript engine from plugins/context_engine/<name>/ through jiti (step 1)", async () => {
    const root = project({
      "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n",
      "plugins/context_engine/tiny/plugin.yaml": "name: tiny\nversion: 0.1.0\ndescription: keeps the last message\n",
    });
    const host = await createContextHost({ config: { context: { engine: "tiny" } } as never, rootDir: root });
    expect(host.engine.name).toBe("tiny");
    expect(host.engineSource).toBe("directory");
    expect(host.engineOrigin).toBe(join(root, "plugins/context_engine/tiny"));
    expect(await host.engine.compress([{ role: "user", content: "a" }, { role: "user", content: "b" }])).toEqual([{ role: "user", content: "b" }]);
    expect(host.warnings).toEqual([]);
  });

  it("gives TypeScript engines from a folder and from plugins: the host's own ContextEngine class, with no node_modules beside them", async () => {
    const plugin = engineSource("listed") + "export function register(ctx: any) { ctx.registerContextEngine(() => new Engine(), 'listed'); }\n";
    const root = project({
      "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n",
      "listed.ts": plugin,
      "conf.ts": 'import { runConformance } from "@context-engine/core/conformance";\nimport * as core from "@context-engine/core";\nexport const shared = { runConformance, core };\nexport function register() {}\n',
    });
    const fromFolder = await createContextHost({ config: { context: { engine: "tiny" } } as never, rootDir: root });
    const fromList = await createContextHost({ config: { context: { engine: "listed" }, plugins: ["./listed.ts"] } as never, rootDir: root });
    for (const host of [fromFolder, fromList]) {
      expect(host.warnings).toEqual([]);
      expect(host.engine).toBeInstanceOf(ContextEngine);
      expect(Object.getPrototypeOf(Object.getPrototypeOf(host.engine)).constructor).toBe(ContextEngine);
    }
    const { importPluginModule } = await import("../../src/host/loadModule.js");
    const mod = (await importPluginModule("./conf.ts", root)) as unknown as { shared: { core: { ContextEngine: unknown } } };
    expect(mod.shared.core.ContextEngine).toBe(ContextEngine);
  });

  it("accepts a directory engine that registers itself through register(ctx)", async () => {
    const root = project({
      "plugins/context_engine/viareg/index.ts": engineSource("viareg") + "export function register(ctx: any) { ctx.registerContextEngine(() => new Engine(), 'viareg'); }\n",
    });
    const host = await createContextHost({ config: { context: { engine: "viareg" } } as never, rootDir: root });
    expect([host.engine.name, host.engineSource]).toEqual(["viareg", "directory"]);
  });

  it("sizes a plugin engine for the configured model", async () => {
    const root = project({ "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n" });
    const host = await createContextHost({ config: { context: { engine: "tiny" }, model: { default: "m", context_length: 128_000 } } as never, rootDir: root });
    expect([host.engine.contextLength, host.engine.thresholdTokens]).toEqual([128_000, 64_000]);
  });

  it("falls back to the built-in compressor with a warning when the engine is nowhere", async () => {
    const host = await createContextHost({ config: { context: { engine: "missing" } } as never, rootDir: project({}) });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings).toEqual(["Context engine 'missing' not found — falling back to built-in compressor"]);
  });

  it("keeps the host running when a directory plugin throws while loading, saying once where it threw", async () => {
    const root = project({ "plugins/context_engine/boom/index.ts": "const ready = true;\nif (ready) throw new Error('kaboom at load');\n" });
    const host = await createContextHost({ config: { context: { engine: "boom" } } as never, rootDir: root });
    const dir = join(root, "plugins/context_engine/boom");
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings).toEqual([
      `${dir}/index.ts:2: kaboom at load (context engine 'boom' in ${dir} failed to load — falling back to built-in compressor)\n2 | if (ready) throw new Error('kaboom at load');`,
    ]);
    expect(host.engineFailure).toBe(`${dir}/index.ts:2: kaboom at load (context engine 'boom' in ${dir} failed to load)\n2 | if (ready) throw new Error('kaboom at load');`);
  });

  it("reports a syntax error in a directory engine with its file, line and column and the source line under a caret", async () => {
    const root = project({ "plugins/context_engine/typo/index.ts": "export const a = 1;\nexport function f(x: number {\n  return x;\n}\n" });
    const host = await createContextHost({ config: { context: { engine: "typo" } } as never, rootDir: root });
    const dir = join(root, "plugins/context_engine/typo");
    expect(host.warnings).toEqual([
      `${dir}/index.ts:2:29: Unexpected token, expected "," (context engine 'typo' in ${dir} failed to load — falling back to built-in compressor)\n2 | export function f(x: number {\n  | ${" ".repeat(28)}^`,
    ]);
  });

  it("warns when a directory plugin exports no engine", async () => {
    const root = project({ "plugins/context_engine/empty/index.ts": "export const nothing = 1;\n" });
    const host = await createContextHost({ config: { context: { engine: "empty" } } as never, rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toMatch(/exports neither register\(ctx\) nor a default engine/);
  });

  it("rejects an invalid plugin.yaml naming the file and the key", async () => {
    const root = project({
      "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n",
      "plugins/context_engine/tiny/plugin.yaml": "name: tiny\nversion: 1\n",
    });
    const host = await createContextHost({ config: { context: { engine: "tiny" } } as never, rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toContain(join(root, "plugins/context_engine/tiny/plugin.yaml"));
  });

  it("refuses a plugin.yaml alias bomb without expanding it, naming the file", async () => {
    const root = project({
      "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n",
      "plugins/context_engine/tiny/plugin.yaml": `name: tiny\n${yamlAliasBomb()}`,
    });
    const host = await createContextHost({ config: { context: { engine: "tiny" } } as never, rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toContain(`${join(root, "plugins/context_engine/tiny/plugin.yaml")}: the YAML was not expanded`);
    expect(host.warnings[0]).toMatch(/more than 100 alias expansions/);
  });

  it("refuses an engine name that could be a path, as a config error", async () => {
    await expect(createContextHost({ config: { context: { engine: "../../etc" } } as never, rootDir: project({}) })).rejects.toThrow(ConfigError);
    await expect(createContextHost({ config: { context: { engine: "Upper" } } as never })).rejects.toThrow(/context\.engine: must match/);
  });

  it("activates an engine registered by a plugins: entry only when context.engine names it (step 2)", async () => {
    const plugin = engineSource("remote") + "export function register(ctx: any) { ctx.registerContextEngine((c: any) => new Engine()); }\n";
    const root = project({ "my-plugins/remote.ts": plugin, "config.yaml": "plugins:\n  - ./my-plugins/remote.ts\n", "config-on.yaml": "context:\n  engine: remote\nplugins:\n  - ./my-plugins/remote.ts\n" });
    const off = await createContextHost({ config: join(root, "config.yaml"), rootDir: root });
    expect([off.engine.name, off.engineSource, off.registeredEngines]).toEqual(["compressor", "builtin", ["remote"]]);
    const on = await createContextHost({ config: join(root, "config-on.yaml"), rootDir: root });
    expect([on.engine.name, on.engineSource, on.engineOrigin]).toEqual(["remote", "plugin", "./my-plugins/remote.ts"]);
  });

  it("lets a plugin name its factory so the engine is built only when asked for", async () => {
    const plugin = engineSource("lazy") + "export let built = 0;\nexport function register(ctx: any) { ctx.registerContextEngine(() => { built++; return new Engine(); }, 'lazy'); }\n";
    const root = project({ "p.ts": plugin });
    const host = await createContextHost({ config: { plugins: [join(root, "p.ts")] } as never, rootDir: root });
    expect(host.registeredEngines).toEqual(["lazy"]);
    expect(host.engine.name).toBe("compressor");
  });

  it("keeps the first of two plugins offering the same name and names both in a warning", async () => {
    const a = engineSource("dup", "readonly origin = 'a';") + "export function register(ctx: any) { ctx.registerContextEngine(Engine, 'dup'); }\n";
    const b = engineSource("dup", "readonly origin = 'b';") + "export function register(ctx: any) { ctx.registerContextEngine(Engine, 'dup'); }\n";
    const root = project({ "a.ts": a, "b.ts": b, "config.yaml": "context:\n  engine: dup\nplugins: [./a.ts, ./b.ts]\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), rootDir: root });
    expect((host.engine as unknown as { origin: string }).origin).toBe("a");
    expect(host.warnings).toEqual(["Context engine 'dup' is offered by both ./a.ts and ./b.ts — using ./a.ts"]);
  });

  it("never lets a plugin take over the name 'compressor'", async () => {
    const p = engineSource("compressor") + "export function register(ctx: any) { ctx.registerContextEngine(new Engine()); }\n";
    const root = project({ "p.ts": p, "config.yaml": "context:\n  engine: compressor\nplugins: [./p.ts]\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toMatch(/'compressor' always means the built-in compressor/);
  });

  it("keeps the host running when a listed plugin throws in register()", async () => {
    const root = project({ "bad.ts": "export function register() { throw new Error('register exploded'); }\n", "config.yaml": "context:\n  engine: bad\nplugins: [./bad.ts, ./nope.ts]\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings[0]).toBe(`${join(root, "bad.ts")}:1: register exploded (plugin ./bad.ts failed to load)\n1 | export function register() { throw new Error('register exploded'); }`);
    expect(host.warnings[1]).toMatch(/^Plugin \.\/nope\.ts failed to load/);
    expect(host.warnings[2]).toBe("Context engine 'bad' not found — falling back to built-in compressor");
  });

  it("gives each host its own engine instance", async () => {
    const root = project({ "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n" });
    const config = { context: { engine: "tiny" } } as never;
    const [a, b] = await Promise.all([createContextHost({ config, rootDir: root }), createContextHost({ config, rootDir: root })]);
    expect(a.engine).not.toBe(b.engine);
    a.engine.compressionCount = 5;
    expect(b.engine.compressionCount).toBe(0);
    const [c, d] = await Promise.all([createContextHost({ rootDir: root }), createContextHost({ rootDir: root })]);
    expect(c.engine).not.toBe(d.engine);
  });
});
