/** Types of the host's plugin surface: what plugins receive and what they register. */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { HostConfig } from "../config/schema.js";
import type { Summarizer } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";
import type { HostHooks } from "./hooks.js";
import type { SessionStore, SessionStoreAsync } from "../store/types.js";

/** What an engine factory receives: the host's shared parts. */
export interface EngineContext {
  config: HostConfig;
  /** The folder plugins and relative paths are resolved from. */
  rootDir: string;
  /** The summarizer the host built from `auxiliary.compression` (or the one passed in). */
  summarizer?: Summarizer;
  tokenCounter?: TokenCounter;
  /**
   * The session store passed to the host, if any: a {@link SessionStore}, or a store whose methods answer
   * with promises ({@link SessionStoreAsync}, e.g. `@context-engine/postgres`) — await what you call.
   */
  store?: SessionStore | SessionStoreAsync;
  /**
   * True when the host only simulates (a replay, an evaluation): the engine keeps no state beyond this
   * host — its databases in memory or in a temporary place, never the configured ones.
   */
  scratch?: boolean;
  /** Adds a line to `host.warnings`. */
  warn(message: string): void;
}

/** Builds an engine for one host. Each host calls it once, so engines are never shared between hosts. */
export type EngineFactory = (ctx: EngineContext) => ContextEngine | Promise<ContextEngine>;

/** A class whose instances are engines (its constructor receives the {@link EngineContext}). */
export type EngineClass = new (ctx: EngineContext) => ContextEngine;

/** What `registerContextEngine` accepts. */
export type EngineRegistration = ContextEngine | EngineFactory | EngineClass;

/** What a plugin's `register(ctx)` receives. */
export interface PluginContext {
  /** The host configuration (plugins read their own sections, e.g. `config.lcm`). */
  config: HostConfig;
  rootDir: string;
  hooks: HostHooks;
  /**
   * Offers an engine under `name` (default: the engine's own `name`; a factory without a name is built
   * once to learn it). The host only ever builds the engine `context.engine` names.
   */
  registerContextEngine(engine: EngineRegistration, name?: string): void;
  /** Adds a line to `host.warnings`. */
  warn(message: string): void;
  /** Strict mode (the host's option, else the config's `strict`): a plugin should throw where it would warn. */
  strict?: boolean;
}

/** The shape of a plugin module. */
export interface PluginModule {
  register?: (ctx: PluginContext) => void | Promise<void>;
  default?: unknown;
}

/** Where the active engine came from (SPEC §1 resolution steps). */
export type EngineSource = "directory" | "plugin" | "builtin";
