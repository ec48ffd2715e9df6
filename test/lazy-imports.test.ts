/**
 * A fresh process loads what its call path needs: the package root, a host built from a config object and
 * a compaction leave the provider SDKs, the YAML parser, jiti, the importers, eval and replay unloaded; the
 * command's `engines` without a config file leaves them unloaded too. zod, tapable and gpt-tokenizer's
 * split pattern are inside the core's bundles (scripts/bundledDependencies.ts): no file of theirs loads.
 */
import { describe, expect, it } from "vitest";
import { cliBin, repoRoot, tempDir } from "./support/cli.js";
import { loadedModules, loadedSources } from "./support/loadedModules.js";

/** Modules that no plain compaction needs, by the part of their path that names them. */
const NOT_ON_THE_PATH = ["/node_modules/openai/", "/node_modules/yaml/", "/node_modules/@anthropic-ai/sdk/", "/node_modules/jiti/", "/node_modules/saxes/", "/node_modules/zod/", "/node_modules/tapable/", "/node_modules/gpt-tokenizer/", "/src/importers/index.ts", "/src/eval/", "/src/replay/", "/src/lab/"];

function offPath(urls: string[]): string[] {
  return urls.filter((url) => NOT_ON_THE_PATH.some((part) => url.includes(part)));
}

const COMPACT = `const core = await import("@context-engine/core");
const summarizer = { name: "stub", summarize: async () => core.SUMMARY_SECTIONS.map((h) => h + "\\n- x").join("\\n") };
const host = await core.createContextHost({ config: {}, rootDir: process.cwd(), summarizer, model: { model: "m", contextLength: 4000 } });
const messages = [{ role: "system", content: "s" }];
for (let i = 0; i < 40; i++) messages.push({ role: "user", content: "ask " + i + " ".repeat(200) }, { role: "assistant", content: "answer " + i });
const out = await host.engine.compress(messages, { force: true });
if (out.length >= messages.length) throw new Error("nothing compressed");
if (!(new core.TiktokenCounter().countMessage({ role: "user", content: "an exact count loads the split pattern" }) > 0)) throw new Error("no count");
// CommonJS modules loaded with require() pass no ESM load hook: they are checked in require's cache
const { createRequire } = await import("node:module");
const required = Object.keys(createRequire(process.cwd() + "/").cache).filter((path) => /[\\/]node_modules[\\/](yaml|openai|jiti|saxes|zod|tapable|gpt-tokenizer|@anthropic-ai[\\/]sdk)[\\/]/.test(path));
if (required.length > 0) throw new Error("required: " + required.join(", "));
`;

describe("what a fresh process loads", () => {
  it("importing the package, building a host from a config object and compressing loads no provider SDK, YAML parser, jiti, importer, eval or replay module, and no file of zod, tapable or gpt-tokenizer", async () => {
    const urls = loadedSources(await loadedModules(["--input-type=module", "-e", COMPACT], repoRoot));
    expect(urls.some((url) => url.includes("/packages/core/src/compressor/"))).toBe(true);
    expect(offPath(urls)).toEqual([]);
  });

  it("context-engine engines without a config file loads no provider SDK, YAML parser, jiti, importer, eval or replay module", async () => {
    const urls = loadedSources(await loadedModules([cliBin, "engines"], tempDir()));
    expect(urls.some((url) => url.includes("/packages/cli/src/commands/engines.ts"))).toBe(true);
    expect(offPath(urls)).toEqual([]);
  });
});
