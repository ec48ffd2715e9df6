/**
 * `context-engine config show|get|set`: the effective configuration (defaults filled in, the sections
 * plugins declare included), one key, or a change written back to config.yaml with its comments kept —
 * validated, against the owning plugin's schema for a plugin's key, before anything is written.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseConfigText, validateConfigObject } from "@context-engine/core";
import { SHIPPED_ENGINE_PACKAGES, currentConfigKey, formatConfigYaml, parseConfigValue, setConfigValue, unknownConfigKeyMessage } from "@context-engine/core/internal";
import { parseCommandArgs } from "../args.js";
import { CONFIG_FLAGS } from "../commandFlags.js";
import { EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { configFile } from "../hostFlags.js";
import { declaredSections, withDeclaredSections } from "../pluginSections.js";

/** Reads `key.path` out of a parsed object. */
function getPath(value: unknown, keyPath: string): unknown {
  let current = value;
  for (const key of keyPath.split(".")) {
    if (typeof current !== "object" || current === null || !(key in current)) throw new Error(`no key ${keyPath} in the configuration`);
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** For a key of a shipped engine's section whose package is not loaded (`lcm.fresh_tail` without lcm under `plugins:`), the entry to add. */
function shippedPluginHint(keyPath: string, sections: readonly { name: string }[]): string {
  const section = keyPath.split(".")[0]!;
  const pkg = Object.hasOwn(SHIPPED_ENGINE_PACKAGES, section) ? SHIPPED_ENGINE_PACKAGES[section] : undefined;
  return pkg !== undefined && !sections.some((s) => s.name === section) ? `; its plugin declares it: add plugins: ["${pkg}"] to the config` : "";
}

/** Runs `config`. */
export async function runConfig(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, CONFIG_FLAGS);
  const [action, key, rawValue, ...extra] = positionals;
  // The same file every command reads; `set` creates ./config.yaml when there is none.
  const path = configFile(io.cwd, values.config) ?? resolve(io.cwd, "config.yaml");
  // An explicit --config must exist for show/get (set creates it); the default config.yaml may be absent.
  if (values.config !== undefined && action !== "set" && !existsSync(path)) throw new Error(`config file not found: ${path}`);
  const text = existsSync(path) ? await readFile(path, "utf8") : "";
  const loaded = text ? parseConfigText(text, path) : validateConfigObject({});
  // the sections plugins declare: checked, shown with their defaults, and settable like the host's own
  const rootDir = values.root !== undefined ? resolve(io.cwd, values.root) : dirname(path);
  const sections = action === undefined ? [] : await declaredSections(loaded, rootDir, dirname(path), io.stderr);
  const effective = () => {
    const { sourcePath: _s, warnings: _w, unknownSections: _u, ...config } = withDeclaredSections(loaded, sections, text, path);
    return config;
  };
  if (action === "show" && key === undefined) {
    io.stdout(formatConfigYaml(effective()));
    return EXIT_OK;
  }
  if (action === "get" && key !== undefined && rawValue === undefined) {
    const value = getPath(effective(), key);
    io.stdout(typeof value === "object" && value !== null ? formatConfigYaml(value) : String(value));
    return EXIT_OK;
  }
  if (action === "set" && key !== undefined && rawValue !== undefined && extra.length === 0) {
    const unknown = unknownConfigKeyMessage(key, sections);
    if (unknown) throw new UsageError(unknown + shippedPluginHint(key, sections));
    const value = parseConfigValue(rawValue, key);
    const updated = setConfigValue(text, key, value);
    // throws with the key path and line before anything is written
    withDeclaredSections(parseConfigText(updated, path), sections, updated, path);
    await writeFile(path, updated);
    const written = currentConfigKey(key);
    const moved = written === key ? "" : ` (${key} is deprecated; written as ${written})`;
    io.stdout(`${path}: ${written} = ${JSON.stringify(value)}${moved}`);
    return EXIT_OK;
  }
  throw new UsageError("expects `show`, `get <key>` or `set <key> <value>`");
}
