/**
 * `pnpm bench [name…] [--markdown]`: runs every benchmark in this folder (files named *.bench.ts exporting
 * `run()`), or only those whose name contains one of the names, one after another, and prints their figures. Benchmarks print
 * figures and ratios; they never assert timings. A name that matches no benchmark is a usage error
 * (exit 2) listing the known names. `--markdown` ends the run with the side-by-side table (ours,
 * upstream, ratio; cold and warm) as README-ready markdown, headed by the machine and date.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { sideBySideMarkdown } from "./sideBySide.js";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const markdown = args.includes("--markdown");
const names = args.filter((arg) => arg !== "--markdown");
const all = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).sort();
const files = all.filter((f) => names.length === 0 || names.some((name) => f.includes(name)));
const unknown = names.find((name) => !all.some((f) => f.includes(name)));
if (unknown !== undefined) {
  const known = all.map((f) => f.replace(/\.bench\.ts$/, "")).join(", ");
  process.stderr.write(`bench: unknown benchmark '${unknown}' (known: ${known})\n`);
  process.exit(2);
}
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> | void };
  if (typeof mod.run !== "function") throw new Error(`${file} does not export run()`);
  console.log(`\n=== ${file.replace(/\.bench\.ts$/, "")} ===`);
  await mod.run();
}
if (markdown) console.log(`\n=== side by side (markdown) ===\n${sideBySideMarkdown()}`);
