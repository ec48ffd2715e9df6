/**
 * A plugin author's first steps, run as a user runs them (the CLI in a scratch project outside the
 * repository): the settings a plugin declares, errors with their place, and `new engine`.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFiles } from "./support/files.js";
import { repoRoot, runCli as cli, tempDir, userEnv } from "./support/cli.js";

/** A directory engine `head_tail` declaring `keep_last` (the scaffold's engine, written by hand). */
const HEAD_TAIL = `import { ContextEngine, z, type ChatMessage } from "@context-engine/core";
export const settings = z.object({ keep_last: z.number().int().min(1).default(20) });
export default class HeadTail extends ContextEngine {
  readonly name = "head_tail";
  shouldCompress(t: number = this.lastPromptTokens): boolean { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { return messages; }
}
`;

/** A scratch project holding `files` (config.yaml among them). */
function project(files: Record<string, string>): string {
  const dir = tempDir("ce-plugin-author-");
  writeFiles(dir, files);
  return dir;
}

/** How often `needle` occurs in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("a plugin's settings, from the command line", () => {
  it("takes a third-party plugin's section with no warning", async () => {
    const dir = project({ "plugins/context_engine/head_tail/index.ts": HEAD_TAIL, "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  keep_last: 10\n" });
    const run = await cli(["engines"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^active:\s+head_tail — directory/m);
    expect(run.stdout).not.toContain("warnings:");
  });

  it("refuses a bad value at its line and key path, checked by the plugin's schema", async () => {
    const dir = project({ "plugins/context_engine/head_tail/index.ts": HEAD_TAIL, "config.yaml": "context:\n  engine: head_tail\n\nhead_tail:\n  keep_last: 0\n" });
    const run = await cli(["engines"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(dir, "config.yaml")}:5 head_tail.keep_last: Too small: expected number to be >=1`);
  });

  it("validates config set and get against the plugin's schema, whatever engine is active, and shows its defaults", async () => {
    const dir = project({ "plugins/context_engine/head_tail/index.ts": HEAD_TAIL, "config.yaml": "compression:\n  threshold: 0.6\n" });
    const shown = await cli(["config", "show"], dir);
    expect(shown.stdout).toMatch(/^head_tail:\n {2}keep_last: 20$/m);
    const set = await cli(["config", "set", "head_tail.keep_last", "5"], dir);
    expect([set.code, set.stdout.trim()]).toEqual([0, `${join(dir, "config.yaml")}: head_tail.keep_last = 5`]);
    expect((await cli(["config", "get", "head_tail.keep_last"], dir)).stdout.trim()).toBe("5");
    const bad = await cli(["config", "set", "head_tail.keep_last", "0"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(dir, "config.yaml")}:4 head_tail.keep_last: Too small`);
    const typo = await cli(["config", "set", "head_tail.kep_last", "3"], dir);
    expect([typo.code, typo.stderr.trim()]).toEqual([2, "context-engine config: head_tail.kep_last is not a configuration key — did you mean head_tail.keep_last? (see `context-engine config --help`)"]);
    expect(readFileSync(join(dir, "config.yaml"), "utf8")).toBe("compression:\n  threshold: 0.6\nhead_tail:\n  keep_last: 5\n");
  });

  it("warns about a section no loaded plugin owns, naming it, and refuses to set its keys", async () => {
    const dir = project({ "config.yaml": "compression:\n  threshold: 0.6\nhead_tail:\n  keep_last: 10\n" });
    const run = await cli(["engines"], dir);
    expect(run.stdout).toContain(`${join(dir, "config.yaml")}:3: unknown key head_tail (no loaded plugin owns it; ignored)`);
    const set = await cli(["config", "set", "head_tail.keep_last", "5"], dir);
    expect([set.code, set.stderr]).toEqual([2, "context-engine config: head_tail.keep_last is not a configuration key (no plugin declares a head_tail section) (see `context-engine config --help`)\n"]);
  });
});

describe("a plugin that does not load, from the command line", () => {
  const BROKEN = HEAD_TAIL.replace("z.number().int().min(1)", "z.number().int(.min(1)");
  /** Where babel stops: the `.` after `int(`, 1-based. */
  const column = BROKEN.split("\n")[1]!.indexOf("(.min") + 2;

  it("is reported once, at its file, line and column, with the source line", async () => {
    const dir = project({ "plugins/context_engine/head_tail/index.ts": BROKEN, "config.yaml": "context:\n  engine: head_tail\nhead_tail:\n  keep_last: 10\n" });
    const file = join(dir, "plugins/context_engine/head_tail/index.ts");
    const run = await cli(["engines"], dir);
    expect(run.stdout).toContain(
      `  - ${file}:2:${column}: Unexpected token (context engine 'head_tail' in ${join(dir, "plugins/context_engine/head_tail")} failed to load — falling back to built-in compressor)\n` +
        `2 | export const settings = z.object({ keep_last: z.number().int(.min(1).default(20) });\n` +
        `  | ${" ".repeat(column - 1)}^\n`,
    );
    expect(count(run.stdout, "Unexpected token")).toBe(1);
    // its section is not reported as unknown: the plugin's failure says why it is not read
    expect(run.stdout).not.toContain("unknown key head_tail");
  });

  it("makes conformance exit 1 with the one error, no checks and no fallback", async () => {
    const dir = project({ "plugins/context_engine/head_tail/index.ts": BROKEN, "config.yaml": "compression:\n  threshold: 0.6\nmemory: {}\n" });
    for (const target of ["head_tail", "plugins/context_engine/head_tail"]) {
      const run = await cli(["conformance", target], dir);
      expect(run.code, target).toBe(1);
      expect(run.stdout, target).toBe("");
      expect(run.stderr, target).toMatch(new RegExp(`^context-engine conformance: ${join(dir, "plugins/context_engine/head_tail/index.ts")}:2:${column}: Unexpected token \\(context engine 'head_tail' in .* failed to load\\)\\n2 \\| `));
      expect(count(run.stderr, "Unexpected token"), target).toBe(1);
      expect(run.stderr, target).not.toMatch(/falling back|unknown key|\(unknown\)/);
    }
  });

  it("makes conformance of a plugin file that throws while loading exit 1 with its one located error", async () => {
    const dir = project({ "broken-plugin.ts": "const ready = true;\nif (ready) throw new Error('no engine today');\nexport function register() {}\n" });
    const run = await cli(["conformance", "./broken-plugin.ts"], dir);
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toBe(`context-engine conformance: ${join(dir, "broken-plugin.ts")}:2: no engine today (plugin ${join(dir, "broken-plugin.ts")} failed to load)\n2 | if (ready) throw new Error('no engine today');\n`);
  });
});

describe("context-engine new engine", () => {
  it("writes a scaffold beside the config that passes conformance, takes config set at once, and passes its own test under node --test", async () => {
    const dir = project({ "proj/config.yaml": "context:\n  engine: head_tail\n" });
    const made = await cli(["new", "engine", "head_tail", "--config", "proj/config.yaml"], dir);
    expect(made.code).toBe(0);
    const engineDir = join(dir, "proj/plugins/context_engine/head_tail");
    expect(made.stdout).toContain(`wrote ${engineDir}/`);
    for (const file of ["index.ts", "conformance.test.mjs", "README.md"]) expect(existsSync(join(engineDir, file)), file).toBe(true);
    const conformance = await cli(["conformance", "head_tail", "--config", "proj/config.yaml"], dir);
    expect([conformance.code, conformance.stdout]).toEqual([0, expect.stringContaining("18 passed, 0 failed")]);
    const set = await cli(["config", "set", "head_tail.keep_last", "5", "--config", "proj/config.yaml"], dir);
    expect(set.code).toBe(0);
    const engines = await cli(["engines", "--config", "proj/config.yaml"], dir);
    expect(engines.stdout).toMatch(/^active:\s+head_tail — directory/m);
    expect(engines.stdout).not.toContain("warnings:");
    // the user's project has @context-engine/core installed; node's own runner needs nothing else
    mkdirSync(join(dir, "proj/node_modules/@context-engine"), { recursive: true });
    symlinkSync(join(repoRoot, "packages/core"), join(dir, "proj/node_modules/@context-engine/core"));
    const test = await new Promise<{ code: number; out: string }>((done) =>
      execFile(process.execPath, ["--test", "plugins/context_engine/head_tail/"], { cwd: join(dir, "proj"), env: userEnv(), timeout: 120_000 }, (error, stdout, stderr) => done({ code: error ? 1 : 0, out: stdout + stderr })),
    );
    expect(test.out).toMatch(/# pass 2\n# fail 0/);
    expect(test.code).toBe(0);
  });

  it("writes beside ./config.yaml, else into the working directory, and never over an existing folder", async () => {
    const dir = project({});
    expect((await cli(["new", "engine", "keep_few"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "plugins/context_engine/keep_few/index.ts"))).toBe(true);
    writeFileSync(join(dir, "plugins/context_engine/keep_few/index.ts"), "// mine\n");
    const again = await cli(["new", "engine", "keep_few"], dir);
    expect([again.code, again.stderr.trim()]).toEqual([1, `context-engine new: ${join(dir, "plugins/context_engine/keep_few")} already exists; nothing was written (choose another name, or remove the folder)`]);
    expect(readFileSync(join(dir, "plugins/context_engine/keep_few/index.ts"), "utf8")).toBe("// mine\n");
  });

  it("refuses a name that breaks the engine-name rule, saying the rule", async () => {
    const dir = project({});
    const runs = await Promise.all([cli(["new", "engine", "Head Tail"], dir), cli(["new", "engine", "compressor"], dir), cli(["new", "engine", "compression"], dir), cli(["new", "plugin", "x"], dir)]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain("engine name 'Head Tail' must match ^[a-z0-9][a-z0-9_-]{0,63}$: lowercase letters, digits, '_' and '-', starting with a letter or digit");
    expect(runs[1]!.stderr).toContain("'compressor' always means the built-in compressor");
    expect(runs[2]!.stderr).toContain("'compression' is a section of the host's config");
    expect(runs[3]!.stderr).toContain("expects `engine <name>`");
    expect(existsSync(join(dir, "plugins"))).toBe(false);
  });

  it("is listed by --help", async () => {
    const run = await cli(["--help"]);
    expect(run.stdout).toMatch(/^ {2}new {2,}write a new directory engine beside the config/m);
  });
});
