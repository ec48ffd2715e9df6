/**
 * What the host says when `context.engine` names an engine that nothing offers: the nearest known
 * engine name for a typo, or, for an engine that ships as a package of its own (lcm), the `plugins:`
 * entry to add and whether that package is installed where the config's plugins are resolved from.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { nearestConfigKey } from "../config/nearest.js";

/** The engines that ship as packages of their own, by engine name: `context.engine` needs the package under `plugins:`. */
export const SHIPPED_ENGINE_PACKAGES: Readonly<Record<string, string>> = { lcm: "@context-engine/lcm" };

/** The directory engines under `<rootDir>/plugins/context_engine/`, sorted. */
export function listDirectoryEngines(rootDir: string): string[] {
  const dir = join(rootDir, "plugins", "context_engine");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

/** True when package `name` resolves from `fromDir` as a `plugins:` entry of a config there would (through jiti, as plugins load; imported only then). */
export async function isPackageResolvable(name: string, fromDir: string): Promise<boolean> {
  const { createJiti } = await import("jiti");
  return createJiti(join(fromDir, "__context_engine_loader__.js")).esmResolve(name, { try: true }) !== undefined;
}

/** Where the host looked for an engine that was not found. */
export interface EngineSearch {
  /** The engine name `context.engine` asked for. */
  requested: string;
  /** Every engine name that was on offer (the built-in, directory engines, the plugins' engines). */
  known: string[];
  /** The `plugins:` entries of the config. */
  plugins: readonly string[];
  /** The folder `plugins:` entries are resolved from (the config file's folder). */
  configDir: string;
}

/**
 * A hint for an engine that was not found, without brackets, or undefined when there is none: how to get
 * a shipped engine (`add plugins: ["@context-engine/lcm"]`, and whether it is installed), else the
 * nearest known engine name (`did you mean lcm?`).
 */
export async function engineNotFoundHint(search: EngineSearch): Promise<string | undefined> {
  const pkg = SHIPPED_ENGINE_PACKAGES[search.requested];
  if (pkg !== undefined && !search.plugins.includes(pkg)) {
    const installed = (await isPackageResolvable(pkg, search.configDir))
      ? `${pkg} is installed`
      : `${pkg} is not installed: it does not resolve from ${search.configDir}`;
    return `the '${search.requested}' engine comes with ${pkg}: add plugins: ["${pkg}"] to the config; ${installed}`;
  }
  const near = nearestConfigKey(search.requested, new Set([...search.known, ...Object.keys(SHIPPED_ENGINE_PACKAGES)]));
  return near === undefined || near === search.requested ? undefined : `did you mean ${near}?`;
}
