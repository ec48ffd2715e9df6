/**
 * `@context-engine/lcm`: the lossless context engine as a general plugin (resolution step 2). List this
 * package in config `plugins:` and set `context.engine: lcm`; `register(ctx)` registers the engine factory.
 */
import { isAbsolute, join, resolve } from "node:path";
import { cacheTimingFromConfig, sharedStateStoreOf, type CompactToolSettings, type Summarizer, type TokenCounter } from "./core.js";
import { LcmConfigError, LcmConfigSchema, parseLcmConfig, unknownLcmKeys } from "./config.js";
import { LcmEngine } from "./engine.js";
import { openLcmStoreAt, type LcmStoreHooks } from "./storeDriver.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** What the factory registered with the host receives. */
export interface LcmEngineContext {
  config: unknown;
  summarizer?: Summarizer | undefined;
  tokenCounter?: TokenCounter | undefined;
  rootDir: string;
  warn: (message: string) => void;
  /** The host only simulates: the store is kept in memory, the configured file or database is not touched. */
  scratch?: boolean | undefined;
  /** The host's hooks: `lcm.database_url` is opened by the store driver a plugin taps into `storeDriver`. */
  hooks?: LcmStoreHooks | undefined;
  /** The host's session store: when it can take and claim engine state, the workers on it share lcm's requests and background summaries. */
  store?: unknown;
}

/** The part of the host's plugin context lcm uses. */
export interface LcmPluginContext {
  registerContextEngine(engineOrFactory: (engineCtx: LcmEngineContext) => Promise<LcmEngine<LcmStoreAsync>>, name?: string): void;
  config?: unknown;
  rootDir?: string;
  warn?: (message: string) => void;
  /** Strict mode: an unknown `lcm:` key is an error, not a warning. */
  strict?: boolean;
  /** The host's hooks, handed to the engine factory (see {@link LcmEngineContext.hooks}). */
  hooks?: LcmStoreHooks;
}

/** The name `context.engine` selects lcm by. */
export const LCM_ENGINE_NAME = "lcm";

/**
 * lcm's settings, declared to the host as any plugin declares its own (docs/BEHAVIOUR.md,
 * "Plugin settings"): the host checks the `lcm:` section against this schema, with the file's lines, and shows
 * and sets its keys with `context-engine config`.
 */
export const settings = LcmConfigSchema;

/** The config section lcm's settings live in (a `plugins:` entry names its section; the package's name would say the same). */
export const settingsSection = LCM_ENGINE_NAME;

/** Default SQLite file under the host's root dir. */
export const DEFAULT_DB_FILE = join(".context-engine", "lcm.db");

function lcmSection(config: unknown): unknown {
  return typeof config === "object" && config !== null ? (config as Record<string, unknown>).lcm : undefined;
}

/** The host's `compression` section, when the config has one. */
function compressionOf(config: unknown): { model_thresholds?: unknown; prepare_at?: unknown } | undefined {
  return typeof config === "object" && config !== null ? (config as { compression?: { model_thresholds?: unknown; prepare_at?: unknown } }).compression : undefined;
}

/** The host's `compression.model_thresholds`, when the config has them. */
function modelThresholdsOf(config: unknown): Record<string, number> | undefined {
  const thresholds = compressionOf(config)?.model_thresholds;
  return typeof thresholds === "object" && thresholds !== null ? (thresholds as Record<string, number>) : undefined;
}

/** The host's `compression.compact_tool`, when the config has it (the agent's `compact_context`). */
function compactToolOf(config: unknown): CompactToolSettings | undefined {
  const compression = typeof config === "object" && config !== null ? (config as { compression?: { compact_tool?: unknown } }).compression : undefined;
  const settings = compression?.compact_tool as Partial<CompactToolSettings> | undefined;
  return typeof settings?.enabled === "boolean" && typeof settings.min_turns_between === "number" ? { enabled: settings.enabled, min_turns_between: settings.min_turns_between } : undefined;
}

/** The host's `compression.prepare_at` (background compaction), when set. */
function prepareAtOf(config: unknown): number | undefined {
  const prepareAt = compressionOf(config)?.prepare_at;
  return typeof prepareAt === "number" ? prepareAt : undefined;
}

/** The db path for `rawPath` (config `lcm.db_path`): ":memory:" as is, relative paths under `rootDir`. */
export function resolveDbPath(rawPath: string | undefined, rootDir: string): string {
  if (rawPath === ":memory:") return rawPath;
  const path = rawPath ?? DEFAULT_DB_FILE;
  return isAbsolute(path) ? path : resolve(rootDir, path);
}

/**
 * Builds an LcmEngine from the host's engine context: settings from `config.lcm` (validated; errors name
 * the key path), the store at `lcm.database_url` (opened by the store driver a plugin offers through
 * `hooks`, e.g. `@context-engine/postgres` for PostgreSQL; the engine closes it on `close()`), else the
 * SQLite file at `lcm.db_path` (default `<rootDir>/.context-engine/lcm.db`); in memory for a scratch
 * host, e.g. `context-engine simulate`. Also the trigger overrides of `compression.model_thresholds`, the
 * agent's `compact_context` of `compression.compact_tool`, the
 * host's summarizer and token counter when given, and the host's session store when workers can share
 * work through it (`compact_context` requests and background summaries).
 */
export async function createLcmEngine(engineCtx: LcmEngineContext): Promise<LcmEngine<LcmStoreAsync>> {
  const settings = parseLcmConfig(lcmSection(engineCtx.config));
  const options = {
    config: settings,
    modelThresholds: modelThresholdsOf(engineCtx.config),
    cacheTiming: cacheTimingFromConfig(engineCtx.config),
    compactTool: compactToolOf(engineCtx.config),
    prepareAt: prepareAtOf(engineCtx.config),
    sharedState: sharedStateStoreOf(engineCtx.store),
    ...(engineCtx.summarizer ? { summarizer: engineCtx.summarizer } : {}),
    ...(engineCtx.tokenCounter ? { tokenCounter: engineCtx.tokenCounter } : {}),
    warn: engineCtx.warn,
  };
  if (settings.database_url !== undefined && !engineCtx.scratch) {
    return new LcmEngine<LcmStoreAsync>({ ...options, store: await openLcmStoreAt(settings.database_url, engineCtx.hooks), ownsStore: true });
  }
  return new LcmEngine<LcmStoreAsync>({ ...options, dbPath: engineCtx.scratch ? ":memory:" : resolveDbPath(settings.db_path, engineCtx.rootDir) });
}

/**
 * Plugin entry point: registers the "lcm" engine factory. Validates `config.lcm` early so mistakes surface
 * at load: an invalid value throws, an unknown key is a warning (an error in strict mode, the host's or
 * the config's `strict`) naming its path and the setting it probably meant.
 */
export function register(ctx: LcmPluginContext): void {
  const section = lcmSection(ctx.config);
  parseLcmConfig(section);
  const unknown = unknownLcmKeys(section);
  const strict = ctx.strict ?? (ctx.config as { strict?: unknown } | undefined)?.strict === true;
  if (strict && unknown.length > 0) throw new LcmConfigError(unknown.map((line) => line.replace(" (ignored)", "")));
  for (const line of unknown) ctx.warn?.(line);
  ctx.registerContextEngine((engineCtx) => createLcmEngine({ hooks: ctx.hooks, ...engineCtx }), LCM_ENGINE_NAME);
}

export { LcmEngine, type LcmEngineOptions } from "./engine.js";
export { LcmConfigSchema, LcmConfigError, parseLcmConfig, unknownLcmKeys, type LcmSettings } from "./config.js";
export { LcmStore, type StoredMessage, type SummaryRecord, type ItemRef } from "./store/LcmStore.js";
export type { LcmStoreAsync, LcmFullTextSearch } from "./store/LcmStoreAsync.js";
export { LCM_CONTEXT_HEADER, LCM_CONTEXT_END, assembleContext } from "./assemble.js";
export { LCM_TOOL_NAMES } from "./tools/index.js";
export { checkLcmStore, type DoctorReport, type DoctorProblem, type DoctorProblemCode } from "./doctor.js";
