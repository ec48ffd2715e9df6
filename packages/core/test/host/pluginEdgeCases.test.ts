import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { loadConfig } from "../../src/config/load.js";

/** A temp project root with files written from a map of relative paths. */
const project = (files: Record<string, string>): string => tempProject(files, "ce-host-edge-");

/** TypeScript source of an engine class extending the real ContextEngine. */
function engineSource(name: string): string {
  return `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export class Engine extends ContextEngine {
  readonly name: string = ${JSON.stringify(name)};
  shouldCompress(t: number = this.lastPromptTokens): boolean { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
`;
}

describe("engine resolution edge cases", () => {
  it("reports each unknown key once when a loaded config is handed to the host", async () => {
    const root = project({ "config.yaml": "terminal:\n  backend: local\ncompression:\n  summary_model: x\n" });
    const loaded = await loadConfig(join(root, "config.yaml"));
    const host = await createContextHost({ config: loaded, rootDir: root });
    expect(host.warnings).toEqual([
      `${join(root, "config.yaml")}:1: unknown key terminal (no loaded plugin owns it; ignored)`,
      `${join(root, "config.yaml")}:4: unknown key compression.summary_model (ignored)`,
    ]);
  });

  it("sizes a directory engine class with the configured compression threshold and model_thresholds", async () => {
    const root = project({ "plugins/context_engine/tiny/index.ts": engineSource("tiny") + "export default Engine;\n" });
    const config = { context: { engine: "tiny" }, model: { default: "gpt-4o", context_length: 200_000 }, compression: { threshold: 0.4, model_thresholds: { "glm-5.2": 0.8 } } } as never;
    const host = await createContextHost({ config, rootDir: root });
    expect([host.engineSource, host.engine.thresholdPercent, host.engine.thresholdTokens]).toEqual(["directory", 0.4, 80_000]);
    host.engine.updateModel({ model: "glm-5.2", contextLength: 200_000 });
    expect(host.engine.thresholdTokens).toBe(160_000);
  });

  it("falls back with a warning when a plugin engine lacks part of the contract, and the host still starts", async () => {
    const halfEngine = "export default () => ({ name: 'half', shouldCompress: () => false, compress: async (m: unknown[]) => m, updateFromResponse() {} });\n";
    const root = project({ "plugins/context_engine/half/index.ts": halfEngine });
    const host = await createContextHost({ config: { context: { engine: "half" } } as never, rootDir: root });
    expect(host.engineSource).toBe("builtin");
    expect(host.warnings).toHaveLength(1);
    expect(host.warnings[0]).toMatch(/lacks updateModel, getToolSchemas, handleToolCall, getStatus, onSessionStart, onSessionEnd, onSessionReset.* — falling back to built-in compressor$/);
  });

  it("falls back with a warning when a plugin engine throws while being sized for the model", async () => {
    const picky = "override updateModel(m: any): void { if (m.model === 'odd-model') throw new Error('no such model here'); super.updateModel(m); }\n  async compress";
    const root = project({ "plugins/context_engine/picky/index.ts": engineSource("picky").replace("async compress", picky) + "export default Engine;\n" });
    const host = await createContextHost({ config: { context: { engine: "picky" }, model: "odd-model" } as never, rootDir: root });
    expect([host.engine.name, host.engineSource, host.engineOrigin]).toEqual(["compressor", "builtin", "built-in"]);
    expect(host.warnings).toEqual(["Context engine 'picky' failed to size itself for odd-model: no such model here — falling back to built-in compressor"]);
  });

  it("refuses a plugins: module whose default export is one shared engine instance", async () => {
    const root = project({ "shared.ts": engineSource("shared") + "export default new Engine();\n", "config.yaml": "context:\n  engine: shared\nplugins: [./shared.ts]\n" });
    const [a, b] = await Promise.all([createContextHost({ config: join(root, "config.yaml"), rootDir: root }), createContextHost({ config: join(root, "config.yaml"), rootDir: root })]);
    expect(a.engine).not.toBe(b.engine);
    expect(a.engineSource).toBe("builtin");
    expect(a.warnings[0]).toBe("Plugin ./shared.ts failed to load: export a class or factory (not an instance) so each host gets its own engine");
  });

  it("accepts a plugins: module whose default export is an engine class", async () => {
    const root = project({ "cls.ts": engineSource("cls") + "Object.assign(Engine, { engineName: 'cls' });\nexport default Engine;\n", "config.yaml": "context:\n  engine: cls\nplugins: [./cls.ts]\n" });
    const host = await createContextHost({ config: join(root, "config.yaml"), rootDir: root });
    expect([host.engine.name, host.engineSource]).toEqual(["cls", "plugin"]);
  });

  it("resolves a plugins: package name from the node_modules next to the config file, not the root", async () => {
    const pkg = "class E { name = 'pkgeng'; thresholdTokens = 0; contextLength = 0; shouldCompress() { return false; } async compress(m) { return m; } updateFromResponse() {} updateModel(m) { this.contextLength = m.contextLength; } getToolSchemas() { return []; } async handleToolCall() { return '{}'; } getStatus() { return {}; } onSessionStart() {} onSessionEnd() {} onSessionReset() {} }\nexport function register(ctx) { ctx.registerContextEngine(() => new E(), 'pkgeng'); }\n";
    const root = project({
      "cfg/node_modules/my-engine-pkg/package.json": JSON.stringify({ name: "my-engine-pkg", type: "module", exports: { ".": { import: "./index.js" } } }),
      "cfg/node_modules/my-engine-pkg/index.js": pkg,
      "cfg/config.yaml": "context:\n  engine: pkgeng\nplugins:\n  - my-engine-pkg\n",
    });
    const host = await createContextHost({ config: join(root, "cfg/config.yaml"), rootDir: join(root, "elsewhere") });
    expect([host.engine.name, host.engineSource, host.engineOrigin, host.warnings]).toEqual(["pkgeng", "plugin", "my-engine-pkg", []]);
  });

  it("resolves a relative plugins: path against the config file's folder, not the root", async () => {
    const root = project({ "cfg/p/remote.ts": engineSource("remote") + "export function register(ctx: any) { ctx.registerContextEngine(Engine, 'remote'); }\n", "cfg/config.yaml": "context:\n  engine: remote\nplugins: [./p/remote.ts]\n" });
    const host = await createContextHost({ config: join(root, "cfg/config.yaml"), rootDir: root });
    expect([host.engine.name, host.engineSource]).toEqual(["remote", "plugin"]);
  });

  it("treats an empty or blank context.engine as the built-in compressor", async () => {
    for (const engine of ["", "   "]) {
      const host = await createContextHost({ config: { context: { engine } } as never, rootDir: project({}) });
      expect([host.engine.name, host.engineSource, host.warnings]).toEqual(["compressor", "builtin", []]);
    }
  });
});

describe("a directory engine and a plugin engine with the same name", () => {
  it("uses the directory engine and says the plugin's is ignored", async () => {
    const source = (tag: string) => `import { ContextEngine } from "@context-engine/core";
export default class E extends ContextEngine { readonly name = "twin"; readonly tag = ${JSON.stringify(tag)};
  shouldCompress(t = this.lastPromptTokens) { return t >= this.thresholdTokens; }
  async compress(m: any[]) { return m; } }
export function register(ctx: any) { ctx.registerContextEngine(E, "twin"); }\n`;
    const root = tempProject({ "plugins/context_engine/twin/index.ts": source("directory").replace(/export function register[^\n]*\n/, ""), "p.ts": source("plugin") }, "ce-twin-");
    const host = await createContextHost({ config: { context: { engine: "twin" }, plugins: [join(root, "p.ts")] } as never, rootDir: root });
    expect((host.engine as unknown as { tag: string }).tag).toBe("directory");
    expect(host.warnings).toEqual([`Context engine 'twin' from ${join(root, "plugins/context_engine/twin")} is used; the one offered by ${join(root, "p.ts")} is ignored (directory engines come first)`]);
  });
});
