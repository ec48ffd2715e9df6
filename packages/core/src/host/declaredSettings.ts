/**
 * The settings a plugin declares (docs/BEHAVIOUR.md, "Plugin settings"): its module exports `settings`, a
 * zod schema for its own top-level config section. A directory engine's section is named after its
 * folder; a `plugins:` entry's after its package (`@context-engine/lcm` → `lcm`) or file, unless it
 * exports `settingsSection`. Built-in and third-party plugins declare theirs the same way.
 */
import { basename, dirname, extname, join } from "node:path";
import { objectShape, shapeChild } from "../config/shape.js";
import { ENGINE_NAME_PATTERN, HostConfigSchema, type HostConfig } from "../config/schema.js";
import { isSettingsSchema, type DeclaredSection } from "../config/pluginSettings.js";
import { errorText } from "../errorText.js";
import { findPluginEntry, importPluginModule, isPathSpecifier } from "./loadModule.js";
import { listDirectoryEngines } from "./engineNotFound.js";
import { withinLoadTimeout } from "./loadTimeout.js";
import { describeLoadError } from "./loadError.js";

/** The section a `plugins:` entry's settings go under when it does not name one: its package's name without the scope, or its file's (folder's, for an index file) name. */
export function defaultSectionName(specifier: string): string {
  if (!isPathSpecifier(specifier)) {
    const parts = specifier.split("/");
    return (specifier.startsWith("@") ? parts[1] : parts[0]) ?? specifier;
  }
  const file = basename(specifier, extname(specifier));
  return file === "index" ? basename(dirname(specifier)) : file;
}

/**
 * The section `mod` declares, or undefined when it exports no `settings`. `name` is the section's default
 * name (a `settingsSection` export overrides it for a `plugins:` entry); `owner` names the plugin in errors.
 * Throws when `settings` is not a zod schema or the name is not a section a plugin may own.
 */
export function declaredSection(mod: { settings?: unknown; settingsSection?: unknown }, name: string, owner: string, options: { named?: boolean } = {}): DeclaredSection | undefined {
  if (mod.settings === undefined) return undefined;
  if (!isSettingsSchema(mod.settings)) throw new Error(`${owner}: \`export const settings\` must be a zod 4 schema, e.g. z.object({ keep_last: z.number().int().min(1).default(20) })`);
  const section = options.named && mod.settingsSection !== undefined ? mod.settingsSection : name;
  if (typeof section !== "string" || !ENGINE_NAME_PATTERN.test(section)) {
    throw new Error(`${owner}: settingsSection must be a section name matching ${ENGINE_NAME_PATTERN.source}, got ${JSON.stringify(section)}`);
  }
  if (shapeChild(objectShape(HostConfigSchema), section)) throw new Error(`${owner}: '${section}' is a section of the host's own; export settingsSection to name the plugin's section`);
  return { name: section, schema: mod.settings, owner };
}

/** What {@link discoverDeclaredSections} found: the sections, and the plugins that could not be read (one located message each). */
export interface DiscoveredSections {
  sections: DeclaredSection[];
  problems: string[];
}

/**
 * The sections every plugin a config could load declares — each directory engine under
 * `<rootDir>/plugins/context_engine/` and each `plugins:` entry — for `context-engine config`, which
 * checks any section whatever engine is active. Modules are imported (as the host would), not registered.
 */
export async function discoverDeclaredSections(config: Pick<HostConfig, "plugins">, rootDir: string, configDir: string, timeoutMs = 10_000): Promise<DiscoveredSections> {
  const sections: DeclaredSection[] = [];
  const problems: string[] = [];
  const read = async (what: string, load: () => Promise<DeclaredSection | undefined>) => {
    try {
      const section = await withinLoadTimeout(load(), timeoutMs, "loading");
      if (section && !sections.some((s) => s.name === section.name)) sections.push(section);
    } catch (error) {
      problems.push(`${what}: ${describeLoadError(error).text || errorText(error)}`);
    }
  };
  for (const name of listDirectoryEngines(rootDir)) {
    const dir = join(rootDir, "plugins", "context_engine", name);
    const entry = findPluginEntry(dir);
    if (entry) await read(`directory engine ${name}`, async () => declaredSection(await importPluginModule(entry, dir), name, entry));
  }
  for (const specifier of config.plugins) {
    await read(`plugin ${specifier}`, async () => declaredSection(await importPluginModule(specifier, configDir), defaultSectionName(specifier), specifier, { named: true }));
  }
  return { sections, problems };
}
