import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TiktokenCounter, type ChatMessage } from "@context-engine/core";
import fc from "fast-check";
import { formatNumber } from "../packages/cli/src/format.js";
import { bundledTranscript as fixture, repoRoot as root, runCli as cli, tempDir } from "./support/cli.js";

describe("context-engine CLI", () => {
  it("prints help with every command and exits 0", async () => {
    const run = await cli(["--help"]);
    expect(run.code).toBe(0);
    for (const command of ["engines", "compress", "import"]) expect(run.stdout).toContain(command);
  });

  it("exits 2 with one line on stderr for an unknown command", async () => {
    const run = await cli(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("unknown command 'frobnicate'");
  });

  it("exits 2 on an unknown flag", async () => {
    const run = await cli(["compress", fixture, "--bogus"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--bogus'/);
  });

  it("shows the built-in engine and the directory engines on offer", async () => {
    const run = await cli(["engines"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/active:\s+compressor — builtin/);
    expect(run.stdout).toContain("sliding_window");
  });

  it("shows a directory engine and the fallback warning for a missing one", async () => {
    const run = await cli(["engines", "--engine", "sliding_window"]);
    expect(run.stdout).toMatch(/active:\s+sliding_window — directory/);
    const missing = await cli(["engines", "--engine", "nothere"]);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain("Context engine 'nothere' not found — falling back to built-in compressor");
  });

  it("fails with exit 1 and the key path on one line for an invalid config", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.yaml"), "prompt_caching:\n  cache_ttl: 10m\n");
    const run = await cli(["engines", "--config", join(dir, "config.yaml")]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${join(dir, "config.yaml")}:2 prompt_caching.cache_ttl: must be "5m" or "1h"`);
  });

  it("compresses the bundled transcript with the built-in compressor and writes valid output", async () => {
    const dir = tempDir();
    const out = join(dir, "out.json");
    const run = await cli(["compress", fixture, "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/engine\s+compressor — builtin/);
    expect(run.stdout).toMatch(/before\s+\d+ messages, [\d,]+ tokens/);
    expect(run.stdout).toContain("passes validateConversation()");
    expect(run.stdout).toMatch(/verbatim\s+[\d,]+ facts checked against the turns; invented: 0 removed, 0 flagged/);
    const before = JSON.parse(readFileSync(fixture, "utf8")) as unknown[];
    const after = JSON.parse(readFileSync(out, "utf8")) as { content: unknown }[];
    expect(after.length).toBeLessThan(before.length);
    expect(JSON.stringify(after)).toContain("[CONTEXT COMPACTION]");
  });

  it("prints the size before compaction as the compressor's estimate, and counts it exactly for an engine that reports none", async () => {
    const builtin = await cli(["compress", fixture, "--quiet"]);
    expect(builtin.stdout).toMatch(/before\s+\d+ messages, [\d,]+ tokens \(the compressor's estimate\)\n/);
    const directory = await cli(["compress", fixture, "--engine", "sliding_window", "--context-length", "20000", "--quiet"]);
    const exact = new TiktokenCounter().countMessages(JSON.parse(readFileSync(fixture, "utf8")) as ChatMessage[]);
    expect(directory.stdout).toMatch(new RegExp(`before\\s+\\d+ messages, ${exact.toLocaleString("en-US")} tokens\\n`));
  });

  it("writes counts with thousands separators exactly as en-US does", () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1e15, noNaN: true }), (n) => formatNumber(n) === Math.round(n).toLocaleString("en-US")));
  });

  it("compresses with a directory engine chosen on the command line", async () => {
    const run = await cli(["compress", fixture, "--engine", "sliding_window", "--context-length", "20000", "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/engine\s+sliding_window — directory/);
  });

  it("names the file when the transcript is missing", async () => {
    const run = await cli(["compress", "nope.json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`transcript not found: ${join(root, "nope.json")}`);
  });

  it("names the index and field of a malformed message", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), JSON.stringify([{ role: "user", content: "hi" }, { role: "robot", content: "x" }]));
    const run = await cli(["compress", join(dir, "bad.json")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("messages[1].role");
  });

  it("passes the example directory engine through the conformance suite", async () => {
    const run = await cli(["conformance", "plugins/context_engine/sliding_window"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/conformance of 'sliding_window'/);
    expect(run.stdout).toMatch(/18 passed, 0 failed/);
  });

  it("exits 1 and names the broken promise of an engine that mutates its input", async () => {
    const dir = tempDir();
    const core = join(root, "packages/core/src/index.ts");
    writeFileSync(join(dir, "careless.ts"), `import { ContextEngine } from ${JSON.stringify(core)};
class Careless extends ContextEngine {
  readonly name = "careless";
  shouldCompress(t = this.lastPromptTokens) { return t >= this.thresholdTokens; }
  async compress(messages: any[]) { messages.pop(); return messages; }
}
export function register(ctx: any) { ctx.registerContextEngine(() => new Careless(), "careless"); }
`);
    const run = await cli(["conformance", join(dir, "careless.ts")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the input messages were mutated");
    expect(run.stdout).toMatch(/\d+ passed, [1-9]\d* failed/);
  });

  it("sets a config key in place, keeping comments, and refuses a bad value without writing", async () => {
    const dir = tempDir();
    const path = join(dir, "config.yaml");
    writeFileSync(path, "# my settings\ncompression:\n  threshold: 0.5 # trigger\n");
    const set = await cli(["config", "set", "compression.protect_last_n", "12"], dir);
    expect(set.code).toBe(0);
    const text = readFileSync(path, "utf8");
    expect(text).toContain("# my settings");
    expect(text).toContain("# trigger");
    expect(text).toContain("protect_last_n: 12");
    const bad = await cli(["config", "set", "prompt_caching.cache_ttl", "2h"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('prompt_caching.cache_ttl: must be "5m" or "1h"');
    expect(readFileSync(path, "utf8")).toBe(text);
    const unknown = await cli(["config", "set", "compression.bogus", "1"], dir);
    expect(unknown.code).toBe(2);
    const get = await cli(["config", "get", "compression.protect_last_n"], dir);
    expect(get.stdout.trim()).toBe("12");
  });

  it("sets the Codex route's settings in their codex: section, and warns about the old compression.codex_* spelling", async () => {
    const dir = tempDir();
    const path = join(dir, "config.yaml");
    writeFileSync(path, "compression:\n  codex_gpt55_autoraise_notice: false\n");
    expect((await cli(["config", "set", "codex.gpt55_autoraise", "false"], dir)).code).toBe(0);
    expect(readFileSync(path, "utf8")).toContain("codex:\n  gpt55_autoraise: false");
    expect((await cli(["config", "get", "codex.gpt55_autoraise"], dir)).stdout.trim()).toBe("false");
    expect((await cli(["config", "get", "codex.gpt55_autoraise_notice"], dir)).stdout.trim()).toBe("false");
    const engines = await cli(["engines", "--config", path]);
    expect(engines.stdout).toContain(`${path}:2: compression.codex_gpt55_autoraise_notice is deprecated; use codex.gpt55_autoraise_notice`);
  });

  it("imports a Claude Code session and a SWE-agent trajectory into valid OpenAI-format messages", async () => {
    const dir = tempDir();
    for (const [file, format] of [
      ["test/fixtures/raw/claude-reliability/snapshot-tests/tests/stop-hook-reflection-first-stop/transcript.jsonl", "claude-code"],
      ["test/fixtures/raw/swe-agent/trajectories/demonstrations/function_calling_simple.traj", "swe-agent"],
    ] as const) {
      const out = join(dir, `${format}.json`);
      const run = await cli(["import", file, "-o", out]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`(${format}) → ${out}`);
      const messages = JSON.parse(readFileSync(out, "utf8")) as { role: string; tool_calls?: unknown[] }[];
      expect(messages.some((m) => (m.tool_calls?.length ?? 0) > 0)).toBe(true);
      expect(messages.some((m) => m.role === "tool")).toBe(true);
    }
  });

  it("reports each malformed line of a session file by its line number", async () => {
    const run = await cli(["import", "test/fixtures/raw/claude-code-log/test/test_data/edge_cases.jsonl", "-o", join(tempDir(), "o.json")]);
    expect(run.stderr).toMatch(/warning: .*edge_cases\.jsonl:\d+/);
  });

  it("refuses an unknown import format as a usage error", async () => {
    const run = await cli(["import", fixture, "--format", "word"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--format must be one of auto, claude-code, swe-agent, openhands, openai");
  });

  it("shows one command's usage for help <command>", async () => {
    const run = await cli(["help", "simulate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: context-engine simulate /);
  });
});
