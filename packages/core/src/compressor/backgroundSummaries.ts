/**
 * The stateful shell of background compaction (docs/BEHAVIOUR.md, "Background compaction"): per session,
 * the one summary being prepared off the request path — the conversation it was planned on, the prepared
 * compaction, and the pending summarizer call. The decisions are pure (preparedRange.ts); this only holds
 * the promise, says where it stands, and hands it over when the trigger fires. With a store shared by
 * workers (sharedPreparations.ts) a settled summary is saved there too, one worker prepares a range at a
 * time, and the worker that takes the trigger applies whichever worker's summary fits — once.
 */
import type { PreparationStatus } from "../engine/preparation.js";
import type { ChatMessage } from "../messages/schema.js";
import type { MessageTokens } from "./messageTokens.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import { matchPreparedRange, withAppendedTurns } from "./preparedRange.js";
import type { PruneMemo } from "./pruneToolOutputs.js";
import type { CompressionReport } from "./report.js";
import type { SummaryLadderOutcome } from "./summaryLadder.js";
import { preparedRangeId, storedPreparationMismatch, storedPreparationOf, type SharedPreparations } from "./sharedPreparations.js";

/** One session's summary prepared in the background. */
export interface Preparation {
  /** The settled conversation it was planned on. */
  snapshot: readonly ChatMessage[];
  prepared: PreparedCompaction;
  /** The summary budget it was asked with: another one (a model change) makes it stale. */
  maxSummaryTokens: number;
  /** The prompt tokens it was planned with (undefined: counted). */
  currentTokens: number | undefined;
  /** Another worker holds the claim on this range: it prepares it, this one waits for it at the trigger. */
  elsewhere: boolean;
  /** Saved to the shared store once settled: then only the worker that takes it there applies it. */
  saved: boolean;
  /** Settles with the summarizer's outcome; never rejects. */
  done: Promise<SummaryLadderOutcome>;
  /** The outcome once settled. */
  outcome: SummaryLadderOutcome | undefined;
  controller: AbortController;
}

/** A preparation whose range the conversation still continues, with the turns appended since. */
export interface MatchedPreparation {
  preparation: Preparation;
  appended: ChatMessage[];
}

/** What {@link BackgroundSummaries.take} needs of the compaction at the trigger. */
export interface TakeInput {
  sessionId: string;
  /** The settled conversation at the trigger. */
  messages: readonly ChatMessage[];
  /** Its token counts. */
  tokens: MessageTokens;
  maxSummaryTokens: number;
  thresholdTokens: number;
  /** The caller's signal: waiting for a summary still being written stops when it fires. */
  signal: AbortSignal | undefined;
  countTokens: (text: string) => number;
  /** The conversation planned again, narrowed to the turns past `prepared`'s range (preparedRange.ts `onlyNewTurns`). */
  narrow: (prepared: PreparedCompaction, summary: string) => PreparedCompaction | undefined;
  /** Asks the summarizer the blocking way. */
  summarize: (prepared: PreparedCompaction) => Promise<SummaryLadderOutcome>;
  /** Plans `snapshot` as a preparation did (with the prompt tokens it had): for another worker's summary. */
  replan: (snapshot: readonly ChatMessage[], currentTokens: number | undefined) => PreparedCompaction;
}

/** What {@link BackgroundSummaries.take} found: the report's note, and the compaction to finish with when the preparation is used. */
export interface Taken {
  note?: CompressionReport["preparation"];
  used?: { prepared: PreparedCompaction; outcome: SummaryLadderOutcome; pruneMemo: PruneMemo };
}

/** Told when a preparation starts and when it settles (ready or failed). */
export type PreparationListener = (sessionId: string, status: PreparationStatus) => void;

/** Where `preparation` stands. */
function statusOf(preparation: Preparation): PreparationStatus {
  const messages = preparation.snapshot.length;
  const { outcome } = preparation;
  if (outcome === undefined) return { state: "pending", messages };
  if (preparation.elsewhere) return { state: "pending", messages, reason: "another worker is preparing this range" };
  return outcome.ok ? { state: "ready", messages } : { state: "failed", reason: outcome.failure.reason, messages };
}

/** The summaries being prepared, one per session. */
export class BackgroundSummaries {
  private readonly bySession = new Map<string, Preparation>();

  /**
   * @param listener told when a preparation starts and settles
   * @param shared the store shared by workers, when the engine has one that can take and claim state
   */
  constructor(
    private readonly listener: PreparationListener,
    private readonly shared?: SharedPreparations,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where the session's preparation stands (`not_due` when there is none). */
  status(sessionId: string): PreparationStatus {
    const preparation = this.bySession.get(sessionId);
    return preparation === undefined ? { state: "not_due" } : statusOf(preparation);
  }

  /**
   * The session's preparation when `messages` still continue its range and it was sized for
   * `maxSummaryTokens`; a stale one is dropped (its call cancelled) and its reason returned instead.
   */
  match(sessionId: string, messages: readonly ChatMessage[], maxSummaryTokens: number): MatchedPreparation | { stale: string } | undefined {
    const preparation = this.bySession.get(sessionId);
    if (preparation === undefined) return undefined;
    const range = matchPreparedRange(preparation.snapshot, messages);
    const reason = !range.unchanged ? range.reason : preparation.maxSummaryTokens !== maxSummaryTokens ? "the summary budget changed after it was prepared (another model)" : undefined;
    if (reason !== undefined) {
      this.drop(sessionId);
      return { stale: reason };
    }
    return { preparation, appended: range.unchanged ? range.appended : [] };
  }

  /**
   * At the trigger: the summary prepared for `input.messages`' range, when there is one (awaited while it
   * is still written), applied as it is with the turns appended since in the tail, or — when those turns
   * alone would keep the conversation at the trigger — updated with only what is new. A stale or failed
   * preparation is dropped and not used: the blocking path runs.
   */
  async take(input: TakeInput): Promise<Taken | undefined> {
    const matched = this.match(input.sessionId, input.messages, input.maxSummaryTokens);
    if (matched !== undefined && "stale" in matched && this.shared === undefined) return { note: { outcome: "stale", reason: matched.stale } };
    if (matched !== undefined && !("stale" in matched) && !matched.preparation.elsewhere) return this.takeOwn(input, matched);
    if (this.shared === undefined) return undefined;
    // none of this worker's fits: one another worker saved (or is writing) for this range
    const { entry, waited } = await this.shared.takeOrAwait(input.sessionId, input.messages, input.signal).catch(() => ({ entry: undefined, waited: false })); // a store that fails: the blocking path
    this.drop(input.sessionId);
    if (entry === undefined) return matched !== undefined && "stale" in matched ? { note: { outcome: "stale", reason: matched.stale } } : undefined;
    let replanned: PreparedCompaction | undefined;
    const mismatch = storedPreparationMismatch(entry, input.messages, input.maxSummaryTokens, () => (replanned = input.replan(input.messages.slice(0, entry.messages), entry.currentTokens)));
    if (mismatch !== undefined || replanned === undefined) return { note: { outcome: "stale", reason: mismatch ?? "not planned again", fromStore: true } };
    return this.use(input, replanned, input.messages.slice(entry.messages), entry.outcome, waited ? "awaited" : "applied", true);
  }

  /** This worker's own preparation at the trigger: awaited while written; with a shared store, used only when still there to take. */
  private async takeOwn(input: TakeInput, matched: MatchedPreparation): Promise<Taken | undefined> {
    const { preparation, appended } = matched;
    const awaited = preparation.outcome === undefined;
    const outcome = await awaitPreparation(preparation, input.signal);
    if (outcome === undefined) return undefined;
    this.drop(input.sessionId);
    if (!outcome.ok) return { note: { outcome: "failed", reason: outcome.failure.reason } };
    // saved for every worker: used only by the one that takes it there (a store that fails: this one)
    if (preparation.saved && (await this.shared?.take(input.sessionId).catch(() => outcome)) === undefined) {
      return { note: { outcome: "stale", reason: "another worker applied the summary prepared for this range" } };
    }
    return this.use(input, preparation.prepared, appended, outcome, awaited ? "awaited" : "applied", false);
  }

  /** The prepared compaction to finish with: as it is with `appended` in the tail, or — when that would stay at the trigger — updated with only what is new. */
  private async use(input: TakeInput, prepared: PreparedCompaction, appended: readonly ChatMessage[], outcome: SummaryLadderOutcome & { ok: true }, how: "applied" | "awaited", fromStore: boolean): Promise<Taken> {
    const { headEnd, tailStart } = prepared.plan;
    const predicted = input.tokens.exactSum(0, headEnd) + input.tokens.exactSum(tailStart, input.messages.length) + input.countTokens(outcome.summary);
    const narrowed = predicted < input.thresholdTokens ? undefined : input.narrow(prepared, outcome.summary);
    const origin = fromStore ? { fromStore: true } : {};
    if (narrowed === undefined) return { note: { outcome: how, ...origin }, used: { prepared: withAppendedTurns(prepared, [...appended]), outcome, pruneMemo: prepared.pruneMemo } };
    return { note: { outcome: "updated", ...origin }, used: { prepared: narrowed, outcome: await input.summarize(narrowed), pruneMemo: narrowed.pruneMemo } };
  }

  /**
   * Starts `summarize` for the session in the background (replacing any earlier preparation) and reports
   * it `started`. With a shared store it first claims the range: when another worker holds the claim,
   * nothing is asked here and the trigger waits for that worker's summary instead.
   */
  start(sessionId: string, snapshot: readonly ChatMessage[], prepared: PreparedCompaction, maxSummaryTokens: number, summarize: (signal: AbortSignal) => Promise<SummaryLadderOutcome>, currentTokens?: number): PreparationStatus {
    this.drop(sessionId);
    const controller = new AbortController();
    const preparation: Preparation = { snapshot, prepared, maxSummaryTokens, currentTokens, elsewhere: false, saved: false, controller, outcome: undefined, done: undefined as never };
    preparation.done = this.prepare(sessionId, preparation, summarize)
      .catch((error: unknown): SummaryLadderOutcome => ({ ok: false, summarizer: "summarizer", failure: { action: "abort", kind: "other", reason: error instanceof Error ? error.message : String(error) } }))
      .then((outcome) => {
        preparation.outcome = outcome;
        // a dropped preparation settles unseen; a listener that throws cannot break the hand-over
        if (this.bySession.get(sessionId) === preparation) this.tell(sessionId, statusOf(preparation));
        return outcome;
      });
    this.bySession.set(sessionId, preparation);
    const started: PreparationStatus = { state: "started", messages: snapshot.length };
    this.tell(sessionId, started);
    return started;
  }

  /** The preparation's work: the claim (with a shared store), the summary, and saving it for every worker. */
  private async prepare(sessionId: string, preparation: Preparation, summarize: (signal: AbortSignal) => Promise<SummaryLadderOutcome>): Promise<SummaryLadderOutcome> {
    const shared = this.shared;
    if (shared === undefined) return summarize(preparation.controller.signal);
    // a store that fails is not shared through: this worker prepares the range for itself
    const range = preparedRangeId(preparation.snapshot);
    const claimed = await shared.claim(sessionId, range).catch(() => undefined);
    if (claimed === false) {
      preparation.elsewhere = true;
      return { ok: false, summarizer: "summarizer", failure: { action: "abort", kind: "other", reason: "another worker is preparing this range" } };
    }
    const stopRenewing = claimed === true ? shared.keepClaimed(sessionId, range) : () => undefined;
    try {
      const outcome = await summarize(preparation.controller.signal);
      if (claimed === true && outcome.ok && this.bySession.get(sessionId) === preparation) {
        const entry = storedPreparationOf(range, preparation.prepared, preparation.maxSummaryTokens, preparation.currentTokens, outcome, this.now());
        preparation.saved = await shared.save(sessionId, entry).then(() => true, () => false);
      }
      return outcome;
    } finally {
      stopRenewing();
      if (claimed === true) await shared.release(sessionId).catch(() => undefined);
    }
  }

  /** Tells the listener, which must not throw into the request path or the background. */
  private tell(sessionId: string, status: PreparationStatus): void {
    try {
      this.listener(sessionId, status);
    } catch {
      // the status stays readable through status()
    }
  }

  /** The session's preparation is used up or no longer wanted: forgotten, its call cancelled when still running. */
  drop(sessionId: string): void {
    const preparation = this.bySession.get(sessionId);
    if (preparation === undefined) return;
    this.bySession.delete(sessionId);
    if (preparation.outcome === undefined) preparation.controller.abort(new Error("the prepared summary is no longer needed"));
  }

  /** The session ended: its preparation is dropped, and its saved summary and claim leave the shared store. */
  async forget(sessionId: string): Promise<void> {
    this.drop(sessionId);
    await this.shared?.forget(sessionId);
  }

  /** Drops every session's preparation (e.g. on a model change). */
  dropAll(): void {
    for (const sessionId of [...this.bySession.keys()]) this.drop(sessionId);
  }
}

/** The outcome of `preparation`, awaited; undefined when `signal` fires first (the preparation keeps running). */
async function awaitPreparation(preparation: Preparation, signal: AbortSignal | undefined): Promise<SummaryLadderOutcome | undefined> {
  if (preparation.outcome !== undefined || signal === undefined) return preparation.outcome ?? (await preparation.done);
  if (signal.aborted) return undefined;
  let onAbort!: () => void;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([preparation.done, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
