/**
 * What {@link CompactionSession} (over a synchronous store) and {@link CompactionSessionAsync} (over a
 * store that may answer asynchronously, e.g. PostgreSQL) share: the compaction itself, written once
 * against {@link SessionStoreAsync} (a synchronous store is one: awaiting its values changes nothing).
 */
import type { CompressionReport } from "../compressor/report.js";
import { findLatestSummary } from "../compressor/earlierSummaries.js";
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import { HYGIENE_ABORT_NOTICE } from "../gateway/hygiene.js";
import type { CompactionTrigger, HostHooks, RouteCompaction, RouteHooks, ServerCompactionBoundary, ServerThread, SessionCompressEvent } from "../host/hooks.js";
import { messagesChanged } from "../messages/changed.js";
import type { ChatMessage } from "../messages/schema.js";
import { builtinRouteHooks, defaultRouteHooks } from "../routes/builtin.js";
import { CompactionConflictError, DEFAULT_SESSION_SCOPE, SessionStoreError, type CompactionRecord, type SessionRecord, type SessionStoreAsync, type StoredMessage } from "../store/types.js";
import type { CompactionResult, CompactionSessionOptions, MaybeCompressOptions } from "./types.js";
import { engineOutputProblem } from "./engineOutput.js";
import { InvalidEngineOutputError } from "../engine/invalidOutput.js";
import { restoreCompactionRequest, takeCompactionRequest } from "../engine/compactContextTool.js";
import { lastCompactionOf } from "../engine/lastCompaction.js";
import { promptTokensOf } from "../engine/sessionUsage.js";
import { compactionNoticeEnabled, PendingCompactionNotice, requestedCompressOptions } from "./compactionNotice.js";
import { prepareInBackground } from "./backgroundPreparation.js";
import { compressionCountWarning } from "./warnings.js";
import { OutgoingRequestTracker } from "./outgoingRequest.js";
import { storeToolPairRepair } from "./toolPairRepair.js";
import { ActiveRows } from "./activeRows.js";

function isReport(value: unknown): value is CompressionReport {
  return typeof value === "object" && value !== null && typeof (value as { aborted?: unknown }).aborted === "boolean";
}

/**
 * The engine's report of its last compaction of `sessionId` (`lastCompressionOf`, when it keeps them per
 * session, as the built-in compressor does), else of its last compaction of any session (`lastCompression`).
 */
function lastReportOf(engine: ContextEngine, sessionId: string): CompressionReport | undefined {
  const perSession = (engine as { lastCompressionOf?: unknown }).lastCompressionOf;
  const report = typeof perSession === "function" ? (perSession as (id: string) => unknown).call(engine, sessionId) : (engine as { lastCompression?: unknown }).lastCompression;
  return isReport(report) ? report : undefined;
}

function engineInPlace(engine: ContextEngine): boolean | undefined {
  const value = (engine as { compression?: { in_place?: unknown } }).compression?.in_place;
  return typeof value === "boolean" ? value : undefined;
}

/** The route hooks an engine carries (the built-in compressor does), if any. */
function engineRoutes(engine: ContextEngine): RouteHooks | undefined {
  const routes = (engine as { routes?: unknown }).routes;
  return typeof routes === "object" && routes !== null && "sessionCompaction" in routes ? (routes as RouteHooks) : undefined;
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

/** The reason of a compaction left to the worker that is compacting the session already. */
export const COMPACTING_ELSEWHERE = "another worker is compacting this session; nothing was written";

/** What every result of one compaction attempt starts from. */
interface CompactionBase {
  sessionId: string;
  oldSessionId: string;
  inPlace: boolean;
  messagesBefore: number;
  messagesAfter: number;
}

const CHANGED_WHILE_COMPACTING = "the conversation changed while it was being compacted (another compaction or an undo finished first); nothing was written";


/** The engine, hooks and modes a session runs with, resolved from its options. */
export interface ResolvedSessionOptions {
  engine: ContextEngine;
  hooks: Pick<HostHooks, "sessionCompress"> | undefined;
  platform: string;
  inPlace: boolean;
  /** The route hooks asked whether a route takes a compaction over. */
  routes: RouteHooks;
  serverThread: ServerThread | undefined;
  /** Append the notice after a compaction to the next user turn. */
  compactionNotice: boolean;
}

/** Checks `options` and resolves the engine, hooks and modes (the store is the caller's business). */
export function resolveSessionOptions(options: Omit<CompactionSessionOptions, "store">): ResolvedSessionOptions {
  const engine = options.host?.engine ?? options.engine;
  if (!isContextEngine(engine)) throw new Error("CompactionSession: give `host` (with an engine) or `engine`");
  if (typeof options.platform !== "string" || options.platform === "") throw new Error("CompactionSession: `platform` must be a non-empty string");
  return {
    engine,
    hooks: options.hooks ?? options.host?.hooks,
    platform: options.platform,
    inPlace: options.inPlace ?? options.host?.config?.compression.in_place ?? engineInPlace(engine) ?? true,
    routes:
      options.routes ??
      options.host?.hooks?.routes ??
      (options.host?.config ? builtinRouteHooks(options.host.config) : undefined) ??
      engineRoutes(engine) ??
      defaultRouteHooks(),
    serverThread: options.appServerThread,
    compactionNotice: compactionNoticeEnabled(options, engine),
  };
}

/** How a compaction the model's server did is logged: a boundary whose report carries it under `appServer` (the stored key). */
export function serverBoundaryInfo(boundary: ServerCompactionBoundary): { report: { appServer: ServerCompactionBoundary } } {
  return { report: { appServer: boundary } };
}

/** The scope a session opened with `options` gets: its own `scope`, else its host's. */
export function sessionScopeOf(options: Pick<CompactionSessionOptions, "scope" | "host">): string | undefined {
  return options.scope ?? options.host?.scope;
}

/**
 * `session` when it may be resumed under `scope` (default "default"): a stored session of another
 * scope is someone else's conversation, and resuming it throws.
 */
export function checkScope(session: SessionRecord | undefined, scope: string | undefined): SessionRecord | undefined {
  const wanted = scope ?? DEFAULT_SESSION_SCOPE;
  if (session !== undefined && session.scope !== wanted) {
    throw new SessionStoreError(`CompactionSession: session '${session.id}' belongs to scope '${session.scope}', not '${wanted}'`);
  }
  return session;
}

/** One conversation bound to a store and an engine: the state and the compaction both session classes share. */
export abstract class CompactionSessionBase {
  readonly engine: ContextEngine;
  readonly platform: string;
  /** True: compact under the same id; false: rotate to a child session. */
  readonly inPlace: boolean;
  /** Mode of the latest compaction (the gateway's mode-independent value); null before any. */
  lastCompactionInPlace: boolean | null;
  protected readonly hooks: Pick<HostHooks, "sessionCompress"> | undefined;
  /** The route hooks asked, before each compaction, whether a route takes it over. */
  protected readonly routes: RouteHooks;
  protected readonly serverThread: ServerThread | undefined;
  protected currentId: string;
  /** The store as the shared code uses it: every call awaited. */
  protected abstract readonly anyStore: SessionStoreAsync;

  protected constructor(resolved: ResolvedSessionOptions, session: SessionRecord) {
    this.engine = resolved.engine;
    this.platform = resolved.platform;
    this.hooks = resolved.hooks;
    this.inPlace = resolved.inPlace;
    this.routes = resolved.routes;
    this.serverThread = resolved.serverThread;
    this.currentId = session.id;
    this.scope = session.scope;
    this.lastCompactionInPlace = session.lastCompactionInPlace;
    this.notice = new PendingCompactionNotice(resolved.compactionNotice);
  }

  /** What the last request sent and what the reported usage covers: the estimate of the next one. */
  private readonly outgoing = new OutgoingRequestTracker();

  /** The active rows as last read, brought up to date by reading what was stored since. */
  private readonly active = new ActiveRows();

  /** The notice after the latest compaction, until a user turn is appended (`compression.compaction_notice`). */
  protected readonly notice: PendingCompactionNotice;

  /** Whose conversation it is: the engine's tools called through {@link handleToolCall} answer from this scope only. */
  readonly scope: string;

  /** The session the engine was told of (`onSessionStart`), with the promise of that call. */
  private started: { sessionId: string; done: Promise<void> } | undefined;

  /**
   * Starts the current session in the engine (`onSessionStart` with the platform and scope) once, before
   * the session's first compaction or tool call, so an engine that keeps its own sessions (lcm) knows whose it is.
   */
  protected startInEngine(): Promise<void> {
    const sessionId = this.currentId;
    if (this.started?.sessionId !== sessionId) {
      this.started = { sessionId, done: Promise.resolve(this.engine.onSessionStart(sessionId, { platform: this.platform, scope: this.scope })) };
    }
    return this.started.done;
  }

  /**
   * Runs one of the engine's tools for this conversation: the engine is told the session and its scope
   * (the agent's arguments cannot change them).
   */
  async handleToolCall(name: string, args: unknown): Promise<string> {
    await this.startInEngine();
    const sessionId = this.currentId;
    return this.engine.handleToolCall(name, args, { sessionId, scope: this.scope });
  }

  /** The current session id (changes only on a rotation). */
  get sessionId(): string {
    return this.currentId;
  }

  /**
   * Compresses when the engine says so (or `force`): writes the compacted list back (followed by any
   * turns appended while the engine ran), emits `session:compress`, and says what happened. Below the
   * trigger it lets the engine prepare the summary in the background (`preparation`). An aborted
   * or cancelled compaction, or one overtaken by another compaction or an undo, writes nothing.
   */
  async maybeCompress(options: MaybeCompressOptions = {}): Promise<CompactionResult> {
    await this.startInEngine();
    const sessionId = this.currentId;
    // the agent asked for it (compact_context), through this worker or another: compact now, with its focus
    // the rows stored since the last call are read, not the whole conversation (at once with the request)
    const [request, { rows: startRows, messages: before }] = await Promise.all([takeCompactionRequest(this.engine, sessionId), this.active.read(this.anyStore, sessionId)]);
    if (request !== undefined) options = requestedCompressOptions(options, request);
    const base = { sessionId, oldSessionId: "", inPlace: this.inPlace, messagesBefore: before.length, messagesAfter: before.length };
    const count = async () => (await this.anyStore.getSession(this.currentId))!.compressionCount;
    // the request about to go out: past the window less the output reserve it is compacted first, whatever the trigger says
    const outgoing = this.outgoing.estimate(this.engine, before, options.promptTokens, promptTokensOf(this.engine, sessionId));
    if (before.length === 0 || (options.force !== true && !outgoing.overflows && !this.engine.shouldCompress(options.promptTokens, sessionId))) {
      // below the trigger: past the preparation point the engine starts the summary in the background
      const preparation = prepareInBackground({ engine: this.engine, routes: this.routes, serverThread: this.serverThread, messages: before, sessionId, promptTokens: options.promptTokens, tools: options.tools });
      this.outgoing.willSend(promptTokensOf(this.engine, sessionId), before.length, false);
      return { ...base, outcome: "not_needed", compressionCount: await count(), ...(preparation ? { preparation } : {}) };
    }
    if (outgoing.overflows && options.promptTokens === undefined) options = { ...options, promptTokens: outgoing.tokens };
    const routed = this.routes.sessionCompaction.call({ model: this.engine.model, serverThread: this.serverThread });
    if (routed !== undefined) return this.compressOnServer(routed, before, options, outgoing.overflows);
    // one worker compacts a session at a time (when the store can say so); the others leave it be
    const release = await this.anyStore.leaseCompaction?.(sessionId);
    if (release === undefined && this.anyStore.leaseCompaction !== undefined) {
      // the agent's request waits for the next boundary (the other worker's compaction does not carry its focus)
      if (request !== undefined) await restoreCompactionRequest(this.engine, sessionId, request);
      return { ...base, outcome: "aborted", compressionCount: await count(), notice: HYGIENE_ABORT_NOTICE, reason: `${COMPACTING_ELSEWHERE} (session '${sessionId}')` };
    }
    try {
      // under the lease, compact what the previous holder left (what was stored since is read), not what was read before it
      const result = await this.compressLeased(sessionId, release === undefined ? startRows : (await this.active.read(this.anyStore, sessionId)).rows, options);
      this.outgoing.willSend(promptTokensOf(this.engine, sessionId), result.messagesAfter, result.outcome === "compressed");
      if (request === undefined) return result;
      if (result.reason?.startsWith(CHANGED_WHILE_COMPACTING) === true) {
        await restoreCompactionRequest(this.engine, sessionId, request);
        return result;
      }
      return { ...result, agentRequest: request };
    } finally {
      await release?.();
    }
  }

  /** The compaction itself, once this caller may compact the session. */
  private async compressLeased(sessionId: string, startRows: readonly StoredMessage[], options: MaybeCompressOptions): Promise<CompactionResult> {
    const before = startRows.map((row) => row.message);
    const base: CompactionBase = { sessionId, oldSessionId: "", inPlace: this.inPlace, messagesBefore: before.length, messagesAfter: before.length };
    const count = async () => (await this.anyStore.getSession(this.currentId))!.compressionCount;
    if (before.length === 0) return { ...base, outcome: "not_needed", compressionCount: await count() };

    const previousReport = lastReportOf(this.engine, sessionId);
    const previousCompaction = lastCompactionOf(this.engine, sessionId);
    const cancelled = async (signal: AbortSignal): Promise<CompactionResult> => ({
      ...base,
      outcome: "aborted",
      compressionCount: await count(),
      notice: HYGIENE_ABORT_NOTICE,
      reason: `compaction cancelled: ${abortReasonText(signal)}`,
    });
    if (options.signal?.aborted) return await cancelled(options.signal);
    // An engine that ignores the signal is not waited for after it fires; its late result is dropped.
    // a host's engine refuses an output that breaks provider rules (context.validate_output): the same abort as below
    const compressing = Promise.resolve(
      this.engine.compress(before, {
        sessionId,
        ...(options.promptTokens === undefined ? {} : { currentTokens: options.promptTokens }),
        ...(options.focusTopic === undefined ? {} : { focusTopic: options.focusTopic }),
        ...(options.force === undefined ? {} : { force: options.force }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
      }),
    ).catch((error: unknown) => {
      if (error instanceof InvalidEngineOutputError) return error;
      throw error;
    });
    const settled = await untilAborted(compressing, options.signal);
    if (settled === ABORTED) return await cancelled(options.signal!);
    const output = settled;
    const fresh = lastReportOf(this.engine, sessionId);
    const report = fresh !== undefined && fresh !== previousReport ? fresh : undefined;
    const aborted = async (reason: string | undefined): Promise<CompactionResult> => ({
      ...base,
      outcome: "aborted",
      compressionCount: await count(),
      notice: HYGIENE_ABORT_NOTICE,
      ...(report ? { report } : {}),
      ...(reason ? { reason } : {}),
    });
    if (output instanceof InvalidEngineOutputError) return await aborted(output.message);
    // nothing compacted, but tool pairs repaired: the repair is written once, not made again every turn
    if (report?.aborted === true && report.repairedToolPairs > 0 && this.currentId === sessionId && !options.signal?.aborted && engineOutputProblem(this.engine.name, before, output) === undefined) {
      const messagesAfter = await storeToolPairRepair(this.anyStore, sessionId, startRows, output);
      if (messagesAfter !== undefined) return { ...(await aborted(report.abortReason)), messagesAfter, repairedToolPairs: report.repairedToolPairs };
    }
    if (report?.aborted === true || (Array.isArray(output) && output.length === 0) || !messagesChanged(before, output)) return await aborted(report?.abortReason);
    // A plugin engine's list is checked like the built-in's before it becomes the stored conversation.
    const invalid = engineOutputProblem(this.engine.name, before, output);
    if (invalid !== undefined) return await aborted(invalid);
    // The engine may finish after the caller gave up (a summarizer that ignores the signal): keep the list.
    if (options.signal?.aborted) return await cancelled(options.signal);
    // Turns appended while the engine ran (here or by another process on the same store) follow the
    // compacted list; the store checks and writes against the rows read above in one transaction, and
    // refuses when another compaction (or an undo) got there first.
    if (this.currentId !== sessionId) return await aborted(CHANGED_WHILE_COMPACTING);
    const info = { summary: findLatestSummary(output) ?? null, report: report ?? null, compactedRowIds: startRows.map((row) => row.id) };
    let compaction: CompactionRecord;
    let event: SessionCompressEvent;
    try {
      if (this.inPlace) {
        compaction = await this.anyStore.archiveAndReplace(sessionId, output, info);
        event = { platform: this.platform, session_id: sessionId, old_session_id: "", in_place: true, compression_count: await count() };
      } else {
        const rotated = await this.anyStore.rotateSession(sessionId, output, info);
        compaction = rotated.compaction;
        this.currentId = rotated.session.id;
        event = { platform: this.platform, session_id: rotated.session.id, old_session_id: sessionId, in_place: false, compression_count: rotated.session.compressionCount };
      }
    } catch (error) {
      if (error instanceof CompactionConflictError) return await aborted(CHANGED_WHILE_COMPACTING);
      throw error;
    }
    const compactionNotice = this.notice.afterCompaction(this.engine, previousCompaction, sessionId);
    return { ...this.finish(event, compaction, before.length, compaction.messagesAfter, report), ...(compactionNotice === undefined ? {} : { compactionNotice }) };
  }

  /**
   * A route took the compaction over (its server owns the thread's context): the route decides whether
   * to compact now, its server compacts, and the session logs the boundary; the transcript stays as it is.
   */
  private async compressOnServer(route: RouteCompaction, before: readonly ChatMessage[], options: MaybeCompressOptions, overflows = false): Promise<CompactionResult> {
    const sessionId = this.currentId;
    const base = { sessionId, oldSessionId: "", inPlace: true, messagesBefore: before.length, messagesAfter: before.length };
    const count = async () => (await this.anyStore.getSession(sessionId))!.compressionCount;
    const trigger: CompactionTrigger = options.force === true ? "manual" : "auto";
    const thresholdReached = trigger === "auto" && (overflows || this.engine.shouldCompress(options.promptTokens, sessionId));
    if (route.decide(trigger, thresholdReached) === "skip") return { ...base, outcome: "not_needed", compressionCount: await count() };
    if (options.signal?.aborted) return { ...base, outcome: "aborted", compressionCount: await count(), notice: HYGIENE_ABORT_NOTICE, reason: `compaction cancelled: ${abortReasonText(options.signal)}` };
    const boundary = await route.compact({ sessionId, trigger, messages: before });
    const compaction = await this.anyStore.recordCompactionBoundary(this.currentId, serverBoundaryInfo(boundary));
    return this.finish(this.inPlaceEvent(await count()), compaction, before.length, before.length, undefined);
  }

  /** The `session:compress` payload of an in-place compaction of the current session. */
  protected inPlaceEvent(compressionCount: number): SessionCompressEvent {
    return { platform: this.platform, session_id: this.currentId, old_session_id: "", in_place: true, compression_count: compressionCount };
  }

  /** After a written compaction: mode, warning, the `session:compress` event, and the result. */
  protected finish(event: SessionCompressEvent, compaction: CompactionRecord, messagesBefore: number, messagesAfter: number, report: CompressionReport | undefined): CompactionResult {
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

  protected emit(event: SessionCompressEvent): string | undefined {
    try {
      this.hooks?.sessionCompress.call(event);
      return undefined;
    } catch (error) {
      return `a session:compress listener failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
