/** Types of the host's plugin surface: what plugins receive and what they register (what the hooks carry lives in hooks.ts). */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { HostConfig } from "../config/schema.js";
import type { EngineContext, HostHooks } from "./hooks.js";

/** Builds an engine for one host. Each host calls it once, so engines are never shared between hosts. */
export type EngineFactory = (ctx: EngineContext) => ContextEngine | Promise<ContextEngine>;

/** A class whose instances are engines (its constructor receives the {@link EngineContext}). */
export type EngineClass = new (ctx: EngineContext) => ContextEngine;

/** What `registerContextEngine` accepts. */
export type EngineRegistration = ContextEngine | EngineFactory | EngineClass;

/** What a plugin's `register(ctx)` receives (`S`: the type its `settings` schema parses to). */
export interface PluginContext<S = unknown> {
  /** The host configuration, every section as written (a plugin's own section parsed is {@link settings}). */
  config: HostConfig;
  /**
   * The plugin's own config section, parsed by the `settings` schema it exports (defaults filled in);
   * undefined when the plugin declares none (docs/BEHAVIOUR.md, "Plugin settings").
   */
  settings?: S;
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
  /** A zod schema for the plugin's own config section (docs/BEHAVIOUR.md, "Plugin settings"). */
  settings?: unknown;
  /** The section `settings` describes, for a `plugins:` entry (default: its package's or file's name). */
  settingsSection?: unknown;
}
