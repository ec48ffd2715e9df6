/**
 * The compressor's memory between compress() calls, kept per session: the last summary, the
 * summary-failure cooldown and the ineffective/fallback streaks. One host may serve several
 * conversations with one engine, so nothing here is shared between sessions; with a session store
 * attached, an identified session's state survives a restart, and it is forgotten when the session ends.
 */
import { z } from "zod";
import { lazy } from "../lazy.js";
import { cooldownSeconds, type SummaryFailure } from "../summarizers/failures.js";
import { errorText } from "../errorText.js";
import type { ModelInfo } from "../engine/types.js";
import type { PruneMemo } from "./pruneToolOutputs.js";
import type { CompressionReport } from "./report.js";
import { SessionPromptTokens } from "../engine/sessionUsage.js";
import type { LastCompaction } from "../engine/lastCompaction.js";
import { SessionStoreError, type AwaitableMethods, type EngineStateStore } from "../store/types.js";

/** Consecutive ineffective compactions (or fallback summaries) after which automatic compaction pauses. */
export const PAUSE_AFTER_STREAK = 2;

/** The key of calls that name no session while no single open session says which one they belong to. */
export const DEFAULT_SESSION = "";

/** What the compressor remembers about one session. */
export interface CompressorSessionState {
  /** The last summary written in this session; handed to the summarizer to update on the next compaction. */
  previousSummary: string | undefined;
  /** The first summary written in this session (the task's setup), which later summaries keep ahead of the middle of the history. */
  firstSummary?: string | undefined;
  /** Compactions in a row whose next real usage was still at or above the threshold. */
  ineffectiveStreak: number;
  /** Compactions in a row that used the fallback summarizer. */
  fallbackStreak: number;
  /** What paused automatic compaction, if anything. */
  pausedBy: "ineffective" | "fallback" | null;
  /** Epoch ms until which the primary summarizer is not asked (0: no cooldown). */
  cooldownUntil: number;
  lastFailure: SummaryFailure | undefined;
  consecutiveTimeouts: number;
  awaitingUsageAfterCompaction: boolean;
}

/** Which session a call works on, and whether that is certain (the call named it, or only one session is open). */
export interface ResolvedSession {
  id: string;
  identified: boolean;
}

const storedStateSchema = lazy(() => z.object({
  previousSummary: z.string().optional(),
  firstSummary: z.string().optional(),
  ineffectiveStreak: z.number().int().nonnegative(),
  fallbackStreak: z.number().int().nonnegative(),
  pausedBy: z.enum(["ineffective", "fallback"]).nullable(),
  cooldownUntil: z.number(),
  lastFailure: z
    .object({
      action: z.enum(["abort", "fallback"]),
      kind: z.enum(["auth", "quota", "network", "timeout", "server", "empty", "invalid", "malformed", "aborted", "other"]),
      reason: z.string(),
    })
    .optional(),
  consecutiveTimeouts: z.number().int().nonnegative(),
  awaitingUsageAfterCompaction: z.boolean(),
}));

/** A session state with nothing remembered. */
export function freshSessionState(): CompressorSessionState {
  return {
    previousSummary: undefined,
    ineffectiveStreak: 0,
    fallbackStreak: 0,
    pausedBy: null,
    cooldownUntil: 0,
    lastFailure: undefined,
    consecutiveTimeouts: 0,
    awaitingUsageAfterCompaction: false,
  };
}

/** Lifts the automatic-compaction pause and its streaks (a new model, a manual compaction). */
export function liftPause(state: CompressorSessionState): void {
  Object.assign(state, { pausedBy: null, ineffectiveStreak: 0, fallbackStreak: 0 });
}

/** The ineffective streak starts over and its pause is lifted (real progress, a re-sized window); a fallback pause stays. */
export function liftIneffectivePause(state: CompressorSessionState): void {
  state.ineffectiveStreak = 0;
  if (state.pausedBy === "ineffective") state.pausedBy = null;
}

/**
 * The session after a model update: another model, provider, endpoint or API mode lifts the pause and both
 * streaks; the same model re-sized (a new context length from the runtime) only starts the ineffective
 * streak over, keeping the summary-failure streak of the futility guard.
 */
export function recordModelUpdate(state: CompressorSessionState, before: ModelInfo, after: ModelInfo): void {
  const sameRuntime = before.model === after.model && before.provider === after.provider && before.baseUrl === after.baseUrl && before.apiMode === after.apiMode;
  if (sameRuntime) liftIneffectivePause(state);
  else liftPause(state);
}

/** A compaction that could not shrink anything counts as ineffective, so a caller looping on shouldCompress() cannot spin. */
export function countIneffective(state: CompressorSessionState): void {
  state.ineffectiveStreak++;
  if (state.ineffectiveStreak >= PAUSE_AFTER_STREAK) state.pausedBy = "ineffective";
}

/**
 * Real usage arrived: the first after a compaction says whether it was effective; any usage below the
 * threshold is real progress (the streak starts over and an ineffective pause is lifted).
 */
export function recordRealUsage(state: CompressorSessionState, aboveThreshold: boolean): void {
  if (state.awaitingUsageAfterCompaction) {
    state.awaitingUsageAfterCompaction = false;
    if (aboveThreshold) countIneffective(state);
  }
  if (!aboveThreshold) liftIneffectivePause(state);
}

/** A summary failure starts a cooldown of the primary summarizer; returns its seconds (0 for a cancelled call). */
export function recordSummaryFailure(state: CompressorSessionState, failure: SummaryFailure, nowMs: number): number {
  if (failure.kind === "aborted") return 0;
  state.consecutiveTimeouts = failure.kind === "timeout" ? state.consecutiveTimeouts + 1 : 0;
  const seconds = cooldownSeconds(failure, state.consecutiveTimeouts);
  state.cooldownUntil = nowMs + seconds * 1000;
  state.lastFailure = failure;
  return seconds;
}

/** A compaction written with the fallback summary: two in a row pause automatic compaction. */
export function countFallback(state: CompressorSessionState): void {
  state.fallbackStreak++;
  if (state.fallbackStreak >= PAUSE_AFTER_STREAK) state.pausedBy = "fallback";
}

/** A compaction written with the primary summarizer's summary: failures and cooldown are over. */
export function recordSummarySuccess(state: CompressorSessionState): void {
  Object.assign(state, { fallbackStreak: 0, consecutiveTimeouts: 0, cooldownUntil: 0, lastFailure: undefined });
}

/**
 * The session after a compaction that changed the conversation: its summary (when one was written) is
 * the one to update next time, and it waits for the real usage of the result — unless the result's own
 * estimate is `stillAbove` the threshold: then it is ineffective at once (a host re-checking estimates
 * cannot loop), and the real usage only lifts the pause, it does not count the compaction again.
 */
export function recordCompactionInSession(state: CompressorSessionState, summary: string | undefined, stillAbove: boolean): void {
  if (summary !== undefined) {
    state.previousSummary = summary;
    state.firstSummary ??= summary;
  }
  if (stillAbove) countIneffective(state);
  state.awaitingUsageAfterCompaction = !stillAbove;
}

/**
 * Streaks and cooldown after a summary was written. A fallback summary counts toward the fallback pause
 * and, unless a cooldown is already running, starts one for the primary's failure; the primary's summary
 * ends failures and cooldown. Returns the seconds of a cooldown it started.
 */
export function recordSummaryOutcome(state: CompressorSessionState, outcome: { fallbackUsed: boolean; failure?: SummaryFailure | undefined }, inCooldown: boolean, nowMs: number): number | undefined {
  let seconds: number | undefined;
  if (outcome.fallbackUsed && outcome.failure) {
    if (!inCooldown) seconds = recordSummaryFailure(state, outcome.failure, nowMs);
    countFallback(state);
  } else {
    recordSummarySuccess(state);
  }
  return seconds;
}

/** A state read back from a store; undefined when it does not have the shape this version writes. */
export function parseStoredState(value: unknown): CompressorSessionState | undefined {
  const parsed = storedStateSchema().safeParse(value);
  if (!parsed.success) return undefined;
  return { ...parsed.data, previousSummary: parsed.data.previousSummary, lastFailure: parsed.data.lastFailure };
}

/** An engine-state store whose methods may answer with promises (a PostgreSQL store). */
export type EngineStateSource = AwaitableMethods<EngineStateStore>;

/** The engine-state part of `store`, when it has all of it. */
export function engineStateStoreOf(store: Partial<EngineStateSource> | undefined): EngineStateSource | undefined {
  if (store === undefined) return undefined;
  const { loadEngineState, saveEngineState, clearEngineState } = store;
  if (typeof loadEngineState !== "function" || typeof saveEngineState !== "function" || typeof clearEngineState !== "function") return undefined;
  return store as EngineStateSource;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * The per-session states of one engine. Calls that name their session use it; calls that do not use
 * the only open session (started and not yet ended), else the default session, which is never stored.
 * A store that answers synchronously (SQLite) is read when a session is first used; one that answers
 * with promises (PostgreSQL) is read at {@link start} and written in order per session, in the background.
 * A failed background write is warned about once per session (until a write of it succeeds again) and
 * stays to be done: the session's next write sends its whole state again, and {@link flush} retries it
 * once, rejecting when that fails too.
 */
export class CompressorSessions {
  private readonly states = new Map<string, CompressorSessionState>();
  private readonly open = new Set<string>();
  /** The JSON last written to the store, per session (unchanged states are not written again). */
  private readonly written = new Map<string, string>();
  private readonly store: EngineStateSource | undefined;
  /** The last write to an asynchronous store, per session (the next one waits for it). */
  private readonly writes = new Map<string, Promise<unknown>>();
  /** Sessions whose last background write failed: the error and how to send it again. */
  private readonly failed = new Map<string, { error: unknown; retry: () => unknown }>();
  /** How each session's conversation was last pruned (memory only, never stored). */
  private readonly prunings = new Map<string, PruneMemo>();
  /** The report of each session's last compaction (memory only): an engine serving several sessions at once keeps them apart. */
  private readonly reports = new Map<string, CompressionReport>();
  /** Each session's last compaction that changed its conversation, as `getStatus(sessionId)` reports it (memory only). */
  private readonly compactions = new Map<string, LastCompaction>();
  /** Each session's last reported prompt tokens (memory only). */
  readonly usage = new SessionPromptTokens();

  /**
   * @param engine the engine's name, the store's key
   * @param store where states are kept (none: memory only)
   * @param warn told once about a session whose background write failed
   */
  constructor(
    private readonly engine: string,
    store: Partial<EngineStateSource> | undefined,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {
    this.store = engineStateStoreOf(store);
  }

  /** `onSessionStart`: the session is open; its saved state is read (awaited when the store answers with a promise). */
  async start(sessionId: string): Promise<void> {
    this.open.add(sessionId);
    if (this.store === undefined || sessionId === DEFAULT_SESSION || this.states.has(sessionId)) return;
    const stored = await this.store.loadEngineState(this.engine, sessionId);
    if (this.states.has(sessionId)) return; // used meanwhile: what it did is newer
    const state = stored === undefined ? undefined : parseStoredState(stored);
    if (state === undefined) return;
    this.states.set(sessionId, state);
    this.written.set(sessionId, JSON.stringify(state));
  }

  /** `onSessionEnd`: forgets the session (in memory and in the store); the default session too once none is open. */
  end(sessionId: string): void {
    this.open.delete(sessionId);
    this.forget(sessionId);
    if (this.open.size === 0) this.forget(DEFAULT_SESSION);
  }

  /** The session a call with `sessionId` (possibly none) works on. */
  resolve(sessionId: string | undefined): ResolvedSession {
    if (sessionId !== undefined && sessionId !== DEFAULT_SESSION) return { id: sessionId, identified: true };
    if (this.open.size === 1) return { id: this.open.values().next().value!, identified: true };
    return { id: DEFAULT_SESSION, identified: false };
  }

  /** The state of `sessionId`: in memory, else read from the store, else fresh. */
  state(sessionId: string): CompressorSessionState {
    let state = this.states.get(sessionId);
    if (state === undefined) {
      state = this.load(sessionId) ?? freshSessionState();
      this.states.set(sessionId, state);
    }
    return state;
  }

  /** Every state in memory (to apply an engine-wide change such as a new model). */
  loaded(): IterableIterator<[string, CompressorSessionState]> {
    return this.states.entries();
  }

  /** Writes the state of `sessionId` to the store when it changed (the default session stays in memory). */
  save(sessionId: string): void {
    const state = this.states.get(sessionId);
    if (this.store === undefined || sessionId === DEFAULT_SESSION || state === undefined) return;
    const json = JSON.stringify(state);
    if (this.written.get(sessionId) === json) return;
    const store = this.store;
    // a failed write is sent again as the session's state then (retry), not as it was
    const send = (text: string) => () => {
      this.written.set(sessionId, text);
      return store.saveEngineState(this.engine, sessionId, JSON.parse(text));
    };
    this.write(sessionId, send(json), () => {
      const now = this.states.get(sessionId);
      return now === undefined ? undefined : send(JSON.stringify(now))();
    });
    this.written.set(sessionId, json);
  }

  /**
   * Runs a store write now, or after the session's pending asynchronous write. A failed asynchronous
   * write is remembered with `retry` (warned about once) until a later write of the session succeeds.
   */
  private write(sessionId: string, run: () => unknown, retry: () => unknown = run): void {
    const pending = this.writes.get(sessionId);
    const result = pending === undefined ? run() : pending.then(run);
    if (!isThenable(result)) return;
    const settled: Promise<unknown> = Promise.resolve(result).then(
      () => void this.failed.delete(sessionId),
      (error: unknown) => this.writeFailed(sessionId, error, retry),
    );
    this.writes.set(sessionId, settled);
    void settled.then(() => {
      if (this.writes.get(sessionId) === settled) this.writes.delete(sessionId);
    });
  }

  /** A background write failed: warn (once per failing session) and keep the state to be written again. */
  private writeFailed(sessionId: string, error: unknown, retry: () => unknown): void {
    if (!this.failed.has(sessionId)) {
      this.warn(`${this.engine}: the state of session '${sessionId}' could not be written to the store (kept in memory; sent again with the session's next change or flushState()): ${errorText(error)}`);
    }
    this.failed.set(sessionId, { error, retry });
    this.written.delete(sessionId); // not in the store: the next save() writes it even when unchanged
  }

  /**
   * Resolves once every pending asynchronous write has been sent (tests, shutdown). Sessions whose last
   * write failed are sent once more; rejects with a {@link SessionStoreError} naming each session whose
   * retry failed too (its state stays in memory, to be sent by the next change or flush).
   */
  async flush(): Promise<void> {
    await this.settle();
    if (this.failed.size === 0) return;
    for (const [sessionId, { retry }] of this.failed) this.write(sessionId, retry);
    await this.settle();
    if (this.failed.size === 0) return;
    const lines = [...this.failed].map(([sessionId, { error }]) => `session '${sessionId}': ${errorText(error)}`);
    throw new SessionStoreError(`${this.engine}: the state of ${lines.length === 1 ? "a session" : `${lines.length} sessions`} could not be written to the store, after a retry:\n${lines.join("\n")}`);
  }

  /** Resolves once no asynchronous write is pending. */
  private async settle(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes.values()]);
  }

  /** The last pruning of `sessionId`'s conversation, for its next one (see {@link PruneMemo}). */
  lastPruning(sessionId: string): PruneMemo | undefined {
    return this.prunings.get(sessionId);
  }

  /** Keeps `memo` as the last pruning of `sessionId`'s conversation (in memory, until the session is forgotten). */
  rememberPruning(sessionId: string, memo: PruneMemo): void {
    this.prunings.set(sessionId, memo);
  }

  /** The report of `sessionId`'s last compaction, undefined before any. */
  lastReport(sessionId: string): CompressionReport | undefined {
    return this.reports.get(sessionId);
  }

  /** Keeps `report` as the last compaction report of `sessionId` (in memory, until the session is forgotten). */
  rememberReport(sessionId: string, report: CompressionReport): void {
    this.reports.set(sessionId, report);
  }

  /** The last compaction that changed the conversation of `sessionId`. */
  lastCompaction(sessionId: string): LastCompaction | undefined {
    return this.compactions.get(sessionId);
  }

  /** Keeps `compaction` as the last one of `sessionId`. */
  rememberCompaction(sessionId: string, compaction: LastCompaction): void {
    this.compactions.set(sessionId, compaction);
  }

  /** The last prompt tokens reported for `session`; `engineWide` (the engine's latest of any) for a session the call could not name. */
  promptTokens(session: ResolvedSession, engineWide: number): number {
    return session.identified ? this.usage.of(session.id, engineWide) : engineWide;
  }

  /** Starts the session over: its state is dropped from memory and from the store. */
  forget(sessionId: string): void {
    this.states.delete(sessionId);
    this.prunings.delete(sessionId);
    this.reports.delete(sessionId);
    this.usage.forget(sessionId);
    this.compactions.delete(sessionId);
    this.written.delete(sessionId);
    const store = this.store;
    if (store !== undefined && sessionId !== DEFAULT_SESSION) this.write(sessionId, () => store.clearEngineState(this.engine, sessionId));
  }

  private load(sessionId: string): CompressorSessionState | undefined {
    if (this.store === undefined || sessionId === DEFAULT_SESSION) return undefined;
    const stored = this.store.loadEngineState(this.engine, sessionId);
    // an asynchronous store is read at start(); a session used before that starts fresh
    if (isThenable(stored)) {
      void Promise.resolve(stored).catch(() => undefined);
      return undefined;
    }
    // a state this version cannot read (written by another version) starts over rather than blocking compaction
    const state = stored === undefined ? undefined : parseStoredState(stored);
    if (state !== undefined) this.written.set(sessionId, JSON.stringify(state));
    return state;
  }
}
