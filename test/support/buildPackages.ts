/**
 * Vitest global setup: brings every package's dist/ up to date (`tsc -b`, about a second when nothing
 * changed), so the tests that run the CLI or pack the packages never see a stale build.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { repoRoot } from "./cli.js";

/** Builds the packages before any test file runs. */
export default function buildPackages(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: repoRoot, stdio: "inherit" });
}
