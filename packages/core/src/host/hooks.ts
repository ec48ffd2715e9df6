/**
 * Every extension point of the host, declared in one place (tapable hooks). Plugins tap them through
 * `ctx.hooks`; the host calls them.
 */
import { AsyncSeriesBailHook, SyncHook } from "tapable";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { EngineContext, EngineSource } from "./types.js";

/** Payload of the `session:compress` event (HERMES.md): `old_session_id` is "" for in-place compaction. */
export interface SessionCompressEvent {
  platform: string;
  session_id: string;
  old_session_id: string;
  in_place: boolean;
  compression_count: number;
}

/** The host's hooks. */
export interface HostHooks {
  /** Asked with the configured engine name only; the first tap that returns an engine wins. */
  contextEngine: AsyncSeriesBailHook<[name: string, ctx: EngineContext], ContextEngine | undefined>;
  /** Called once the engine is chosen. */
  engineResolved: SyncHook<[engine: ContextEngine, source: EngineSource]>;
  /** The `session:compress` event, after every compaction. */
  sessionCompress: SyncHook<[event: SessionCompressEvent]>;
}

/** A fresh set of hooks for one host. */
export function createHostHooks(): HostHooks {
  return {
    contextEngine: new AsyncSeriesBailHook(["name", "ctx"]),
    engineResolved: new SyncHook(["engine", "source"]),
    sessionCompress: new SyncHook(["event"]),
  };
}
