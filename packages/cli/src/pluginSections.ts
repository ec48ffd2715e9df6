/**
 * The config sections plugins declare, as `context-engine config` reads them: every directory engine
 * beside the config and every `plugins:` entry is imported (not run) for its `settings` schema, so a
 * plugin's keys can be shown, read and set whatever engine is active (docs/BEHAVIOUR.md, "Plugin settings").
 */
import { ConfigError, type HostConfig } from "@context-engine/core";
import { checkSection, configKeyLine, discoverDeclaredSections, type DeclaredSection } from "@context-engine/core/internal";

/** The sections the plugins of `config` declare; a plugin that cannot be read is a warning on `warn`, naming it and where it failed. */
export async function declaredSections(config: HostConfig, rootDir: string, configDir: string, warn: (line: string) => void): Promise<DeclaredSection[]> {
  const { sections, problems } = await discoverDeclaredSections(config, rootDir, configDir, config.plugin_load_timeout * 1000);
  for (const problem of problems) warn(`warning: ${problem}`);
  return sections;
}

/**
 * `config` with each declared section parsed by its schema (defaults filled in). An invalid section is a
 * {@link ConfigError} at its keys, with their lines in `text` (the YAML of `source`).
 */
export function withDeclaredSections(config: HostConfig, sections: readonly DeclaredSection[], text: string, source: string): HostConfig {
  const out: Record<string, unknown> = { ...config };
  for (const section of sections) {
    const checked = checkSection(section, out[section.name], (path) => configKeyLine(text, path));
    if (!checked.ok) throw new ConfigError(checked.issues, source);
    out[section.name] = checked.settings;
  }
  return out as HostConfig;
}
