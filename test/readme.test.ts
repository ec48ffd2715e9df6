/** The README, read as a newcomer reads it: its commands, its config block and its engine snippet work. */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createContextHost, parseConfigText, validateConfigObject } from "@context-engine/core";
import { runConformance } from "@context-engine/core/conformance";
import { repoRoot, tempDir, userEnv } from "./support/cli.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The fenced code blocks of `lang` in the README section that starts with `heading`. */
function blocks(heading: string, lang: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n## ", start + 4);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

describe("README", () => {
  it("has a quick start of exactly two commands, the main job then the whole test suite, each installing first", () => {
    const [quickStart, ...others] = blocks("Quick start", "sh");
    expect(others).toEqual([]);
    const commands = quickStart!.trim().split("\n");
    expect(commands).toEqual(["npx --yes pnpm@12.4.2 install --frozen-lockfile && npx --yes pnpm@12.4.2 demo", "npx --yes pnpm@12.4.2 install --frozen-lockfile && npx --yes pnpm@12.4.2 test"]);
    const scripts = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.demo).toMatch(/^context-engine /);
    expect(scripts.test).toBe("pnpm typecheck && vitest run");
    expect(readFileSync(join(repoRoot, ".ci/run"), "utf8")).toContain(commands[1]);
  });

  it("shows a configuration block whose every key is valid and whose values are the defaults", () => {
    const [yaml] = blocks("Configuration", "yaml");
    const config = parseConfigText(yaml!, "README.md");
    expect(config.warnings).toEqual([]);
    const { model: _model, sourcePath: _s, warnings: _w, ...shown } = config;
    const { model: _none, warnings: _dw, ...defaults } = validateConfigObject({});
    expect(shown).toEqual(defaults);
  });

  it("shows an lcm config block that loads and selects the lcm engine, by path or by quoted package name", async () => {
    const [yaml] = blocks("The lossless engine: lcm", "yaml");
    for (const text of [yaml!, yaml!.replace("- ./plugins/lcm", '- "@context-engine/lcm"')]) {
      const config = { ...parseConfigText(text, "README.md"), sourcePath: join(repoRoot, "config.yaml") };
      expect(config.warnings).toEqual([]);
      const host = await createContextHost({ config, rootDir: tempDir("ce-readme-lcm-") });
      expect([host.engine.name, host.engineSource, host.warnings]).toEqual(["lcm", "plugin", []]);
    }
  });

  it("shows a first snippet that runs as written beside the config.yaml it shows, and prints what happened", () => {
    const [yaml] = blocks("Use it in your own project", "yaml");
    const [snippet] = blocks("Use it in your own project", "ts");
    expect(yaml).toMatch(/^# config\.yaml\n/);
    expect(snippet).toMatch(/^\/\/ app\.ts /);
    // a project of one's own: the README's two files, and @context-engine/core installed (the built package)
    const dir = tempDir("ce-readme-first-");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "config.yaml"), yaml!);
    writeFileSync(join(dir, "app.ts"), snippet!);
    mkdirSync(join(dir, "node_modules/@context-engine"), { recursive: true });
    symlinkSync(join(repoRoot, "packages/core"), join(dir, "node_modules/@context-engine/core"), "dir");
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const stdout = execFileSync(process.execPath, [tsx, "app.ts"], { cwd: dir, encoding: "utf8", env: userEnv({ OPENAI_API_KEY: "", OPENROUTER_API_KEY: "" }) });
    const [printed] = blocks("Use it in your own project", "text");
    expect(stdout).toBe(printed);
    expect(stdout).toMatch(/^compressor \(builtin\) compacts at 6800 of 8000 tokens\n40 messages → \d+ after 1 compaction\(s\)\n$/);
  }, 60_000); // a tsx process that loads the built core

  it("shows a host snippet that prints host.warnings, so an unknown context.engine is seen", async () => {
    const [snippet] = blocks("Using it in an agent", "ts");
    const setup = snippet!.slice(0, snippet!.indexOf("\n// an incoming user message"));
    expect(setup).toContain("const { engine } = host;");
    const dir = tempDir("ce-readme-agent-");
    writeFileSync(join(dir, "config.yaml"), "context:\n  engine: nothere\n");
    const core = join(repoRoot, "packages/core/src/index.ts");
    writeFileSync(join(dir, "agent.ts"), setup.replace('"@context-engine/core"', JSON.stringify(core)).replace('"config.yaml"', JSON.stringify(join(dir, "config.yaml"))));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await import(join(dir, "agent.ts"));
      expect(warn.mock.calls).toEqual([["Context engine 'nothere' not found — falling back to built-in compressor"]]);
    } finally {
      warn.mockRestore();
    }
  });

  it("shows an engine that resolves from plugins/context_engine/, passes the conformance suite and reads its settings", async () => {
    const [snippet] = blocks("Writing an engine", "ts");
    expect(snippet).toContain("// plugins/context_engine/my_engine/index.ts");
    const root = tempDir("ce-readme-");
    mkdirSync(join(root, "plugins/context_engine/my_engine"), { recursive: true });
    // Written verbatim: the host hands the plugin its own @context-engine/core, no node_modules needed.
    writeFileSync(join(root, "plugins/context_engine/my_engine/index.ts"), snippet!);
    const config = validateConfigObject({ context: { engine: "my_engine" } });
    const host = await createContextHost({ config, rootDir: root });
    expect([host.engine.name, host.engineSource, host.warnings]).toEqual(["my_engine", "directory", []]);
    const report = await runConformance(async () => (await createContextHost({ config, rootDir: root })).engine);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    // its settings: the my_engine: section, checked by the schema it exports
    const tuned = await createContextHost({ config: validateConfigObject({ context: { engine: "my_engine" }, my_engine: { keep_turns: 5 } }), rootDir: root });
    expect([(tuned.engine as unknown as { keepTurns: number }).keepTurns, tuned.warnings]).toEqual([5, []]);

    const [, plugin] = blocks("Writing an engine", "ts");
    expect(plugin).toContain("// my-plugin.ts");
    writeFileSync(join(root, "my-plugin.ts"), plugin!);
    const viaPlugin = { ...validateConfigObject({ context: { engine: "my_engine" }, plugins: ["./my-plugin.ts"], compression: { threshold: 0.7 } }), sourcePath: join(root, "config.yaml") };
    const host2 = await createContextHost({ config: viaPlugin, rootDir: tempDir("ce-readme-empty-") });
    expect([host2.engine.name, host2.engineSource, host2.engine.thresholdPercent, host2.warnings]).toEqual(["my_engine", "plugin", 0.7, []]);
  });

  it("shows a loop test that runs the README's engine in both frameworks' loops, offline, and passes its own assertions", async () => {
    const [engine] = blocks("Writing an engine", "ts");
    const [loop] = blocks("Checking an engine", "ts");
    expect(loop).toContain("// test/loop.test.ts");
    const root = tempDir("ce-readme-loop-");
    mkdirSync(join(root, "plugins/context_engine/my_engine"), { recursive: true });
    writeFileSync(join(root, "plugins/context_engine/my_engine/index.ts"), engine!);
    writeFileSync(join(root, "config.yaml"), "context:\n  engine: my_engine\n");
    const source = (entry: string) => JSON.stringify(join(repoRoot, entry));
    const script = loop!
      .replace('"@context-engine/ai-sdk/testing"', source("packages/ai-sdk/src/testing/index.ts"))
      .replace('"@context-engine/langchain/testing"', source("packages/langchain/src/testing/index.ts"))
      .replace('"config.yaml"', JSON.stringify(join(root, "config.yaml")));
    writeFileSync(join(root, "loop.ts"), script);
    await import(join(root, "loop.ts")); // node:assert throws when an assertion fails
  });
});
