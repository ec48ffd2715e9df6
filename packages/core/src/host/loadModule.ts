/**
 * Loading plugin code: TypeScript or JavaScript modules through jiti, and the optional `plugin.yaml`
 * manifest of a directory engine (validated with zod).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { createJiti } from "jiti";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { PluginModule } from "./types.ts";

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

/** Imports a module (path or package name) as seen from `fromDir`; TypeScript is transpiled by jiti. */
export async function importPluginModule(specifier: string, fromDir: string): Promise<PluginModule> {
  const jiti = createJiti(join(fromDir, "__context_engine_loader__.js"), { interopDefault: false });
  const target = isPathSpecifier(specifier) ? resolve(fromDir, specifier) : specifier;
  const mod = await jiti.import<PluginModule>(target);
  if (typeof mod !== "object" || mod === null) throw new Error(`module ${specifier} exports nothing usable`);
  return mod;
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
  const raw: unknown = parseYaml(await readFile(path, "utf8")) ?? {};
  const parsed = PluginManifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path}: invalid manifest:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
