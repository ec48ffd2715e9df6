/**
 * `pnpm pack:all [folder]`: packs every published package of the workspace (its built dist/) into one
 * folder, `./packs` by default, emptied of older tarballs first. The packages are not on npm yet; a
 * project of one's own installs them from there: `npm install /path/to/context-engine/packs/*.tgz`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace packages that are published, by folder. */
export const PUBLISHED_PACKAGES = {
  "@context-engine/core": "packages/core",
  "@context-engine/cli": "packages/cli",
  "@context-engine/lcm": "plugins/lcm",
  "@context-engine/ai-sdk": "packages/ai-sdk",
  "@context-engine/langchain": "packages/langchain",
  "@context-engine/postgres": "packages/postgres",
} as const;
/** A published package name. */
export type PublishedPackage = keyof typeof PUBLISHED_PACKAGES;

/** The folder `pnpm pack:all` writes to when given none, relative to the repository root. */
export const PACKS_FOLDER = "packs";

/** Packs every published package into `outDir` (emptied of `.tgz` files first); returns tarball paths by package name. */
export function packAll(repoRoot: string, outDir: string): Record<PublishedPackage, string> {
  mkdirSync(outDir, { recursive: true });
  for (const old of readdirSync(outDir).filter((f) => f.endsWith(".tgz"))) rmSync(join(outDir, old));
  const tarballs = {} as Record<PublishedPackage, string>;
  for (const [name, folder] of Object.entries(PUBLISHED_PACKAGES) as [PublishedPackage, string][]) {
    const before = new Set(readdirSync(outDir));
    execFileSync("npx", ["--yes", "pnpm@12.4.2", "pack", "--pack-destination", outDir], { cwd: join(repoRoot, folder), stdio: ["ignore", "ignore", "inherit"] });
    const made = readdirSync(outDir).filter((f) => !before.has(f) && f.endsWith(".tgz"));
    if (made.length !== 1) throw new Error(`pnpm pack of ${name} made ${made.length} tarballs in ${outDir}`);
    tarballs[name] = join(outDir, made[0]!);
  }
  return tarballs;
}

function main(): void {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
  const outDir = resolve(repoRoot, process.argv[2] ?? PACKS_FOLDER);
  const tarballs = packAll(repoRoot, outDir);
  for (const path of Object.values(tarballs)) console.log(path);
  console.log(`Install them in a project of your own: npm install ${join(outDir, "*.tgz")}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
