/**
 * Which plugin owns which top-level config section, for one host being created (docs/BEHAVIOUR.md,
 * "Plugin settings"): each section a loaded plugin declares is checked against its schema (an invalid
 * value is a {@link ConfigError} naming the key and its line, like any config error), its keys the schema
 * does not know are warnings, and a section no loaded plugin owns is a warning naming it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, locateConfigKey } from "../config/load.js";
import { checkSection, unknownSectionKeys, type DeclaredSection } from "../config/pluginSettings.js";
import type { HostConfig } from "../config/schema.js";

/** An invalid plugin section: a {@link ConfigError} the host lets through (a plugin that fails to load is a warning instead). */
export class PluginSettingsError extends ConfigError {}

/** The sections of one host's plugins. */
export class SectionOwners {
  private readonly owned = new Map<string, DeclaredSection>();
  private readonly failed = new Set<string>();

  constructor(
    private readonly config: HostConfig,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * Takes `section` for its plugin and returns the settings the plugin gets (`ctx.settings`): the
   * config's section parsed by the schema, defaults filled in. Throws a {@link ConfigError} at the
   * section's keys when the value is invalid. A section two plugins declare stays the first one's.
   */
  declare(section: DeclaredSection): unknown {
    const first = this.owned.get(section.name);
    if (first && first.owner !== section.owner) this.warn(`config section ${section.name} is declared by both ${first.owner} and ${section.owner} — ${first.owner}'s schema checks it for both`);
    const owner = first ?? section;
    this.owned.set(owner.name, owner);
    const value = (this.config as Record<string, unknown>)[section.name];
    const source = this.config.sourcePath;
    const lineOf = source ? (path: (string | number)[]) => locateConfigKey(source, path) : undefined;
    const checked = checkSection(owner, value, lineOf);
    if (!checked.ok) throw new PluginSettingsError(checked.issues, source ?? "<config object>");
    for (const { path, hint } of unknownSectionKeys(owner, value)) this.warn(`${this.where(path.split("."))}: unknown key ${path} (ignored)${hint}`);
    return checked.settings;
  }

  /** Records that the plugin whose section would be `name` failed to load: its failure was reported, so its section gets no warning of its own. */
  failedToLoad(name: string): void {
    this.failed.add(name);
  }

  /** The sections of the config no loaded plugin owns, one warning each, naming the section; `rootDir` is where directory engines live. */
  unownedWarnings(rootDir: string): string[] {
    return (this.config.unknownSections ?? [])
      .filter((s) => !this.owned.has(s.name) && !this.failed.has(s.name))
      .map(({ name, where }) => {
        const dir = join("plugins", "context_engine", name);
        const why = existsSync(join(rootDir, dir)) ? `: ${dir}/ loads only when context.engine names it` : "";
        return `${where}: unknown key ${name} (no loaded plugin owns it${why}; ignored)`;
      });
  }

  /** `file:line` of a key in the config file; else where its section is written (`<inline config>:4`), else the config object. */
  private where(path: string[]): string {
    const source = this.config.sourcePath;
    const line = source ? locateConfigKey(source, path) : undefined;
    if (source && line) return `${source}:${line}`;
    return this.config.unknownSections?.find((s) => s.name === path[0])?.where ?? source ?? "<config object>";
  }
}
