/** `pnpm bench <name>`: an unknown benchmark name is a usage error, and nothing is run. */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/cli.js";

function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const tsx = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
  return new Promise((done) => {
    execFile(process.execPath, [tsx, "--conditions=@context-engine/source", "bench/run.ts", ...args], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("pnpm bench", () => {
  it("refuses an unknown benchmark name among known ones, naming it, and runs nothing", async () => {
    const run = await bench(["compress", "no-such-bench", "--markdown"]);
    expect([run.code, run.stdout, run.stderr.split(" (known")[0]]).toEqual([2, "", "bench: unknown benchmark 'no-such-bench'"]);
  });

  it("refuses an unknown benchmark name with the known names on stderr and exit code 2, running nothing", async () => {
    const run = await bench(["no-such-bench"]);
    const known = readdirSync(join(repoRoot, "bench")).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, "")).sort();
    expect(known.length).toBeGreaterThan(2);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `bench: unknown benchmark 'no-such-bench' (known: ${known.join(", ")})\n` });
  });
});
