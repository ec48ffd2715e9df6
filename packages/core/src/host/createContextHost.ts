/**
 * The host: reads config, loads plugins, and resolves `context.engine` in the order of docs/BEHAVIOUR.md, "Engines and resolution" —
 * `plugins/context_engine/<name>/`, then the engines registered by `plugins:`, then the built-in compressor.
 * Paths follow one rule: relative to the config file's folder (the working directory without a file).
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BUILTIN_ENGINE } from "./builtin.js";
import { loadConfig, validateConfigObject } from "../config/load.js";
import type { HostConfig } from "../config/schema.js";
import type { ContextEngine } from "../engine/ContextEngine.js";
import { DEFAULT_SESSION_SCOPE, type ModelInfo } from "../engine/types.js";
import type { Summarizer } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";
import type { SessionStore, SessionStoreAsync } from "../store/types.js";
import { createSummarizer } from "../summarizers/resolve.js";
import { ContextCompressor } from "../compressor/ContextCompressor.js";
import { createHostHooks, type EngineContext, type EngineSource, type HostHooks, type RouteHooks } from "./hooks.js";
import { EngineRegistry } from "./registry.js";
import { loadDirectoryEngine, loadListedPlugins, scopeOf } from "./loadPlugins.js";
import { PluginSettingsError, SectionOwners } from "./sectionOwners.js";
import { loadFailureText } from "./loadError.js";
import { modelInfoFromConfig } from "./modelInfo.js";
import { HostProblems } from "./problems.js";
import { symlinkOutsideRoot } from "./outsideRoot.js";
import { engineNotFoundHint, listDirectoryEngines } from "./engineNotFound.js";
import { isScope } from "../engine/toolScope.js";
import { withinLoadTimeout } from "./loadTimeout.js";
import { defaultRouteHooks, installBuiltinRoutes } from "../routes/builtin.js";
import { errorText } from "../errorText.js";
import { apiVersionWarning, checkEngineOutput, hostCoreVersion } from "./engineChecks.js";
import { cacheTimingFromConfig, cacheTrackerOptions } from "../compressor/cacheTimingTracker.js";

/** Options of {@link createContextHost}. */
export interface ContextHostOptions {
  /** A parsed config object, or a path to config.yaml (or YAML text). */
  config?: HostConfig | string;
  /** Where `plugins/context_engine/<name>/` is looked up (default: {@link hostRootDir}, the config file's folder, else cwd). */
  rootDir?: string;
  /**
   * Strict mode (default: the config's `strict`): an engine that is not found or fails, and a `plugins:`
   * entry that fails to load, throw a {@link ConfigError} naming the key and line instead of warning.
   */
  strict?: boolean;
  /**
   * How long a plugin may take to load, to run its register(ctx), and to build its engine, in ms
   * (default: the config's `plugin_load_timeout`, 10 s). Past it the plugin is a load failure.
   */
  pluginLoadTimeoutMs?: number;
  summarizer?: Summarizer;
  /**
   * Wraps the summarizer the host settled on (`summarizer`, else the one `auxiliary.compression`
   * picks) before any engine gets it: to meter, log or trace summaries (`MeteredSummarizer` from
   * `@context-engine/core/lab` prices them in a replay).
   */
  wrapSummarizer?: (summarizer: Summarizer) => Summarizer;
  tokenCounter?: TokenCounter;
  /**
   * The session store: the built-in compressor keeps its per-session state there and offers the agent
   * `session_search` over it. A {@link SessionStoreAsync} (PostgreSQL) works too.
   */
  store?: SessionStore | SessionStoreAsync;
  /** The main model; default from `config.model`. */
  model?: ModelInfo;
  /** The host only simulates: engines keep no state beyond it (see {@link EngineContext.scratch}). */
  scratch?: boolean;
  /**
   * Whose sessions this host serves when one owner uses it (a tenant or user id; default "default"): the
   * scope of the sessions `CompactionSession` and the adapters open through it unless they are given one.
   */
  scope?: string;
}

/** A running host. */
export interface ContextHost {
  engine: ContextEngine;
  engineSource: EngineSource;
  hooks: HostHooks;
  config: HostConfig;
  /** The folder `plugins/context_engine/<name>/` was looked up in and plugins keep their state under. */
  rootDir: string;
  /** Everything that went wrong without stopping the host (fallbacks, plugin load errors, unknown keys). */
  warnings: string[];
  /** The engine name that was asked for. */
  requestedEngine: string;
  /**
   * Why the engine asked for is not the active one (not found, or it failed to load, start or size
   * itself), said once and without the fallback; undefined when it is active. A load error starts with
   * `<file>:<line>:<column>: ` and shows the source line.
   */
  engineFailure?: string;
  /** Where the engine came from: a directory path, a plugin specifier, or "built-in". */
  engineOrigin: string;
  /** Engine names offered by `plugins:` (none of them is active unless configured). */
  registeredEngines: string[];
  summarizer: Summarizer;
  model: ModelInfo;
  /** One-time notices for the user (the routes', e.g. a raised trigger), to print at start. */
  notices: string[];
  /** The scope sessions opened through this host get unless given one ({@link ContextHostOptions.scope}). */
  scope: string;
}

/** `scope` checked: a non-blank string, else {@link DEFAULT_SESSION_SCOPE} when not given. */
function hostScope(scope: string | undefined): string {
  if (scope === undefined) return DEFAULT_SESSION_SCOPE;
  if (!isScope(scope)) throw new TypeError("createContextHost: scope must be a non-empty string");
  return scope;
}

/** The folder a host resolves directory engines and plugin state from: the config file's folder, else `cwd`. */
export function hostRootDir(config: Pick<HostConfig, "sourcePath">, cwd: string = process.cwd()): string {
  return config.sourcePath ? dirname(resolve(config.sourcePath)) : resolve(cwd);
}

/** Creates a host: loads configuration and plugins, and resolves the context engine. */
export async function createContextHost(options: ContextHostOptions = {}): Promise<ContextHost> {
  const config = await resolveConfig(options.config);
  const rootDir = options.rootDir !== undefined ? resolve(options.rootDir) : hostRootDir(config);
  const configDir = config.sourcePath ? dirname(config.sourcePath) : rootDir;
  const strict = options.strict ?? config.strict;
  const problems = new HostProblems([...(config.warnings ?? [])], strict, config.sourcePath);
  const { warnings, warn } = problems;
  const owners = new SectionOwners(config, warn);
  const engineKey = ["context", "engine"];
  const hooks = createHostHooks();
  // the built-in routes first, so plugins' taps come after them
  installBuiltinRoutes(hooks.routes, config);
  const model = options.model ?? modelInfoFromConfig(config, hooks.routes);
  const settled = options.summarizer ?? createSummarizer(config.auxiliary.compression, mainEndpoint(config, hooks.routes), process.env, { cacheTtl: config.prompt_caching.cache_ttl }).summarizer;
  const summarizer = options.wrapSummarizer ? options.wrapSummarizer(settled) : settled;
  const engineContext: EngineContext = { config, rootDir, summarizer, tokenCounter: options.tokenCounter, store: options.store, warn, ...(options.scratch ? { scratch: true } : {}) };
  const registry = new EngineRegistry(hooks, engineContext);
  const requested = config.context.engine.trim() || BUILTIN_ENGINE;
  const loadTimeoutMs = options.pluginLoadTimeoutMs ?? config.plugin_load_timeout * 1000;

  await loadListedPlugins(config.plugins, configDir, { config, rootDir, hooks, warn, strict }, registry, problems, owners, loadTimeoutMs);
  let failure: string | undefined;
  /** The engine failed (`what`: "Context engine 'x' … failed to load"): a warning that says the host falls back, or a strict issue. */
  const engineFailed = (what: string, error: unknown, scope: string | undefined) => {
    failure = loadFailureText(what, error, scope);
    problems.fail(engineKey, requested, failure, loadFailureText(what, error, scope, " — falling back to built-in compressor"));
  };

  let engine: ContextEngine | undefined;
  let source: EngineSource = "builtin";
  let origin = "built-in";
  if (requested !== BUILTIN_ENGINE) {
    const dir = join(rootDir, "plugins", "context_engine", requested);
    let failed = false;
    // A folder a symlink leads out of the root is a problem: a warning, or under strict an error before its code runs.
    const outside = existsSync(dir) ? symlinkOutsideRoot(dir, rootDir) : undefined;
    if (outside !== undefined) problems.fail(engineKey, requested, outside, `Context engine '${requested}': ${outside}`);
    if (existsSync(dir) && !(outside !== undefined && problems.strict)) {
      engine = await withinLoadTimeout(loadDirectoryEngine(dir, requested, engineContext, hooks, owners), loadTimeoutMs, "loading").catch((error: unknown) => {
        if (error instanceof PluginSettingsError) throw error;
        owners.failedToLoad(requested);
        engineFailed(`Context engine '${requested}' in ${dir} failed to load`, error, dir);
        failed = true;
        return undefined;
      });
      if (engine) [source, origin] = ["directory", dir];
      const shadowed = registry.ownerOf(requested);
      if (engine && shadowed) warn(`Context engine '${requested}' from ${dir} is used; the one offered by ${shadowed} is ignored (directory engines come first)`);
    }
    if (!engine) {
      engine = await withinLoadTimeout(hooks.contextEngine.promise(requested, engineContext), loadTimeoutMs, "building its engine").catch((error: unknown) => {
        const owner = registry.ownerOf(requested);
        engineFailed(`Context engine '${requested}' from ${owner ?? "a plugin"} failed to start`, error, owner === undefined ? undefined : scopeOf(owner, configDir));
        failed = true;
        return undefined;
      });
      if (engine) [source, origin] = ["plugin", registry.ownerOf(requested) ?? "plugin"];
    }
    // An engine that was found but failed has said why already; "not found" would contradict it.
    if (!engine && !failed) {
      const offered = registry.names().join(", ") || "none";
      const hint = await engineNotFoundHint({ requested, known: [BUILTIN_ENGINE, ...listDirectoryEngines(rootDir), ...registry.names()], plugins: config.plugins, configDir });
      failure = `Context engine '${requested}' not found${hint ? ` (${hint})` : ""}`;
      problems.fail(
        engineKey,
        requested,
        `no context engine '${requested}' (not in ${dir}, not offered by plugins: (${offered}))${hint ? `; ${hint}` : ""}; strict mode does not fall back to the built-in compressor`,
        `Context engine '${requested}' not found${hint ? ` (${hint})` : ""} — falling back to built-in compressor`,
      );
    }
  }
  if (engine) {
    try {
      engine.updateModel(model);
    } catch (error) {
      const text = `Context engine '${requested}' failed to size itself for ${model.model}: ${errorText(error)}`;
      failure = text;
      problems.fail(engineKey, requested, text, `${text} — falling back to built-in compressor`);
      [engine, source, origin] = [undefined, "builtin", "built-in"];
    }
  }
  problems.throwIfAny();
  if (engine) {
    const newer = apiVersionWarning(engine, `Context engine '${requested}' (${origin})`, hostCoreVersion());
    if (newer !== undefined) warn(newer);
  }
  // the sections no loaded plugin owns come first, as the file's other unknown keys did before plugins loaded
  warnings.unshift(...owners.unownedWarnings(rootDir));
  // the compressor's cache tracker serves cache-aware timing and a summary that reads the cache
  const cacheTiming = cacheTimingFromConfig(config) ?? (config.compression.summary_request === "suffix" ? cacheTrackerOptions(config) : undefined);
  if (!engine) engine = new ContextCompressor({ compression: config.compression, summarizer, tokenCounter: options.tokenCounter, model, store: options.store, warn, routes: hooks.routes, ...(cacheTiming ? { cacheTiming } : {}) });
  // the engine handed out refuses an output that breaks provider rules (docs/BEHAVIOUR.md, "Invalid output")
  checkEngineOutput(engine, config.context.validate_output);
  hooks.engineResolved.call(engine, source);
  const planNotice = engine instanceof ContextCompressor && engine.autoraiseNotice && engine.autoraiseNoticeState
    ? { text: engine.autoraiseNotice, state: engine.autoraiseNoticeState }
    : undefined;
  const notices = hooks.routes.notices.call([], { engine, source, planNotice });
  return { engine, engineSource: source, hooks, config, rootDir, warnings, requestedEngine: requested, ...(failure !== undefined ? { engineFailure: failure } : {}), engineOrigin: origin, registeredEngines: registry.names(), summarizer, model, notices, scope: hostScope(options.scope) };
}

async function resolveConfig(config: HostConfig | string | undefined): Promise<HostConfig> {
  if (config === undefined) return validateConfigObject({});
  if (typeof config === "string") return loadConfig(config);
  // A parsed object may be partial (hand-written by a host application): validate and default it. One
  // that already carries `warnings` came from loadConfig(): its unknown keys were reported, with lines.
  const { sourcePath, warnings, unknownSections, ...rest } = config;
  const validated = validateConfigObject(rest);
  return { ...validated, ...(sourcePath ? { sourcePath } : {}), warnings: warnings ? [...warnings] : (validated.warnings ?? []), unknownSections: unknownSections ?? validated.unknownSections ?? [] };
}

/** The main model's endpoint for summaries; a local alias is sent as the id `routes` give it (e.g. a large-window alias as its base model). */
export function mainEndpoint(config: HostConfig, routes: RouteHooks = defaultRouteHooks()): { model: string; baseUrl?: string } | undefined {
  const m = config.model;
  if (!m) return undefined;
  if (typeof m === "string") return { model: routes.wireModel.call(m) };
  const model = m.default ?? m.name;
  return model ? { model: routes.wireModel.call(model), ...(m.base_url ? { baseUrl: m.base_url } : {}) } : undefined;
}
