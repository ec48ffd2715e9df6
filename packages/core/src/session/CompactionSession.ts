/**
 * The thin stateful shell a host application keeps per conversation: it appends turns to the session
 * store, asks the engine whether and how to compress, writes the result back (in place under the same
 * id, or by rotation to a child session), and emits `session:compress` (SPEC §3.1). On a Codex
 * app-server thread (SPEC §3.5) it delegates to the app-server instead and only logs the boundary.
 */
import { isDeepStrictEqual } from "node:util";
import {
  appServerCompactionPolicy,
  compactViaAppServer,
  isAppServerSession,
  type AppServerAutoMode,
  type AppServerCompactionBoundary,
  type AppServerThread,
} from "../codex/appServer.js";
import type { CompressionReport } from "../compressor/report.js";
import { findLatestSummary } from "../compressor/summaryMessage.js";
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import { HYGIENE_ABORT_NOTICE } from "../gateway/hygiene.js";
import type { HostConfig } from "../config/schema.js";
import type { HostHooks, SessionCompressEvent } from "../host/hooks.js";
import type { ChatMessage } from "../messages/schema.js";
import { CompactionConflictError, type CompactionRecord, type SessionRecord, type SessionStore, type UndoResult } from "../store/types.js";
import { engineOutputProblem } from "./engineOutput.js";
import { compressionCountWarning } from "./warnings.js";

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

function isReport(value: unknown): value is CompressionReport {
  return typeof value === "object" && value !== null && typeof (value as { aborted?: unknown }).aborted === "boolean";
}

function lastReportOf(engine: ContextEngine): CompressionReport | undefined {
  const report = (engine as { lastCompression?: unknown }).lastCompression;
  return isReport(report) ? report : undefined;
}

function engineInPlace(engine: ContextEngine): boolean | undefined {
  const value = (engine as { compression?: { in_place?: unknown } }).compression?.in_place;
  return typeof value === "boolean" ? value : undefined;
}

function engineAppServerAuto(engine: ContextEngine): AppServerAutoMode | undefined {
  const value = (engine as { compression?: { codex_app_server_auto?: unknown } }).compression?.codex_app_server_auto;
  return value === "native" || value === "hermes" || value === "off" ? value : undefined;
}

/** Why `signal` was aborted, in words. */
function abortReasonText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" && reason !== "" ? reason : "the caller cancelled the compaction";
}

const ABORTED = Symbol("aborted");

/**
 * `work`'s value, or {@link ABORTED} as soon as `signal` fires (whether or not `work` ever settles). A
 * rejection of `work` after that is swallowed; before it, it is thrown.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (signal === undefined) return work;
  let onAbort!: () => void;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

const CHANGED_WHILE_COMPACTING = "the conversation changed while it was being compacted (another compaction or an undo finished first); nothing was written";

/** One conversation bound to a store and an engine. */
export class CompactionSession {
  readonly engine: ContextEngine;
  readonly store: SessionStore;
  readonly platform: string;
  /** True: compact under the same id; false: rotate to a child session. */
  readonly inPlace: boolean;
  /** Mode of the latest compaction (the gateway's mode-independent value); null before any. */
  lastCompactionInPlace: boolean | null;
  /** `compression.codex_app_server_auto` (host config, else the engine's, else native). */
  readonly appServerAuto: AppServerAutoMode;
  private readonly hooks: Pick<HostHooks, "sessionCompress"> | undefined;
  private readonly appServerThread: AppServerThread | undefined;
  private currentId: string;

  constructor(options: CompactionSessionOptions) {
    const engine = options.host?.engine ?? options.engine;
    if (!isContextEngine(engine)) throw new Error("CompactionSession: give `host` (with an engine) or `engine`");
    if (typeof options.platform !== "string" || options.platform === "") throw new Error("CompactionSession: `platform` must be a non-empty string");
    this.engine = engine;
    this.store = options.store;
    this.platform = options.platform;
    this.hooks = options.hooks ?? options.host?.hooks;
    this.inPlace = options.inPlace ?? options.host?.config?.compression.in_place ?? engineInPlace(engine) ?? true;
    this.appServerAuto = options.host?.config?.compression.codex_app_server_auto ?? engineAppServerAuto(engine) ?? "native";
    this.appServerThread = options.appServerThread;
    const existing = options.sessionId === undefined ? undefined : this.store.getSession(options.sessionId);
    const session = existing ?? this.store.createSession({ id: options.sessionId, platform: options.platform, title: options.title ?? null });
    this.currentId = session.id;
    this.lastCompactionInPlace = session.lastCompactionInPlace;
  }

  /** The current session id (changes only on a rotation). */
  get sessionId(): string {
    return this.currentId;
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
   * Compresses when the engine says so (or `force`): writes the compacted list back (followed by any
   * turns appended while the engine ran), emits `session:compress`, and says what happened. An aborted
   * or cancelled compaction, or one overtaken by another compaction or an undo, writes nothing.
   */
  async maybeCompress(options: MaybeCompressOptions = {}): Promise<CompactionResult> {
    const sessionId = this.currentId;
    const startRows = this.store.activeRows(sessionId);
    const before = startRows.map((row) => row.message);
    const base = { sessionId, oldSessionId: "", inPlace: this.inPlace, messagesBefore: before.length, messagesAfter: before.length };
    const count = () => this.store.getSession(this.currentId)!.compressionCount;
    if (before.length === 0 || (options.force !== true && !this.engine.shouldCompress(options.promptTokens, sessionId))) {
      return { ...base, outcome: "not_needed", compressionCount: count() };
    }
    if (isAppServerSession(this.engine.model)) return this.compressViaAppServer(before, options);

    const previousReport = lastReportOf(this.engine);
    const cancelled = (signal: AbortSignal): CompactionResult => ({
      ...base,
      outcome: "aborted",
      compressionCount: count(),
      notice: HYGIENE_ABORT_NOTICE,
      reason: `compaction cancelled: ${abortReasonText(signal)}`,
    });
    if (options.signal?.aborted) return cancelled(options.signal);
    // An engine that ignores the signal is not waited for after it fires; its late result is dropped.
    const settled = await untilAborted(
      this.engine.compress(before, {
        sessionId,
        ...(options.promptTokens === undefined ? {} : { currentTokens: options.promptTokens }),
        ...(options.focusTopic === undefined ? {} : { focusTopic: options.focusTopic }),
        ...(options.force === undefined ? {} : { force: options.force }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
      options.signal,
    );
    if (settled === ABORTED) return cancelled(options.signal!);
    const output = settled;
    const fresh = lastReportOf(this.engine);
    const report = fresh !== undefined && fresh !== previousReport ? fresh : undefined;
    const aborted = (reason: string | undefined): CompactionResult => ({
      ...base,
      outcome: "aborted",
      compressionCount: count(),
      notice: HYGIENE_ABORT_NOTICE,
      ...(report ? { report } : {}),
      ...(reason ? { reason } : {}),
    });
    if (output === before || report?.aborted === true || (Array.isArray(output) && output.length === 0) || isDeepStrictEqual(output, before)) return aborted(report?.abortReason);
    // A plugin engine's list is checked like the built-in's before it becomes the stored conversation.
    const invalid = engineOutputProblem(this.engine.name, before, output);
    if (invalid !== undefined) return aborted(invalid);
    // The engine may finish after the caller gave up (a summarizer that ignores the signal): keep the list.
    if (options.signal?.aborted) return cancelled(options.signal);
    // Turns appended while the engine ran (here or by another process on the same store) follow the
    // compacted list; the store checks and writes against the rows read above in one transaction, and
    // refuses when another compaction (or an undo) got there first.
    if (this.currentId !== sessionId) return aborted(CHANGED_WHILE_COMPACTING);
    const info = { summary: findLatestSummary(output) ?? null, report: report ?? null, compactedRowIds: startRows.map((row) => row.id) };
    let compaction: CompactionRecord;
    let event: SessionCompressEvent;
    try {
      if (this.inPlace) {
        compaction = this.store.archiveAndReplace(sessionId, output, info);
        event = { platform: this.platform, session_id: sessionId, old_session_id: "", in_place: true, compression_count: count() };
      } else {
        const rotated = this.store.rotateSession(sessionId, output, info);
        compaction = rotated.compaction;
        this.currentId = rotated.session.id;
        event = { platform: this.platform, session_id: rotated.session.id, old_session_id: sessionId, in_place: false, compression_count: rotated.session.compressionCount };
      }
    } catch (error) {
      if (error instanceof CompactionConflictError) return aborted(CHANGED_WHILE_COMPACTING);
      throw error;
    }
    return this.finish(event, compaction, before.length, compaction.messagesAfter, report);
  }

  /**
   * Logs a compaction the Codex app-server did on its own thread (native mode) and emits
   * `session:compress`; the local transcript is left as it is.
   */
  recordAppServerCompaction(): CompactionResult {
    const count = this.store.activeRows(this.currentId).length;
    const compaction = this.recordBoundary({ trigger: "auto", messageCount: count, hostStarted: false });
    return this.finish(this.inPlaceEvent(), compaction, count, count, undefined);
  }

  /** SPEC §3.5: manual `/compress` delegates and waits; automatic compaction follows `codex_app_server_auto`. */
  private async compressViaAppServer(before: readonly ChatMessage[], options: MaybeCompressOptions): Promise<CompactionResult> {
    const sessionId = this.currentId;
    const base = { sessionId, oldSessionId: "", inPlace: true, messagesBefore: before.length, messagesAfter: before.length };
    const count = () => this.store.getSession(sessionId)!.compressionCount;
    const trigger = options.force === true ? "manual" : "auto";
    const action = appServerCompactionPolicy(this.appServerAuto, trigger, trigger === "auto" && this.engine.shouldCompress(options.promptTokens, sessionId));
    if (action === "record_only" || action === "skip") return { ...base, outcome: "not_needed", compressionCount: count() };
    if (options.signal?.aborted) return { ...base, outcome: "aborted", compressionCount: count(), notice: HYGIENE_ABORT_NOTICE, reason: `compaction cancelled: ${abortReasonText(options.signal)}` };
    if (this.appServerThread === undefined) {
      throw new Error(
        `CompactionSession('${sessionId}'): the model runs on the Codex app-server (api_mode: codex_app_server), which owns the thread's context; ` +
          "give `appServerThread` so compaction can be delegated (the local transcript is never rewritten)",
      );
    }
    let compaction: CompactionRecord | undefined;
    await compactViaAppServer(this.appServerThread, before, { trigger, recordBoundary: (boundary) => void (compaction = this.recordBoundary(boundary)) });
    return this.finish(this.inPlaceEvent(), compaction!, before.length, before.length, undefined);
  }

  private recordBoundary(boundary: AppServerCompactionBoundary): CompactionRecord {
    return this.store.recordCompactionBoundary(this.currentId, { report: { appServer: boundary } });
  }

  private inPlaceEvent(): SessionCompressEvent {
    const compressionCount = this.store.getSession(this.currentId)!.compressionCount;
    return { platform: this.platform, session_id: this.currentId, old_session_id: "", in_place: true, compression_count: compressionCount };
  }

  /** After a written compaction: mode, warning, the `session:compress` event, and the result. */
  private finish(event: SessionCompressEvent, compaction: CompactionRecord, messagesBefore: number, messagesAfter: number, report: CompressionReport | undefined): CompactionResult {
    this.lastCompactionInPlace = event.in_place;
    const warning = compressionCountWarning(event.compression_count);
    const hookError = this.emit(event);
    return {
      outcome: "compressed",
      sessionId: this.currentId,
      oldSessionId: event.old_session_id,
      inPlace: event.in_place,
      compressionCount: event.compression_count,
      messagesBefore,
      messagesAfter,
      compaction,
      event,
      ...(report ? { report } : {}),
      ...(warning ? { warning } : {}),
      ...(hookError ? { hookError } : {}),
    };
  }

  /** Undoes the latest in-place compaction of the current session (undefined when there is none). */
  undoLastCompaction(): UndoResult | undefined {
    const result = this.store.undoLastCompaction(this.currentId);
    this.lastCompactionInPlace = this.session().lastCompactionInPlace;
    return result;
  }

  private emit(event: SessionCompressEvent): string | undefined {
    try {
      this.hooks?.sessionCompress.call(event);
      return undefined;
    } catch (error) {
      return `a session:compress listener failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
