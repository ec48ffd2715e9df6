/** The runnable examples in examples/, run as a user runs them (offline: no OPENAI_API_KEY). */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/cli.js";
import { FINAL_ANSWER } from "./support/toolLoopScenario.js";

/** Runs `tsx <file> [args]` (default index.ts) in an example's folder; resolves with its exit code and output. */
function runExample(name: string, file = "index.ts", args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = join(repoRoot, "examples", name);
  return new Promise((done) => {
    execFile(join(dir, "node_modules/.bin/tsx"), [file, ...args], { cwd: dir, env: { ...process.env, OPENAI_API_KEY: "" }, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the examples", () => {
  for (const [name, file] of [["ai-sdk", "index.ts"], ["ai-sdk", "middleware.ts"], ["langchain", "index.ts"]] as const) {
    it(`runs examples/${name}/${file} offline with the engine its config.yaml names (lcm): the engine compresses and the answer is printed`, async () => {
      const run = await runExample(name, file);
      expect(run.stderr.trim(), run.stderr).not.toMatch(/error/i);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^model: a scripted loopback server/m);
      expect(run.stdout).toMatch(/^compressed.*: \d+ → \d+ messages \(7600 prompt tokens reported\)$/m);
      expect(run.stdout).toContain(`answer: ${FINAL_ANSWER}`);
      expect(run.stdout).toMatch(/^engine: lcm, 1 compression\(s\), last prompt 1234 tokens$/m);
    }, 150_000);

    it(`runs examples/${name}/${file} offline with the engine another config names (the built-in compressor), given as its argument`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "ce-example-"));
      writeFileSync(join(dir, "config.yaml"), "context:\n  engine: compressor\ncompression:\n  protect_first_n: 1\n  protect_last_n: 2\n");
      const run = await runExample(name, file, [join(dir, "config.yaml")]);
      expect(run.stderr.trim(), run.stderr).toBe("");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^compressed.*: \d+ → \d+ messages \(7600 prompt tokens reported\)$/m);
      expect(run.stdout).toContain(`answer: ${FINAL_ANSWER}`);
      expect(run.stdout).toMatch(/^engine: compressor, 1 compression\(s\), last prompt 1234 tokens$/m);
    }, 150_000);
  }
});
