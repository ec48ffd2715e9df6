/**
 * Loading plugin code for a host: the `plugins:` entries (each runs its register(ctx)) and the directory
 * engine `context.engine` names (resolution step 1). Each plugin's declared settings are checked before
 * its code gets them (`ctx.settings`); a failure is reported with its place in the source (loadError.ts).
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import type { EngineContext, HostHooks } from "./hooks.js";
import { findPluginEntry, importPluginModule, isPathSpecifier, readPluginManifest } from "./loadModule.js";
import { EngineRegistry, buildEngine } from "./registry.js";
import type { PluginContext, PluginModule } from "./types.js";
import type { HostProblems } from "./problems.js";
import { PluginLoadTimeoutError, withinLoadTimeout } from "./loadTimeout.js";
import { declaredSection, defaultSectionName } from "./declaredSettings.js";
import { PluginSettingsError, type SectionOwners } from "./sectionOwners.js";
import { loadFailureText } from "./loadError.js";
import { errorText } from "../errorText.js";

/**
 * Loads each `plugins:` entry and runs its register(ctx), each within `timeoutMs`; a failure is a
 * warning, or an issue at `plugins.<i>` under strict. An invalid section of a plugin's is a
 * {@link PluginSettingsError}, thrown.
 */
export async function loadListedPlugins(
  specifiers: string[],
  configDir: string,
  base: Omit<PluginContext, "registerContextEngine">,
  registry: EngineRegistry,
  problems: HostProblems,
  owners: SectionOwners,
  timeoutMs: number,
): Promise<void> {
  for (const [index, specifier] of specifiers.entries()) {
    const pending: Promise<void>[] = [];
    let timedOut = false;
    let settings: unknown;
    /** `rest` follows the plugin's name: "Plugin ./x.ts<rest>" as a warning, "plugin ./x.ts<rest>" as a strict issue. */
    const fail = (rest: string) => problems.fail(["plugins", index], specifier, `plugin ${specifier}${rest}`, `Plugin ${specifier}${rest}`);
    /** `error` placed in the plugin's source when it can be: "<file>:<line>: <message> (plugin ./x.ts failed to load)". */
    const failWith = (error: unknown, how: string) => {
      const scope = scopeOf(specifier, configDir);
      problems.fail(["plugins", index], specifier, loadFailureText(`plugin ${specifier}${how}`, error, scope), loadFailureText(`Plugin ${specifier}${how}`, error, scope));
    };
    const ctx: PluginContext = {
      ...base,
      registerContextEngine: (engine, name) => {
        // A plugin that was given up on keeps running in the background; what it registers then is ignored.
        if (timedOut) return;
        pending.push(registry.register(specifier, engine, name, settings).catch((error: unknown) => failWith(error, "")));
      },
    };
    const load = async () => {
      const mod = await importPluginModule(specifier, configDir);
      const section = declaredSection(mod, defaultSectionName(specifier), specifier, { named: true });
      if (section) settings = ctx.settings = owners.declare(section);
      if (typeof mod.register === "function") await mod.register(ctx);
      else if (isContextEngine(mod.default)) throw new Error(`export a class or factory (not an instance) so each host gets its own engine`);
      else if (typeof mod.default === "function") ctx.registerContextEngine(mod.default as never);
      else fail(" exports neither register(ctx) nor a default engine");
      await Promise.all(pending);
    };
    try {
      await withinLoadTimeout(load(), timeoutMs, "loading");
    } catch (error) {
      if (error instanceof PluginSettingsError) throw error;
      owners.failedToLoad(defaultSectionName(specifier));
      timedOut = error instanceof PluginLoadTimeoutError;
      if (timedOut) fail(` ${errorText(error)}`);
      else failWith(error, " failed to load");
    }
  }
}

/** Resolution step 1: a directory engine. Its module exports register(ctx) or a default class/factory; its `settings` describe the section named after the folder. */
export async function loadDirectoryEngine(dir: string, name: string, engineContext: EngineContext, hooks: HostHooks, owners: SectionOwners): Promise<ContextEngine | undefined> {
  const manifest = await readPluginManifest(dir);
  if (manifest?.name && manifest.name !== name) engineContext.warn(`${join(dir, "plugin.yaml")}: name '${manifest.name}' differs from the directory name '${name}'; the directory name is used`);
  const entry = findPluginEntry(dir);
  if (!entry) throw new Error(`no index.ts, index.mts, index.js or index.mjs in ${dir}`);
  const mod: PluginModule = await importPluginModule(entry, dir);
  const section = declaredSection(mod, name, entry);
  const context: EngineContext = section ? { ...engineContext, settings: owners.declare(section) } : engineContext;
  if (typeof mod.register === "function") {
    const offered: { registration: unknown; name?: string }[] = [];
    await mod.register({
      config: context.config,
      ...(section ? { settings: context.settings } : {}),
      rootDir: context.rootDir,
      hooks,
      warn: context.warn,
      registerContextEngine: (registration, n) => void offered.push({ registration, name: n }),
    });
    if (offered.length === 0) throw new Error(`${basename(entry)} register(ctx) registered no engine`);
    const chosen = offered.find((o) => o.name === name) ?? offered[0]!;
    return buildEngine(chosen.registration, context, `the engine of ${entry}`);
  }
  if (isContextEngine(mod.default)) throw new Error(`${entry}: export a class or factory (not an instance) so each host gets its own engine`);
  if (typeof mod.default !== "function") throw new Error(`${entry} exports neither register(ctx) nor a default engine class or factory`);
  return buildEngine(mod.default, context, `the default export of ${entry}`);
}

/** The folder of a `plugins:` path entry (its code's scope in a stack), or undefined for a package (a folder with a package.json too: its frames are its build's, not the source). */
export function scopeOf(specifier: string, configDir: string): string | undefined {
  if (!isPathSpecifier(specifier)) return undefined;
  const path = resolve(configDir, specifier);
  const dir = existsSync(path) && statSync(path).isFile() ? dirname(path) : path;
  return existsSync(join(dir, "package.json")) ? undefined : dir;
}
