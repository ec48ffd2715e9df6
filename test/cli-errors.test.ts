import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBin, bundledTranscript as fixture, repoRoot as root, runCli as cli, tempDir } from "./support/cli.js";

const COMMANDS = ["engines", "compress", "simulate", "import", "conformance", "config"] as const;

/** The stderr lines of a run (a trailing newline is not a line). */
function stderrLines(stderr: string): string[] {
  return stderr.trimEnd().split("\n");
}

describe("context-engine CLI errors and help", () => {
  it("prints each usage error on one stderr line that points at the command's --help, exit 2", async () => {
    const runs = await Promise.all(COMMANDS.map((command) => cli([command, "--bogus"])));
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(stderrLines(run.stderr)).toEqual([`context-engine ${COMMANDS[i]}: Unknown option '--bogus' (see \`context-engine ${COMMANDS[i]} --help\`)`]);
    });
    const missingArg = await cli(["compress"]);
    expect([missingArg.code, stderrLines(missingArg.stderr).length]).toEqual([2, 1]);
  });

  it("prints each command's usage for --help and exits 0 with nothing on stderr", async () => {
    const runs = await Promise.all(COMMANDS.map((command) => cli([command, "--help"])));
    runs.forEach((run, i) => {
      expect([run.code, run.stderr]).toEqual([0, ""]);
      expect(run.stdout).toMatch(new RegExp(`^Usage: context-engine ${COMMANDS[i]}`));
    });
  });

  it("names a missing --config file on one line with exit 1 in every command that reads one", async () => {
    const missing = join(tempDir(), "missing.yaml");
    const runs = await Promise.all([
      cli(["engines", "--config", missing]),
      cli(["compress", fixture, "--config", missing]),
      cli(["simulate", fixture, "--config", missing]),
      cli(["conformance", "compressor", "--config", missing]),
      cli(["config", "show", "--config", missing]),
      cli(["config", "get", "compression.threshold", "--config", missing]),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(stderrLines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(`config file not found: ${missing}`);
    }
  });

  it("names the key path and line of a bad config on one line with exit 1 in every command that reads one", async () => {
    const dir = tempDir();
    const bad = join(dir, "config.yaml");
    writeFileSync(bad, "compression:\n  tail_mode: greedy\n");
    const runs = await Promise.all([
      cli(["engines", "--config", bad]),
      cli(["compress", fixture, "--config", bad]),
      cli(["simulate", fixture, "--config", bad]),
      cli(["conformance", "compressor", "--config", bad]),
      cli(["config", "show"], dir),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(stderrLines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(`${bad}:2 compression.tail_mode: must be "lean" or "legacy"`);
    }
  });

  it("refuses an --engine that is not an engine name as a usage error", async () => {
    const run = await cli(["engines", "--engine", "../../etc"]);
    expect(run.code).toBe(2);
    expect(stderrLines(run.stderr)).toEqual(["context-engine engines: --engine must be an engine name matching ^[a-z0-9][a-z0-9_-]{0,63}$, got '../../etc' (see `context-engine engines --help`)"]);
  });

  it("says a conformance plugin path does not exist, and refuses a target that is neither a name nor a path", async () => {
    const missing = await cli(["conformance", "./nope.ts"]);
    expect([missing.code, stderrLines(missing.stderr)]).toEqual([1, [`context-engine conformance: plugin not found: ${join(root, "nope.ts")}`]]);
    const odd = await cli(["conformance", "Not A Name"]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain("'Not A Name' is neither an engine name");
  });

  it("names the file of a missing transcript on one line with exit 1 for compress, simulate and import", async () => {
    const runs = await Promise.all(["compress", "simulate", "import"].map((command) => cli([command, "nope.json"])));
    for (const run of runs) {
      expect([run.code, stderrLines(run.stderr)]).toEqual([1, [expect.stringContaining(`transcript not found: ${join(root, "nope.json")}`)]]);
    }
  });

  it("runs conformance for an engine a plugins: entry of --config offers, by name", async () => {
    const dir = tempDir();
    const core = join(root, "packages/core/src/index.ts");
    writeFileSync(join(dir, "keep.ts"), `import { ContextEngine, type ChatMessage } from ${JSON.stringify(core)};
class Keep extends ContextEngine {
  readonly name = "keep_all";
  shouldCompress(t = this.lastPromptTokens) { return t >= this.thresholdTokens; }
  async compress(messages: ChatMessage[]) { return messages; }
}
export function register(ctx: any) { ctx.registerContextEngine(() => new Keep(), "keep_all"); }
`);
    writeFileSync(join(dir, "config.yaml"), "plugins:\n  - ./keep.ts\n");
    const run = await cli(["conformance", "keep_all", "--config", join(dir, "config.yaml"), "--root", dir]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/conformance of 'keep_all'/);
  });

  it("stops quietly when the reader of its output goes away (| head)", async () => {
    const child = spawn(process.execPath, [cliBin, "simulate", fixture, "--context-length", "8000"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).not.toContain("EPIPE");
    expect(code).toBe(0);
  });

  it("says where the requested engine name came from", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "compression:\n  threshold: 0.5\n");
    const [flag, file, none] = await Promise.all([cli(["engines", "--engine", "sliding_window"]), cli(["engines", "--config", join(dir, "config.yaml")]), cli(["engines"])]);
    expect(flag.stdout).toMatch(/^requested:\s+sliding_window \(--engine\)$/m);
    expect(file.stdout).toMatch(new RegExp(`^requested:\\s+compressor \\(context\\.engine of ${join(dir, "config.yaml").replace(/[.]/g, "\\.")}\\)$`, "m"));
    expect(none.stdout).toMatch(/^requested:\s+compressor \(default, no config.yaml\)$/m);
  });
});
