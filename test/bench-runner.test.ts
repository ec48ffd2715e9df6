/** `pnpm bench <name>`: an unknown benchmark name is a usage error, and nothing is run. */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/cli.js";

describe("pnpm bench", () => {
  it("refuses an unknown benchmark name with the known names on stderr and exit code 2, running nothing", async () => {
    const tsx = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, [tsx, "--conditions=@context-engine/source", "bench/run.ts", "no-such-bench"], { cwd: repoRoot, timeout: 30_000 }, (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      });
    });
    const known = readdirSync(join(repoRoot, "bench")).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, "")).sort();
    expect(known.length).toBeGreaterThan(2);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `bench: unknown benchmark 'no-such-bench' (known: ${known.join(", ")})\n` });
  });
});
