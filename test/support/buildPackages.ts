/**
 * Vitest global setup: brings every package's dist/ up to date (`pnpm build`'s own steps: `tsc -b`, about
 * a second when nothing changed, then the esbuild bundles), so the tests that run the CLI or pack the
 * packages never see a stale build.
 */
import { buildPackages as build } from "../../scripts/build.js";
import { repoRoot } from "./cli.js";

/** Builds the packages before any test file runs. */
export default async function buildPackages(): Promise<void> {
  await build(repoRoot);
}
