/**
 * Loading plugin code: TypeScript or JavaScript modules through jiti, and the optional `plugin.yaml`
 * manifest of a directory engine (validated with zod).
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { parseYamlText } from "../config/yaml.js";
import { packageFileUrl } from "../packageFile.js";
import type { PluginModule } from "./types.js";

/** Entry files looked for in a plugin directory, in order. */
export const PLUGIN_ENTRY_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"] as const;

/** The optional manifest of a directory engine. */
export const PluginManifestSchema = z.strictObject({
  name: z.string({ error: "must be a string" }).optional(),
  version: z.string({ error: "must be a string such as 0.1.0" }).optional(),
  description: z.string({ error: "must be a string" }).optional(),
});
/** A parsed `plugin.yaml`. */
export type PluginManifest = z.infer<typeof PluginManifestSchema>;

/** The part of a package.json that names a package's entries. */
export interface PackageExports {
  name: string;
  exports?: Record<string, unknown> | string;
}

/**
 * The specifiers of every entry a package.json `exports` declares: the root, then each subpath
 * (`./package.json`, patterns and `null` targets left out).
 */
export function entrySpecifiers(manifest: PackageExports): string[] {
  const exports = manifest.exports;
  if (exports === undefined || typeof exports === "string") return [manifest.name];
  return Object.entries(exports)
    .filter(([subpath, target]) => subpath.startsWith(".") && !subpath.includes("*") && !subpath.endsWith(".json") && target !== null)
    .map(([subpath]) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`));
}

let hostModulesLoaded: Promise<Record<string, unknown>> | undefined;

/**
 * The host's own public modules, one per entry of its package.json `exports` (read at run time, so a
 * new entry is handed over without a list to keep). A plugin that imports `@context-engine/core` or
 * any of its subpaths gets these very objects, so it extends the host's `ContextEngine` (instanceof
 * holds) and nothing of the core is compiled twice.
 */
export function hostModules(): Promise<Record<string, unknown>> {
  hostModulesLoaded ??= (async () => {
    const manifest = JSON.parse(await readFile(packageFileUrl("package.json"), "utf8")) as PackageExports;
    const specifiers = entrySpecifiers(manifest);
    // each entry under its own specifier, resolved as the host itself was (the package's self-reference)
    const modules = await Promise.all(specifiers.map((specifier) => import(specifier) as Promise<unknown>));
    return Object.fromEntries(specifiers.map((specifier, i) => [specifier, modules[i]]));
  })().catch((error: unknown) => {
    hostModulesLoaded = undefined; // the next plugin load tries again
    throw error;
  });
  return hostModulesLoaded;
}

/**
 * Imports a module (path or package name) as seen from `fromDir`; TypeScript is transpiled by jiti (cached
 * on disk), which is itself imported on the first plugin load.
 */
export async function importPluginModule(specifier: string, fromDir: string): Promise<PluginModule> {
  const { createJiti } = await import("jiti");
  const jiti = createJiti(join(fromDir, "__context_engine_loader__.js"), { virtualModules: await hostModules() });
  const target = isPathSpecifier(specifier) ? await resolvePathEntry(resolve(fromDir, specifier)) : specifier;
  const mod = await jiti.import<PluginModule>(target);
  if (typeof mod !== "object" || mod === null) throw new Error(`module ${specifier} exports nothing usable`);
  return mod;
}

/**
 * A path that is a folder resolves like a package: its package.json `exports["."]` (string, or the
 * `import`/`default` condition), then `main`, then an index file. Files are returned as they are.
 */
export async function resolvePathEntry(path: string): Promise<string> {
  if (!existsSync(path) || !statSync(path).isDirectory()) return path;
  const manifestPath = join(path, "package.json");
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { exports?: unknown; main?: unknown };
    const entry = packageEntry(manifest.exports) ?? (typeof manifest.main === "string" ? manifest.main : undefined);
    if (entry) return resolve(path, entry);
  }
  const index = findPluginEntry(path);
  if (!index) throw new Error(`${path} is a folder with no package.json entry and no index file`);
  return index;
}

function packageEntry(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (typeof exports !== "object" || exports === null) return undefined;
  const record = exports as Record<string, unknown>;
  const dot = "." in record ? record["."] : record;
  if (typeof dot === "string") return dot;
  if (typeof dot === "object" && dot !== null) {
    const conditions = dot as Record<string, unknown>;
    for (const key of ["import", "default", "node"]) if (typeof conditions[key] === "string") return conditions[key];
  }
  return undefined;
}

/** True for "./x", "../x", "/abs/x" and Windows drive paths; false for package names. */
export function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith(".") || isAbsolute(specifier);
}

/** The entry file of a plugin directory, or undefined when it has none. */
export function findPluginEntry(dir: string): string | undefined {
  for (const file of PLUGIN_ENTRY_FILES) {
    const path = join(dir, file);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Reads and validates `<dir>/plugin.yaml` when present; errors name the file and key. */
export async function readPluginManifest(dir: string): Promise<PluginManifest | undefined> {
  const path = join(dir, "plugin.yaml");
  if (!existsSync(path)) return undefined;
  // a syntax error or an alias bomb is a ConfigError naming the file
  const raw = parseYamlText(await readFile(path, "utf8"), path) ?? {};
  const parsed = PluginManifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path}: invalid manifest:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
