/**
 * lcm's background compaction (`compression.prepare_at`; docs/BEHAVIOUR.md, "Background compaction"):
 * below the trigger the compaction is run dry — the same passes over the stored context, with the real
 * summarizer, but nothing committed — and each pass it would have committed is kept, with every summary
 * by its request. At the trigger (after waiting for a dry run still going) the kept passes are committed
 * as they are while the context items they replace are unchanged (the store checks it; turns appended
 * since stay after them), then the real compaction goes on from there with a summarizer that answers a
 * request the dry run already answered at once and asks the real one only for what is new. Nothing is
 * stored or paused by the dry run: a summarizer failure in it is reported and changes nothing. With a store
 * shared by workers (sharedSummaries.ts) the summaries are saved there too, one worker runs the dry run of
 * a range, and the worker that takes the trigger answers from whichever worker's summaries — taken once.
 */
import { createHash } from "node:crypto";
import type { ChatMessage, PreparationStatus, PreparedRangeId, Summarizer, SummaryRequest } from "./core.js";
import { canonicalJson, preparedRangeId, startsWithRange } from "./core.js";
import type { CompactionOutcome } from "./compaction.js";
import type { ItemRef, SummaryRecord } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { PREPARING_ELSEWHERE, type SharedSummaries } from "./sharedSummaries.js";

/** A pass the dry run would have committed: `commitSummary`'s arguments. */
interface KeptPass {
  summary: SummaryRecord;
  sources: ItemRef[];
  fromOrd: number;
  toOrd: number;
}

/** One session's dry run: the passes it would have committed, and the summaries it wrote, by request. */
interface DryRun {
  done: Promise<void>;
  /** True once the dry run has stored the turns (in the session's order): before that a compaction queued ahead of it must not wait for it. */
  begun: boolean;
  passes: KeptPass[];
  written: Map<string, string>;
  status: PreparationStatus;
  /** With a shared store: the conversation it started with, and whether another worker's claim on it held (then it ran nowhere here). */
  range?: PreparedRangeId;
  elsewhere?: boolean;
}

/** The identity of a summary request, hashed (sha-256): what the summarizer is asked, nothing else. */
function requestKey(request: SummaryRequest): string {
  const asked = canonicalJson({ messages: request.messages, maxTokens: request.maxTokens, focusTopic: request.focusTopic, precedingSummary: request.precedingSummary });
  return createHash("sha256").update(asked).digest("hex");
}

/** What a dry run is: the compaction run dry with the summarizer that records what it writes. */
type DryRunCompaction = (recording: Summarizer, dryRun: <S extends LcmStoreAsync>(store: S) => S, begun: () => void) => Promise<CompactionOutcome | undefined>;

/** `store` as a dry run sees it: read as it is, every commit kept in `passes` instead of written. */
function dryRunStore<S extends LcmStoreAsync>(store: S, passes: KeptPass[]): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "commitSummary") {
        return async (summary: SummaryRecord, sources: readonly ItemRef[], fromOrd: number, toOrd: number) => void passes.push({ summary, sources: [...sources], fromOrd, toOrd });
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** What tells `warn` of a dry run that failed (the status `report` of {@link PreparedSummaries} an engine gives). */
export function warnFailedPreparation(warn: (message: string) => void): (session: string, status: PreparationStatus) => void {
  return (session, status) => {
    if (status.state === "failed") warn(`lcm: the compaction prepared in the background failed (session '${session}'): ${status.reason}; nothing was changed, the trigger compacts as usual`);
  };
}

/** The dry runs of the sessions, and the summarizers that answer from them at the trigger. */
export class PreparedSummaries {
  private readonly bySession = new Map<string, DryRun>();

  /**
   * @param report told when a dry run starts and settles
   * @param shared the store shared by workers, when the engine has one that can take and claim state
   */
  constructor(
    private readonly report: (session: string, status: PreparationStatus) => void,
    private readonly shared?: SharedSummaries,
  ) {}

  /** Where the session's preparation stands (`not_due` when there is none). */
  status(session: string): PreparationStatus {
    return this.bySession.get(session)?.status ?? { state: "not_due" };
  }

  /**
   * Where the session's preparation stands for a dry run of `messages`: with a shared store, a settled one
   * whose conversation `messages` no longer start with (another worker compacted it) is dropped first.
   */
  statusFor(session: string, messages: readonly ChatMessage[]): PreparationStatus {
    const run = this.bySession.get(session);
    const settled = run !== undefined && (run.elsewhere === true || !["started", "pending"].includes(run.status.state));
    if (settled && run.range !== undefined && !startsWithRange(messages)(run.range)) this.drop(session);
    return this.status(session);
  }

  /**
   * Starts `compact` (a dry run of the compaction, given the summarizer to use) for the session, once:
   * its summaries are kept by request; a summarizer failure it reports (`summarizerError`) makes the
   * preparation `failed`, the summaries written before it stay usable.
   */
  start(session: string, summarizer: Summarizer, messages: readonly ChatMessage[], compact: DryRunCompaction): PreparationStatus {
    const written = new Map<string, string>();
    const passes: KeptPass[] = [];
    const recording: Summarizer = {
      name: summarizer.name ?? "summarizer",
      summarize: async (request, signal) => {
        const text = await summarizer.summarize(request, signal);
        if (typeof text === "string" && text.trim() !== "") written.set(requestKey(request), text);
        return text;
      },
    };
    const run: DryRun = { written, passes, begun: false, status: { state: "started" }, done: Promise.resolve() };
    this.bySession.set(session, run);
    const settle = (status: PreparationStatus) => {
      run.status = status;
      if (this.bySession.get(session) === run) this.tell(session, status);
    };
    const dryRun = () => compact(recording, (store) => dryRunStore(store, passes), () => (run.begun = true));
    run.done = this.prepare(session, run, messages, dryRun).then(
      (outcome) => settle(run.elsewhere === true ? { state: "pending", reason: PREPARING_ELSEWHERE } : outcome?.summarizerError === undefined ? { state: "ready" } : { state: "failed", reason: outcome.summarizerError }),
      (error: unknown) => settle({ state: "failed", reason: error instanceof Error ? error.message : String(error) }),
    );
    this.tell(session, run.status);
    const started = run.status;
    run.status = { state: "pending" };
    return started;
  }

  /**
   * The dry run's work: with a shared store, the claim on its range first (refused: nothing runs here,
   * the trigger waits for the other worker's summaries), then the dry run, then its summaries saved for
   * every worker. A store that fails is not shared through: the dry run runs for this worker.
   */
  private async prepare(session: string, run: DryRun, messages: readonly ChatMessage[], dryRun: () => Promise<CompactionOutcome | undefined>): Promise<CompactionOutcome | undefined> {
    const shared = this.shared;
    if (shared === undefined) return dryRun();
    const range = (run.range = preparedRangeId(messages));
    const claimed = await shared.claim(session, range);
    if (claimed === false) {
      run.elsewhere = true;
      return undefined;
    }
    const stopRenewing = claimed === true ? shared.keepClaimed(session, range) : () => undefined;
    try {
      const outcome = await dryRun();
      if (claimed === true && run.written.size > 0 && this.bySession.get(session) === run) await shared.save(session, run.written);
      return outcome;
    } finally {
      stopRenewing();
      if (claimed === true) await shared.release(session);
    }
  }

  /**
   * At the trigger, under the compaction lease: commits the passes of the session's finished dry run in
   * order, as long as the store finds the items each replaces unchanged; the summaries committed. None
   * for a dry run that failed (its summaries written before the failure are still offered by
   * {@link summarizerFor}).
   */
  async commitPrepared(session: string, store: LcmStoreAsync): Promise<SummaryRecord[]> {
    const run = this.bySession.get(session);
    if (run?.begun !== true) return [];
    await run.done;
    const committed: SummaryRecord[] = [];
    if (run.status.state !== "ready") return committed;
    for (const pass of run.passes) {
      try {
        await store.commitSummary(pass.summary, pass.sources, pass.fromOrd, pass.toOrd);
      } catch {
        break; // the context changed there: the compaction goes on from what is committed
      }
      committed.push(pass.summary);
    }
    return committed;
  }

  /**
   * The summarizer the session's compaction at the trigger (of `messages`) uses: a request a dry run
   * answered gets its summary at once (`hits` counts them), anything else goes to `summarizer`. The dry
   * run is this worker's, awaited; with a shared store also the summaries another worker saved, taken —
   * waited for, when this worker ran none, while that worker's claim holds on a range `messages` start
   * with (or until `signal` fires). Without a dry run anywhere, `summarizer`.
   */
  async summarizerFor(session: string, summarizer: Summarizer, messages: readonly ChatMessage[], signal: AbortSignal | undefined): Promise<{ summarizer: Summarizer; hits: () => number }> {
    const run = this.bySession.get(session);
    const own = run?.begun === true ? run : undefined;
    if (own !== undefined) await own.done;
    const saved = this.shared === undefined ? undefined : own !== undefined ? await this.shared.take(session) : await this.shared.takeOrAwait(session, messages, signal);
    if (own === undefined && saved === undefined) return { summarizer, hits: () => 0 };
    let hits = 0;
    return {
      hits: () => hits,
      summarizer: {
        name: summarizer.name ?? "summarizer",
        summarize: async (request, signal) => {
          const key = requestKey(request);
          const text = own?.written.get(key) ?? saved?.get(key);
          if (text === undefined) return summarizer.summarize(request, signal);
          hits++;
          return text;
        },
      },
    };
  }

  /** Tells `report`, which must not throw into the request path or the background. */
  private tell(session: string, status: PreparationStatus): void {
    try {
      this.report(session, status);
    } catch {
      // the status stays readable through status()
    }
  }

  /** Forgets the session's dry run (after its compaction). */
  drop(session: string): void {
    this.bySession.delete(session);
  }

  /** The session ended: its dry run is forgotten, and its saved summaries and claim leave the shared store. */
  async forget(session: string): Promise<void> {
    this.drop(session);
    await this.shared?.forget(session);
  }
}
