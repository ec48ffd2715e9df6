/**
 * The public entries of the published workspace packages, read from each package.json `exports`: one
 * entry per subpath ("." is the package root), with its TypeScript source and its built declarations.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The folders whose packages may be published (those not marked private). */
export const PACKAGE_FOLDERS = ["packages", "plugins"] as const;

/** The export condition that points the workspace at a package's TypeScript sources. */
export const SOURCE_CONDITION = "@context-engine/source";

/** One public entry of a package. */
export interface PackageEntry {
  /** The package name, e.g. `@context-engine/core`. */
  packageName: string;
  /** The package folder, relative to the repository root. */
  packageDir: string;
  /** The subpath as package.json names it: `.`, `./store`… */
  subpath: string;
  /** What code imports: `@context-engine/core`, `@context-engine/core/store`… */
  specifier: string;
  /** A file-name-safe name: `index` for the root, else the subpath without `./` (slashes as `-`). */
  name: string;
  /** The TypeScript source, relative to the package folder. */
  source: string;
  /** The built declarations, relative to the package folder. */
  types: string;
}

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, string | Record<string, string>>;
}

/** The entries one manifest declares (subpaths whose target names a source and types; `./package.json` and patterns are skipped). */
export function manifestEntries(manifest: Manifest, packageDir: string): PackageEntry[] {
  const entries: PackageEntry[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target === "string" || subpath.includes("*")) continue;
    const source = target[SOURCE_CONDITION];
    const types = target["types"];
    if (source === undefined || types === undefined) continue;
    const bare = subpath === "." ? "" : subpath.replace(/^\.\//, "");
    entries.push({
      packageName: manifest.name,
      packageDir,
      subpath,
      specifier: bare === "" ? manifest.name : `${manifest.name}/${bare}`,
      name: bare === "" ? "index" : bare.replaceAll("/", "-"),
      source,
      types,
    });
  }
  return entries;
}

/** Every public entry of every published workspace package, packages in folder order. */
export function publishedEntries(repoRoot: string): PackageEntry[] {
  const entries: PackageEntry[] = [];
  for (const folder of PACKAGE_FOLDERS) {
    for (const child of readdirSync(join(repoRoot, folder)).sort()) {
      const manifestPath = join(repoRoot, folder, child, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
      if (manifest.private === true) continue;
      entries.push(...manifestEntries(manifest, `${folder}/${child}`));
    }
  }
  return entries;
}
