/**
 * `pnpm bench`: runs every benchmark in this folder (files named *.bench.ts exporting `run()`), one after
 * another, and prints their figures. Benchmarks print figures and ratios; they never assert timings.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here).filter((f) => f.endsWith(".bench.ts") && (!only || f.includes(only))).sort();
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> | void };
  if (typeof mod.run !== "function") throw new Error(`${file} does not export run()`);
  console.log(`\n=== ${file.replace(/\.bench\.ts$/, "")} ===`);
  await mod.run();
}
