/** The runnable examples in examples/, run as a user runs them (offline: no OPENAI_API_KEY). */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/cli.js";
import { FINAL_ANSWER } from "./support/toolLoopScenario.js";

/** Runs `tsx <file>` (default index.ts) in an example's folder; resolves with its exit code and output. */
function runExample(name: string, file = "index.ts"): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = join(repoRoot, "examples", name);
  return new Promise((done) => {
    execFile(join(dir, "node_modules/.bin/tsx"), [file], { cwd: dir, env: { ...process.env, OPENAI_API_KEY: "" }, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the examples", () => {
  for (const [name, file] of [["ai-sdk", "index.ts"], ["ai-sdk", "middleware.ts"], ["langchain", "index.ts"]] as const) {
    it(`runs examples/${name}/${file} offline: the engine compresses, lcm_grep is called and the answer printed`, async () => {
      const run = await runExample(name, file);
      expect(run.stderr.trim(), run.stderr).not.toMatch(/error/i);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^model: a scripted loopback server/m);
      expect(run.stdout).toMatch(/^compressed.*: \d+ → \d+ messages \(7600 prompt tokens reported\)$/m);
      expect(run.stdout).toMatch(/^step: called lcm_grep/m);
      expect(run.stdout).toContain(`answer: ${FINAL_ANSWER}`);
      expect(run.stdout).toMatch(/^engine: lcm, 1 compression\(s\), last prompt 1234 tokens$/m);
    }, 150_000);
  }
});
