/** The CLI's one config rule (`--config`, else ./config.yaml, else defaults; paths from the file's folder), strict mode and `config set` keys. */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "@context-engine/core";
import { bundledTranscript as fixture, repoRoot as root, runCli as cli, tempDir } from "./support/cli.js";
import { yamlAliasBomb } from "./support/files.js";

/** A folder `proj/` holding config.yaml (`yaml`) and a copy of the sliding_window directory engine. */
function projectWithEngine(yaml: string): { dir: string; proj: string } {
  const dir = tempDir("ce-cli-config-");
  const proj = join(dir, "proj");
  mkdirSync(join(proj, "plugins/context_engine"), { recursive: true });
  cpSync(join(root, "plugins/context_engine/sliding_window"), join(proj, "plugins/context_engine/sliding_window"), { recursive: true, filter: (src) => !src.includes("node_modules") });
  writeFileSync(join(proj, "config.yaml"), yaml);
  return { dir, proj };
}

/** The stderr lines of a run. */
function stderrLines(stderr: string): string[] {
  return stderr.trimEnd().split("\n");
}

describe("context-engine config discovery", () => {
  it("says that lcm needs plugins: [\"@context-engine/lcm\"] and that the package is not installed, for a project without it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "context:\n  engine: lcm\n");
    // NODE_PATH of the test runner reaches the workspace's packages; a user's shell has none
    const run = await cli(["engines"], dir, { NODE_PATH: "" });
    expect(run.stdout).toContain(`Context engine 'lcm' not found (the 'lcm' engine comes with @context-engine/lcm: add plugins: ["@context-engine/lcm"] to the config; @context-engine/lcm is not installed: it does not resolve from ${dir}) — falling back to built-in compressor`);
  });

  it("names the nearest known engine when context.engine is a typo", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "context:\n  engine: lcn\n");
    const run = await cli(["engines"], dir);
    expect(run.stdout).toContain("Context engine 'lcn' not found (did you mean lcm?) — falling back to built-in compressor");
  });

  it("reads ./config.yaml from the working directory when no --config is given, and says so", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "compression:\n  threshold: 0.7\n");
    const run = await cli(["engines"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^config:\\s+${join(dir, "config.yaml").replace(/[.]/g, "\\.")}$`, "m"));
    expect(run.stdout).toMatch(/threshold 140,000 \(70 %: compression\.threshold\)/);
  });

  it("says it uses the defaults when there is neither --config nor ./config.yaml", async () => {
    const run = await cli(["engines"], tempDir());
    expect(run.stdout).toMatch(/^config:\s+defaults, no config\.yaml$/m);
  });

  it("reads ./config.yaml in every command that builds a host", async () => {
    const dir = tempDir();
    const bad = join(dir, "config.yaml");
    writeFileSync(bad, "compression:\n  tail_mode: greedy\n");
    const runs = await Promise.all([
      cli(["engines"], dir),
      cli(["compress", fixture], dir),
      cli(["simulate", fixture], dir),
      cli(["conformance", "compressor"], dir),
      cli(["config", "get", "compression.threshold"], dir),
    ]);
    for (const run of runs) {
      expect([run.code, stderrLines(run.stderr)]).toEqual([1, [expect.stringContaining(`${bad}:2 compression.tail_mode: must be "lean" or "legacy"`)]]);
    }
  });

  it("resolves directory engines from the config file's folder, not the working directory", async () => {
    const { dir, proj } = projectWithEngine("context:\n  engine: sliding_window\n");
    const run = await cli(["engines", "--config", "proj/config.yaml"], dir);
    expect(run.stdout).toMatch(new RegExp(`^active:\\s+sliding_window — directory \\(${join(proj, "plugins/context_engine/sliding_window")}\\)$`, "m"));
    const conformance = await cli(["conformance", "sliding_window", "--config", "proj/config.yaml"], dir);
    expect([conformance.code, conformance.stderr]).toEqual([0, ""]);
  });

  it("lets --root override the config file's folder for directory engines", async () => {
    const { dir } = projectWithEngine("context:\n  engine: sliding_window\n");
    const run = await cli(["engines", "--config", "proj/config.yaml", "--root", "."], dir);
    expect(run.stdout).toMatch(/^active:\s+compressor — builtin/m);
    expect(run.stdout).toContain("Context engine 'sliding_window' not found — falling back to built-in compressor");
  });
});

describe("context-engine strict mode", () => {
  it("exits 1 with one stderr line naming the file and line of context.engine for an unknown engine under strict: true", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "strict: true\ncontext:\n  engine: nothere\n");
    const run = await cli(["engines"], dir);
    expect(run.code).toBe(1);
    expect(stderrLines(run.stderr)).toEqual([expect.stringContaining(`${join(dir, "config.yaml")}:3 context.engine: no context engine 'nothere'`)]);
  });

  it("refuses an unknown engine under --strict in every command that builds a host, with one stderr line and exit 1", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "context:\n  engine: nothere\n");
    const runs = await Promise.all([cli(["engines", "--strict"], dir), cli(["compress", fixture, "--strict"], dir), cli(["simulate", fixture, "--strict"], dir)]);
    for (const run of runs) {
      expect([run.code, stderrLines(run.stderr)]).toEqual([1, [expect.stringContaining(`${join(dir, "config.yaml")}:2 context.engine: no context engine 'nothere'`)]]);
    }
    const flag = await cli(["engines", "--strict", "--engine", "zzz"], dir);
    expect([flag.code, stderrLines(flag.stderr)]).toEqual([1, [expect.stringMatching(/^context-engine engines: --engine zzz: no context engine 'zzz'/)]]);
  });

  it("names the plugin and its line when a plugin fails to load under --strict", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "plugins:\n  - ./missing-plugin.ts\n");
    const runs = await Promise.all([cli(["engines", "--strict"], dir), cli(["conformance", "compressor", "--strict"], dir)]);
    for (const run of runs) {
      expect([run.code, stderrLines(run.stderr)]).toEqual([1, [expect.stringContaining(`${join(dir, "config.yaml")}:2 plugins.0: plugin ./missing-plugin.ts failed to load`)]]);
    }
    const relaxed = await cli(["engines"], dir);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain("Plugin ./missing-plugin.ts failed to load");
  });
});

describe("context-engine config set", () => {
  it("refuses a misspelled key with exit 2, naming it and the nearest known key, without writing", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "compression:\n  threshold: 0.5\n");
    const run = await cli(["config", "set", "compresion.threshold", "0.4"], dir);
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual(["context-engine config: compresion.threshold is not a configuration key — did you mean compression.threshold? (see `context-engine config --help`)"]);
    expect(readFileSync(join(dir, "config.yaml"), "utf8")).toBe("compression:\n  threshold: 0.5\n");
  });

  it("refuses a value that is a YAML alias bomb, naming the key, without writing", async () => {
    const dir = tempDir();
    const text = `plugins: [${JSON.stringify(join(root, "plugins/lcm"))}]\nlcm:\n  fresh_tail: 8\n`;
    writeFileSync(join(dir, "config.yaml"), text);
    const run = await cli(["config", "set", "lcm.fresh_tail", yamlAliasBomb()], dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/lcm\.fresh_tail: the YAML was not expanded: .*more than 100 alias expansions/);
    expect(readFileSync(join(dir, "config.yaml"), "utf8")).toBe(text);
  });

  it("writes an old compression.codex_* key under its codex: key, removing the old spelling, so the file loads without a deprecation warning", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "compression:\n  threshold: 0.5\n  codex_gpt55_autoraise: true\n");
    const run = await cli(["config", "set", "compression.codex_gpt55_autoraise", "false"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("codex.gpt55_autoraise = false (compression.codex_gpt55_autoraise is deprecated; written as codex.gpt55_autoraise)");
    const text = readFileSync(join(dir, "config.yaml"), "utf8");
    expect(text).toBe("compression:\n  threshold: 0.5\ncodex:\n  gpt55_autoraise: false\n");
    const config = parseConfigText(text, "config.yaml");
    expect([config.codex.gpt55_autoraise, config.warnings]).toEqual([false, []]);
  });

  it("sets the keys of lcm's section, which lcm declares as any plugin does, and refuses a misspelled section or key", async () => {
    const dir = tempDir();
    const plugins = `plugins:\n  - ${join(root, "plugins/lcm")}\n`;
    writeFileSync(join(dir, "config.yaml"), plugins);
    const set = await cli(["config", "set", "lcm.fresh_tail", "16"], dir);
    expect(set.code).toBe(0);
    expect(readFileSync(join(dir, "config.yaml"), "utf8")).toBe(`${plugins}lcm:\n  fresh_tail: 16\n`);
    const bad = await cli(["config", "set", "lcm.fresh_tail", "0"], dir);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining(`${join(dir, "config.yaml")}:4 lcm.fresh_tail: must be positive (messages)`)]);
    const typo = await cli(["config", "set", "lcmm.fresh_tail", "16"], dir);
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringContaining("did you mean lcm.fresh_tail?")]);
    const key = await cli(["config", "set", "lcm.fresh_tial", "16"], dir);
    expect([key.code, key.stderr]).toEqual([2, expect.stringContaining("did you mean lcm.fresh_tail?")]);
    const unlisted = await cli(["config", "set", "lcm.fresh_tail", "16"], tempDir());
    expect([unlisted.code, unlisted.stderr]).toEqual([2, 'context-engine config: lcm.fresh_tail is not a configuration key (no plugin declares a lcm section); its plugin declares it: add plugins: ["@context-engine/lcm"] to the config (see `context-engine config --help`)\n']);
  });
});
