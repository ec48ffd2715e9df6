/**
 * The stateful shell of background compaction (docs/BEHAVIOUR.md, "Background compaction"): per session,
 * the one summary being prepared off the request path — the conversation it was planned on, the prepared
 * compaction, and the pending summarizer call. The decisions are pure (preparedRange.ts); this only holds
 * the promise, says where it stands, and hands it over when the trigger fires.
 */
import type { PreparationStatus } from "../engine/preparation.js";
import type { ChatMessage } from "../messages/schema.js";
import type { MessageTokens } from "./messageTokens.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import { matchPreparedRange, withAppendedTurns } from "./preparedRange.js";
import type { PruneMemo } from "./pruneToolOutputs.js";
import type { CompressionReport } from "./report.js";
import type { SummaryLadderOutcome } from "./summaryLadder.js";

/** One session's summary prepared in the background. */
export interface Preparation {
  /** The settled conversation it was planned on. */
  snapshot: readonly ChatMessage[];
  prepared: PreparedCompaction;
  /** The summary budget it was asked with: another one (a model change) makes it stale. */
  maxSummaryTokens: number;
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
  return outcome.ok ? { state: "ready", messages } : { state: "failed", reason: outcome.failure.reason, messages };
}

/** The summaries being prepared, one per session. */
export class BackgroundSummaries {
  private readonly bySession = new Map<string, Preparation>();

  constructor(private readonly listener: PreparationListener) {}

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
    if (matched === undefined) return undefined;
    if ("stale" in matched) return { note: { outcome: "stale", reason: matched.stale } };
    const { preparation, appended } = matched;
    const awaited = preparation.outcome === undefined;
    const outcome = await awaitPreparation(preparation, input.signal);
    if (outcome === undefined) return undefined;
    this.drop(input.sessionId);
    if (!outcome.ok) return { note: { outcome: "failed", reason: outcome.failure.reason } };
    const { prepared } = preparation;
    const { headEnd, tailStart } = prepared.plan;
    const predicted = input.tokens.exactSum(0, headEnd) + input.tokens.exactSum(tailStart, input.messages.length) + input.countTokens(outcome.summary);
    const narrowed = predicted < input.thresholdTokens ? undefined : input.narrow(prepared, outcome.summary);
    if (narrowed === undefined) return { note: { outcome: awaited ? "awaited" : "applied" }, used: { prepared: withAppendedTurns(prepared, appended), outcome, pruneMemo: prepared.pruneMemo } };
    return { note: { outcome: "updated" }, used: { prepared: narrowed, outcome: await input.summarize(narrowed), pruneMemo: narrowed.pruneMemo } };
  }

  /** Starts `summarize` for the session in the background (replacing any earlier preparation) and reports it `started`. */
  start(sessionId: string, snapshot: readonly ChatMessage[], prepared: PreparedCompaction, maxSummaryTokens: number, summarize: (signal: AbortSignal) => Promise<SummaryLadderOutcome>): PreparationStatus {
    this.drop(sessionId);
    const controller = new AbortController();
    const preparation: Preparation = { snapshot, prepared, maxSummaryTokens, controller, outcome: undefined, done: undefined as never };
    preparation.done = summarize(controller.signal)
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
