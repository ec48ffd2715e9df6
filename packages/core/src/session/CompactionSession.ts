/**
 * The thin stateful shell a host application keeps per conversation: it appends turns to the session
 * store, asks the engine whether and how to compress, writes the result back (in place under the same
 * id, or by rotation to a child session), and emits `session:compress` (SPEC §3.1).
 */
import { isDeepStrictEqual } from "node:util";
import type { CompressionReport } from "../compressor/report.ts";
import { findLatestSummary } from "../compressor/summaryMessage.ts";
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.ts";
import { HYGIENE_ABORT_NOTICE } from "../gateway/hygiene.ts";
import type { HostConfig } from "../config/schema.ts";
import type { HostHooks, SessionCompressEvent } from "../host/hooks.ts";
import type { ChatMessage } from "../messages/schema.ts";
import type { CompactionRecord, SessionRecord, SessionStore, UndoResult } from "../store/types.ts";
import { compressionCountWarning } from "./warnings.ts";

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
}

/** Options of {@link CompactionSession.maybeCompress}. */
export interface MaybeCompressOptions {
  /** The current prompt tokens (default: what the engine last saw). */
  promptTokens?: number;
  /** Manual compaction: skip `shouldCompress` (and the engine's cooldowns). */
  force?: boolean;
  focusTopic?: string;
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

/** One conversation bound to a store and an engine. */
export class CompactionSession {
  readonly engine: ContextEngine;
  readonly store: SessionStore;
  readonly platform: string;
  /** True: compact under the same id; false: rotate to a child session. */
  readonly inPlace: boolean;
  /** Mode of the latest compaction (the gateway's mode-independent value); null before any. */
  lastCompactionInPlace: boolean | null;
  private readonly hooks: Pick<HostHooks, "sessionCompress"> | undefined;
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
   * Compresses when the engine says so (or `force`): writes the compacted list back, emits
   * `session:compress`, and says what happened. An aborted compaction writes nothing.
   */
  async maybeCompress(options: MaybeCompressOptions = {}): Promise<CompactionResult> {
    const sessionId = this.currentId;
    const before = this.store.activeMessages(sessionId);
    const base = { sessionId, oldSessionId: "", inPlace: this.inPlace, messagesBefore: before.length, messagesAfter: before.length };
    const count = () => this.store.getSession(this.currentId)!.compressionCount;
    if (before.length === 0 || (options.force !== true && !this.engine.shouldCompress(options.promptTokens))) {
      return { ...base, outcome: "not_needed", compressionCount: count() };
    }

    const previousReport = lastReportOf(this.engine);
    const output = await this.engine.compress(before, {
      ...(options.promptTokens === undefined ? {} : { currentTokens: options.promptTokens }),
      ...(options.focusTopic === undefined ? {} : { focusTopic: options.focusTopic }),
      ...(options.force === undefined ? {} : { force: options.force }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const fresh = lastReportOf(this.engine);
    const report = fresh !== undefined && fresh !== previousReport ? fresh : undefined;
    if (output === before || report?.aborted === true || output.length === 0 || isDeepStrictEqual(output, before)) {
      return {
        ...base,
        outcome: "aborted",
        compressionCount: count(),
        notice: HYGIENE_ABORT_NOTICE,
        ...(report ? { report } : {}),
        ...(report?.abortReason ? { reason: report.abortReason } : {}),
      };
    }

    const info = { summary: findLatestSummary(output) ?? null, report: report ?? null };
    let compaction: CompactionRecord;
    let event: SessionCompressEvent;
    if (this.inPlace) {
      compaction = this.store.archiveAndReplace(sessionId, output, info);
      event = { platform: this.platform, session_id: sessionId, old_session_id: "", in_place: true, compression_count: count() };
    } else {
      const rotated = this.store.rotateSession(sessionId, output, info);
      compaction = rotated.compaction;
      this.currentId = rotated.session.id;
      event = { platform: this.platform, session_id: rotated.session.id, old_session_id: sessionId, in_place: false, compression_count: rotated.session.compressionCount };
    }
    this.lastCompactionInPlace = this.inPlace;
    const warning = compressionCountWarning(event.compression_count);
    const hookError = this.emit(event);
    return {
      outcome: "compressed",
      sessionId: this.currentId,
      oldSessionId: event.old_session_id,
      inPlace: this.inPlace,
      compressionCount: event.compression_count,
      messagesBefore: before.length,
      messagesAfter: output.length,
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
