import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tempProject } from "../../../../test/support/files.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { entrySpecifiers, importPluginModule, type PackageExports } from "../../src/host/loadModule.js";

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as PackageExports;

/** TypeScript source of a plugin that imports every entry of the package and extends its ContextEngine. */
function everyEntryPlugin(specifiers: readonly string[]): string {
  const imports = specifiers.map((specifier, i) => `import * as entry${i} from ${JSON.stringify(specifier)};`);
  const map = specifiers.map((specifier, i) => `  ${JSON.stringify(specifier)}: entry${i},`);
  return `${imports.join("\n")}
import { ContextEngine, type ChatMessage } from "@context-engine/core";
export const entries: Record<string, Record<string, unknown>> = {
${map.join("\n")}
};
export class Engine extends ContextEngine {
  readonly name: string = "every_entry";
  shouldCompress(t: number = this.lastPromptTokens): boolean { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
`;
}

describe("the modules handed to plugins", () => {
  it("are the entries package.json exports names: the root, then each subpath, package.json itself and patterns left out", () => {
    const specifiers = entrySpecifiers({ name: "@x/core", exports: { ".": "./a.js", "./store": { import: "./s.js" }, "./assets/*": "./a/*.js", "./hidden": null, "./package.json": "./package.json" } });
    expect(specifiers).toEqual(["@x/core", "@x/core/store"]);
    expect(entrySpecifiers({ name: "@x/core" })).toEqual(["@x/core"]);
    expect(entrySpecifiers(manifest)).toContain("@context-engine/core/store");
  });

  it("give a TypeScript plugin that imports every entry the host's very objects", async () => {
    const specifiers = entrySpecifiers(manifest);
    expect(specifiers.length).toBeGreaterThanOrEqual(9);
    const root = tempProject({ "every.ts": everyEntryPlugin(specifiers) }, "ce-entries-");
    const plugin = (await importPluginModule("./every.ts", root)) as unknown as { entries: Record<string, Record<string, unknown>>; Engine: new () => ContextEngine };
    expect(new plugin.Engine()).toBeInstanceOf(ContextEngine);
    for (const specifier of specifiers) {
      const host = (await import(specifier)) as Record<string, unknown>;
      const names = Object.keys(host);
      expect(names.length, specifier).toBeGreaterThan(0);
      const different = names.filter((name) => plugin.entries[specifier]?.[name] !== host[name]);
      expect(different, specifier).toEqual([]);
    }
  });
});
