/**
 * The thin stateful shell a host application keeps per conversation: it appends turns to the session
 * store, asks the engine whether and how to compress, writes the result back (in place under the same
 * id, or by rotation to a child session), and emits `session:compress` (SPEC §3.1). On a Codex
 * app-server thread (SPEC §3.5) it delegates to the app-server instead and only logs the boundary.
 */
import type { AppServerThread } from "../codex/appServer.js";
import type { CompressionReport } from "../compressor/report.js";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { HostConfig } from "../config/schema.js";
import type { HostHooks, SessionCompressEvent } from "../host/hooks.js";
import type { ChatMessage } from "../messages/schema.js";
import type { CompactionRecord, SessionRecord, SessionStore, UndoResult } from "../store/types.js";
import { appServerBoundaryInfo, CompactionSessionBase, resolveSessionOptions } from "./compactionSessionBase.js";

/** What {@link CompactionSession} needs from a host (a `ContextHost` fits). */
export interface CompactionSessionHost {
  engine: ContextEngine;
  hooks?: Pick<HostHooks, "sessionCompress">;
  config?: Pick<HostConfig, "compression">;
}

/** Options of {@link CompactionSession}. Give `host`, or `engine` (with `hooks` to get events). */
export interface CompactionSessionOptions {
  host?: CompactionSessionHost;
  engine?: ContextEngine;
  store: SessionStore;
  /** Resume this session (created with this id when the store does not have it); default a new session. */
  sessionId?: string;
  platform: string;
  title?: string | null;
  hooks?: Pick<HostHooks, "sessionCompress">;
  /** Overrides `compression.in_place` (default: the host's config, else the engine's, else true). */
  inPlace?: boolean;
  /**
   * The Codex app-server thread of this conversation. Needed when the engine's model runs with
   * `api_mode: codex_app_server`: compaction is then delegated to it and the transcript is never rewritten.
   */
  appServerThread?: AppServerThread;
}

/** Options of {@link CompactionSession.maybeCompress}. */
export interface MaybeCompressOptions {
  /** The current prompt tokens (default: what the engine last saw). */
  promptTokens?: number;
  /** Manual compaction: skip `shouldCompress` (and the engine's cooldowns); on an app-server thread, delegate and wait. */
  force?: boolean;
  focusTopic?: string;
  /**
   * Cancels the compaction (e.g. `AbortSignal.timeout(ms)` bounds it): the call returns `aborted` as soon
   * as it fires, even when the engine ignores it, and a result the engine delivers later is dropped.
   */
  signal?: AbortSignal;
}

/** `not_needed`: below the trigger; `aborted`: the engine kept the conversation unchanged. */
export type CompactionOutcome = "compressed" | "not_needed" | "aborted";

/** What one {@link CompactionSession.maybeCompress} call did. */
export interface CompactionResult {
  outcome: CompactionOutcome;
  /** The session id after the call (a new one after a rotation). */
  sessionId: string;
  /** The id before a rotation; "" otherwise. */
  oldSessionId: string;
  inPlace: boolean;
  /** The session's compression count after the call. */
  compressionCount: number;
  messagesBefore: number;
  messagesAfter: number;
  compaction?: CompactionRecord;
  /** The engine's `lastCompression` report of this call, when it keeps one. */
  report?: CompressionReport;
  /** The `session:compress` payload that was emitted. */
  event?: SessionCompressEvent;
  /** "Session compressed N times — accuracy may degrade." after 2+ compactions. */
  warning?: string;
  /** For an aborted compaction: "No messages were dropped — conversation is unchanged". */
  notice?: string;
  /** Why it aborted, when the engine said. */
  reason?: string;
  /** A `session:compress` listener threw (the compaction itself was saved). */
  hookError?: string;
}

/** One conversation bound to a (synchronous) store and an engine; {@link CompactionSessionAsync} takes a store that may answer asynchronously. */
export class CompactionSession extends CompactionSessionBase {
  readonly store: SessionStore;
  protected readonly anyStore: SessionStore;

  constructor(options: CompactionSessionOptions) {
    const resolved = resolveSessionOptions(options);
    const existing = options.sessionId === undefined ? undefined : options.store.getSession(options.sessionId);
    const session = existing ?? options.store.createSession({ id: options.sessionId, platform: options.platform, title: options.title ?? null });
    super(resolved, session);
    this.store = options.store;
    this.anyStore = options.store;
  }

  /** The current session's record. */
  session(): SessionRecord {
    return this.store.getSession(this.currentId)!;
  }

  /** Appends turns to the conversation; returns their row ids. */
  append(messages: readonly ChatMessage[]): number[] {
    return this.store.appendMessages(this.currentId, messages);
  }

  /** The current message list, as the next request should send it. */
  messages(): ChatMessage[] {
    return this.store.activeMessages(this.currentId);
  }

  /**
   * Logs a compaction the Codex app-server did on its own thread (native mode) and emits
   * `session:compress`; the local transcript is left as it is.
   */
  recordAppServerCompaction(): CompactionResult {
    const count = this.store.activeRows(this.currentId).length;
    const compaction = this.store.recordCompactionBoundary(this.currentId, appServerBoundaryInfo({ trigger: "auto", messageCount: count, hostStarted: false }));
    return this.finish(this.inPlaceEvent(this.session().compressionCount), compaction, count, count, undefined);
  }

  /** Undoes the latest in-place compaction of the current session (undefined when there is none). */
  undoLastCompaction(): UndoResult | undefined {
    const result = this.store.undoLastCompaction(this.currentId);
    this.lastCompactionInPlace = this.session().lastCompactionInPlace;
    return result;
  }
}
