/**
 * Every extension point of the host, declared in one place (tapable hooks). Plugins tap them through
 * `ctx.hooks`; the host calls them.
 */
import { AsyncSeriesBailHook, SyncBailHook, SyncHook, SyncWaterfallHook } from "tapable";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { HostConfig } from "../config/schema.js";
import type { ThresholdPlan, ThresholdSettings } from "../engine/thresholds.js";
import type { ModelInfo } from "../engine/types.js";
import type { ChatMessage } from "../messages/schema.js";
import type { Summarizer } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";
import type { SessionStore, SessionStoreAsync } from "../store/types.js";

/** Payload of the `session:compress` event (docs/BEHAVIOUR.md, "In-place compaction"): `old_session_id` is "" for in-place compaction. */
export interface SessionCompressEvent {
  platform: string;
  session_id: string;
  old_session_id: string;
  in_place: boolean;
  compression_count: number;
}

/**
 * What an engine factory receives: the host's shared parts, and the settings of the plugin that offers
 * the engine (`S`: the type its `settings` schema parses to, e.g. `z.output<typeof settings>`).
 */
export interface EngineContext<S = unknown> {
  config: HostConfig;
  /**
   * The plugin's own config section, parsed by the `settings` schema it exports (defaults filled in);
   * undefined when the plugin declares none (docs/BEHAVIOUR.md, "Plugin settings").
   */
  settings?: S;
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

/** Where the active engine came from (the resolution steps of docs/BEHAVIOUR.md, "Engines and resolution"). */
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
  /** The route hooks ({@link RouteHooks}); createContextHost installs the built-in routes here. */
  routes: RouteHooks;
}

/** A fresh set of hooks for one host. */
export function createHostHooks(): HostHooks {
  return {
    contextEngine: new AsyncSeriesBailHook(["name", "ctx"]),
    engineResolved: new SyncHook(["engine", "source"]),
    sessionCompress: new SyncHook(["event"]),
    storeDriver: new AsyncSeriesBailHook(["request"]),
    routes: createRouteHooks(),
  };
}

// ── Routes ──────────────────────────────────────────────────────────────────────────────────────────
// A route is a way to a model with facts of its own: the window a model has there, the id sent for a
// local alias, a different trigger, a server that compacts the thread itself, notices for the user.
// A route extension taps the hooks below; generic code (model info, prices, the compressor, the
// session shell, the host) asks them and never names a route.

/** A notice a route attaches to a threshold plan; a route shows it at most once per `state`. */
export interface RouteNotice {
  text: string;
  /** What identifies this notice (e.g. model and percents), for the route's "already shown" record. */
  state: string;
}

/** What the `thresholdPlan` hook passes along: the plan in force and the notice that goes with it. */
export interface RoutedThresholdPlan {
  plan: ThresholdPlan;
  notice: RouteNotice | undefined;
}

/** What the `notices` hook is told once the host chose its engine. */
export interface RouteNoticeContext {
  engine: ContextEngine;
  source: EngineSource;
  /** The notice the engine's threshold plan carries, if any. */
  planNotice: RouteNotice | undefined;
}

/** What started a compaction: a manual `/compress`, or the automatic path. */
export type CompactionTrigger = "manual" | "auto";

/** A conversation thread the model's server holds and can compact; `compact()` resolves once it finished. */
export interface ServerThread {
  compact(): Promise<void>;
}

/** A compaction the model's server did: the local transcript stays intact up to here. */
export interface ServerCompactionBoundary {
  trigger: CompactionTrigger;
  /** Messages of the local transcript at the boundary (the compaction covers `messages[0, messageCount)`). */
  messageCount: number;
  /** True when the host asked for it; false when the server compacted on its own. */
  hostStarted: boolean;
}

/** What the `sessionCompaction` hook is asked with, each time a session is about to compact. */
export interface RouteSessionQuery {
  model: ModelInfo;
  /** The session's thread on the model's server, when the application gave one. */
  serverThread: ServerThread | undefined;
}

/** A route's hold on a session's compaction: the route's server compacts, the session records a boundary. */
export interface RouteCompaction {
  /** `compact` to compact now, `skip` to leave it to the route (the session reports "not needed"). */
  decide(trigger: CompactionTrigger, thresholdReached: boolean): "compact" | "skip";
  /**
   * Has the server compact the thread and waits; the session records the returned boundary (nothing
   * when this throws). The local transcript is never rewritten.
   */
  compact(request: { sessionId: string; trigger: CompactionTrigger; messages: readonly ChatMessage[] }): Promise<ServerCompactionBoundary>;
}

/** The hooks a route taps. Bail hooks take the first answer; waterfall hooks pass each tap's result on. */
export interface RouteHooks {
  /** The window `model` has on `provider`'s route, when a route knows it (`where` names the setting, for errors). */
  contextWindow: SyncBailHook<[model: string, provider: string | undefined, where: string], number | undefined>;
  /** The model id sent to the provider for a local alias (summaries and prices use it); unchanged by default. */
  wireModel: SyncWaterfallHook<[model: string]>;
  /** Adjusts the threshold plan computed for `model` (e.g. raises the trigger on a capped window). */
  thresholdPlan: SyncWaterfallHook<[planned: RoutedThresholdPlan, model: ModelInfo, settings: ThresholdSettings]>;
  /** Takes over a session's compaction (e.g. when the model's server owns the thread's context). */
  sessionCompaction: SyncBailHook<[query: RouteSessionQuery], RouteCompaction | undefined>;
  /** The one-time notices to show at start. */
  notices: SyncWaterfallHook<[notices: string[], context: RouteNoticeContext]>;
}

/** The config a route reads its settings from: a host config, or a bare `{compression}` for an engine built in code. */
export type RouteConfig = { readonly [section: string]: unknown };

/** A route extension: taps {@link RouteHooks} with the settings it reads from the config. */
export interface RouteExtension {
  name: string;
  install(hooks: RouteHooks, config: RouteConfig): void;
}

/** A fresh, empty set of route hooks. */
export function createRouteHooks(): RouteHooks {
  return {
    contextWindow: new SyncBailHook(["model", "provider", "where"]),
    wireModel: new SyncWaterfallHook(["model"]),
    thresholdPlan: new SyncWaterfallHook(["planned", "model", "settings"]),
    sessionCompaction: new SyncBailHook(["query"]),
    notices: new SyncWaterfallHook(["notices", "context"]),
  };
}
