/**
 * lcm's background compaction (`compression.prepare_at`; docs/BEHAVIOUR.md, "Background compaction"):
 * below the trigger the compaction is run dry — the same passes over the stored context, with the real
 * summarizer, but nothing committed — and each pass it would have committed is kept, with every summary
 * by its request. At the trigger (after waiting for a dry run still going) the kept passes are committed
 * as they are while the context items they replace are unchanged (the store checks it; turns appended
 * since stay after them), then the real compaction goes on from there with a summarizer that answers a
 * request the dry run already answered at once and asks the real one only for what is new. Nothing is
 * stored or paused by the dry run: a summarizer failure in it is reported and changes nothing.
 */
import type { PreparationStatus, Summarizer, SummaryRequest } from "./core.js";
import { canonicalJson } from "./core.js";
import type { CompactionOutcome } from "./compaction.js";
import type { ItemRef, SummaryRecord } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

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
}

/** The identity of a summary request: what the summarizer is asked, nothing else. */
function requestKey(request: SummaryRequest): string {
  return canonicalJson({ messages: request.messages, maxTokens: request.maxTokens, focusTopic: request.focusTopic, precedingSummary: request.precedingSummary });
}

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

/** The dry runs of the sessions, and the summarizers that answer from them at the trigger. */
export class PreparedSummaries {
  private readonly bySession = new Map<string, DryRun>();

  constructor(private readonly report: (session: string, status: PreparationStatus) => void) {}

  /** Where the session's preparation stands (`not_due` when there is none). */
  status(session: string): PreparationStatus {
    return this.bySession.get(session)?.status ?? { state: "not_due" };
  }

  /**
   * Starts `compact` (a dry run of the compaction, given the summarizer to use) for the session, once:
   * its summaries are kept by request; a summarizer failure it reports (`summarizerError`) makes the
   * preparation `failed`, the summaries written before it stay usable.
   */
  start(
    session: string,
    summarizer: Summarizer,
    compact: (recording: Summarizer, dryRun: <S extends LcmStoreAsync>(store: S) => S, begun: () => void) => Promise<CompactionOutcome | undefined>,
  ): PreparationStatus {
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
    run.done = compact(recording, (store) => dryRunStore(store, passes), () => (run.begun = true)).then(
      (outcome) => settle(outcome?.summarizerError === undefined ? { state: "ready" } : { state: "failed", reason: outcome.summarizerError }),
      (error: unknown) => settle({ state: "failed", reason: error instanceof Error ? error.message : String(error) }),
    );
    this.tell(session, run.status);
    const started = run.status;
    run.status = { state: "pending" };
    return started;
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
   * The summarizer the session's compaction at the trigger uses: a request the dry run answered gets its
   * summary at once (`hits` counts them), anything else goes to `summarizer`. Without a dry run, `summarizer`.
   */
  summarizerFor(session: string, summarizer: Summarizer): { summarizer: Summarizer; hits: () => number } {
    const run = this.bySession.get(session);
    if (run?.begun !== true) return { summarizer, hits: () => 0 };
    let hits = 0;
    return {
      hits: () => hits,
      summarizer: {
        name: summarizer.name ?? "summarizer",
        summarize: async (request, signal) => {
          await run.done;
          const text = run.written.get(requestKey(request));
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

  /** Forgets the session's dry run (after its compaction, or at the session's end). */
  drop(session: string): void {
    this.bySession.delete(session);
  }
}
