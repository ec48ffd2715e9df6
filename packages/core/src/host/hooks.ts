/**
 * Every extension point of the host, declared in one place (tapable hooks). Plugins tap them through
 * `ctx.hooks`; the host calls them.
 */
import { AsyncSeriesBailHook, SyncHook } from "tapable";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { HostConfig } from "../config/schema.js";
import type { Summarizer } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";
import type { SessionStore, SessionStoreAsync } from "../store/types.js";

/** Payload of the `session:compress` event (HERMES.md): `old_session_id` is "" for in-place compaction. */
export interface SessionCompressEvent {
  platform: string;
  session_id: string;
  old_session_id: string;
  in_place: boolean;
  compression_count: number;
}

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

/** Where the active engine came from (SPEC §1 resolution steps). */
export type EngineSource = "directory" | "plugin" | "builtin";

/**
 * What a store driver is asked to open: a store of `kind` at `url`. A plugin that owns no engine (e.g.
 * `@context-engine/postgres`) answers for the URL schemes it speaks; the plugin that needs the store asks.
 */
export interface StoreDriverRequest {
  /** The store wanted, named by the plugin that asks (e.g. `"lcm"`); a driver answers only the kinds it implements. */
  kind: string;
  /** Where the store lives; its scheme picks the driver (e.g. `postgres://user@host/db`). */
  url: string;
}

/** The host's hooks. */
export interface HostHooks {
  /** Asked with the configured engine name only; the first tap that returns an engine wins. */
  contextEngine: AsyncSeriesBailHook<[name: string, ctx: EngineContext], ContextEngine | undefined>;
  /** Called once the engine is chosen. */
  engineResolved: SyncHook<[engine: ContextEngine, source: EngineSource]>;
  /** The `session:compress` event, after every compaction. */
  sessionCompress: SyncHook<[event: SessionCompressEvent]>;
  /**
   * Asked for a store by URL; the first tap that speaks the URL's scheme and implements the kind returns
   * the open store (its type is the asking plugin's store contract), the others return undefined.
   */
  storeDriver: AsyncSeriesBailHook<[request: StoreDriverRequest], unknown>;
}

/** A fresh set of hooks for one host. */
export function createHostHooks(): HostHooks {
  return {
    contextEngine: new AsyncSeriesBailHook(["name", "ctx"]),
    engineResolved: new SyncHook(["engine", "source"]),
    sessionCompress: new SyncHook(["event"]),
    storeDriver: new AsyncSeriesBailHook(["request"]),
  };
}
