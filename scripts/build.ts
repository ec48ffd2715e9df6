/**
 * `pnpm build` (and `prepare`): every published package to its dist/. tsc writes the declarations (.d.ts
 * and their maps, which the API reports read); esbuild writes the JavaScript, one ES module per entry the
 * package.json `exports` names (and per file a `bin` script imports), with code shared by entries in
 * chunks and dependencies left as imports (but those scripts/bundledDependencies.ts bundles, with their
 * licences in dist/THIRD-PARTY-LICENSES.md). A fresh process then reads a few files instead of one per
 * source module, which halves the import of `@context-engine/core`. Next to each package's bundles,
 * dist/bundle-meta.json maps every output file to the source modules in it (test/lazy-imports.test.ts
 * reads it). Bundles newer than their package's sources are left as they are.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { BUNDLED_DEPENDENCIES, THIRD_PARTY_NOTICE_FILE, thirdPartyNotice, trimBundledDependencies } from "./bundledDependencies.js";
import { PUBLISHED_PACKAGES } from "./packAll.js";

/** The map of a package's bundles written beside them: output file (relative to dist/) → source files (relative to the package). */
export const BUNDLE_META_FILE = "bundle-meta.json";

interface Manifest {
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
}

/**
 * The entry points of a package: dist path without `.js` (as esbuild names its output) → source file.
 * Each `exports` entry maps its `import` target to its "@context-engine/source" file; each `bin` script's
 * `../dist/x.js` import maps to `src/x.ts`.
 */
export function bundleEntries(packageDir: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== "object" || target === null) continue;
    const conditions = target as Record<string, unknown>;
    const source = conditions["@context-engine/source"];
    const output = conditions["import"];
    if (typeof source !== "string" || typeof output !== "string") throw new Error(`${packageDir}/package.json: exports["${subpath}"] needs an "@context-engine/source" and an "import" target`);
    entries[distName(output, `${packageDir}/package.json exports["${subpath}"]`)] = join(packageDir, source);
  }
  for (const script of Object.values(manifest.bin ?? {})) {
    for (const match of readFileSync(join(packageDir, script), "utf8").matchAll(/from "\.\.\/dist\/([\w/.-]+)\.js"/g)) {
      entries[match[1]!] = join(packageDir, "src", `${match[1]!}.ts`);
    }
  }
  return entries;
}

/** `./dist/compressor/index.js` → `compressor/index`. */
function distName(output: string, place: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(output);
  if (!match) throw new Error(`${place}: the import target ${output} is not a .js file under ./dist/`);
  return match[1]!;
}

/** The newest modification time (ms) of `path`, a file or every file under a folder. */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * True when the package's bundles are newer than its sources, its package.json and this script, so a
 * test run that starts while another runs the CLI leaves the files it reads alone.
 */
function bundlesUpToDate(packageDir: string): boolean {
  const meta = join(packageDir, "dist", BUNDLE_META_FILE);
  if (!existsSync(meta)) return false;
  const inputs = [join(packageDir, "src"), join(packageDir, "bin"), join(packageDir, "package.json"), fileURLToPath(import.meta.url), fileURLToPath(new URL("./bundledDependencies.ts", import.meta.url))];
  return Math.max(...inputs.map(newestChange)) < statSync(meta).mtimeMs;
}

/** Removes the JavaScript files (and maps) in `dir` that the build did not write: an earlier build's, or tsc's per-module output. */
function removeStaleJavaScript(dir: string, written: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name) && !written.has(path)) rmSync(path);
  }
}

/**
 * What esbuild leaves as imports in a package's bundles: every dependency (and its subpaths) but those
 * {@link BUNDLED_DEPENDENCIES} names for the package.
 */
function externalDependencies(packageDir: string, bundled: readonly string[]): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const names = new Set(["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"].flatMap((field) => Object.keys(manifest[field] ?? {})));
  return [...names].filter((name) => !bundled.includes(name)).flatMap((name) => [name, `${name}/*`]);
}

/** Bundles one package's entries into its dist/ (unless they are up to date) and writes its {@link BUNDLE_META_FILE}. */
export async function bundlePackage(packageDir: string, bundled: readonly string[] = []): Promise<void> {
  if (bundlesUpToDate(packageDir)) return;
  const dist = join(packageDir, "dist");
  const dependencies = bundled.length === 0 ? { packages: "external" as const } : { external: externalDependencies(packageDir, bundled), plugins: [trimBundledDependencies(packageDir)] };
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: bundleEntries(packageDir),
    outdir: dist,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    ...dependencies,
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: "linked",
    sourcesContent: true,
    keepNames: true,
    metafile: true,
    logLevel: "warning",
  });
  removeStaleJavaScript(dist, new Set(Object.keys(result.metafile.outputs).map((output) => join(packageDir, output))));
  writeFileSync(join(dist, BUNDLE_META_FILE), `${JSON.stringify(bundleMeta(result.metafile), null, 1)}\n`);
  if (bundled.length > 0) writeFileSync(join(dist, THIRD_PARTY_NOTICE_FILE), thirdPartyNotice(packageDir, bundled));
}

/**
 * Output file (relative to dist/) → the package's source files bundled into it (a bundled dependency's
 * files, outside the package or in a plugin's namespace, are not the package's).
 */
function bundleMeta(metafile: Metafile): Record<string, string[]> {
  const meta: Record<string, string[]> = {};
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (output.endsWith(".map")) continue;
    meta[output.replace(/^dist\//, "")] = Object.keys(inputs).filter((input) => !input.startsWith("../") && !input.includes(":")).sort();
  }
  return meta;
}

/** The whole build: declarations with `tsc -b`, then each published package's bundles. */
export async function buildPackages(repoRoot: string): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: repoRoot, stdio: "inherit" });
  await Promise.all(Object.values(PUBLISHED_PACKAGES).map((folder) => bundlePackage(join(repoRoot, folder), BUNDLED_DEPENDENCIES[folder])));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPackages(join(dirname(fileURLToPath(import.meta.url)), ".."));
}
