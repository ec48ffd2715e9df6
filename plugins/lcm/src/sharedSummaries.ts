/**
 * lcm's background summaries shared by the workers of one store (docs/BEHAVIOUR.md, "Many workers"): the
 * summaries a dry run wrote (prepared.ts), each under the hash of the request it answered, are saved as
 * `<engine>#prepared` for whichever worker takes the trigger — taken once; it answers those requests at
 * once and nothing else — and a claim `<engine>#preparing` on the conversation the dry run started with
 * makes one worker run it while the others wait for its summaries (a crashed worker's claim expires). A
 * store that fails is not shared through: every call here answers as if there were nothing to share.
 * The keys end as the compressor's do, so `context-engine sessions show` lists lcm's pending work too.
 */
import { isPreparedRangeId, PREPARED_KEY_SUFFIX, PREPARING_KEY_SUFFIX, SharedWork, startsWithRange, type ChatMessage, type PreparedRangeId, type SharedStateStore } from "./core.js";

/** What the status of a worker whose claim was refused says. */
export const PREPARING_ELSEWHERE = "another worker is preparing this range";

/** The summaries a dry run wrote, as the store keeps them. */
interface StoredSummaries {
  version: 1;
  /** The hash of each request answered ({@link requestKey} of prepared.ts) → the summary it got. */
  summaries: Record<string, string>;
  /** When they were saved (epoch ms). */
  savedAt: number;
}

/** True when `value` has the shape this version saves (another version's entry is ignored). */
function isStoredSummaries(value: unknown): value is StoredSummaries {
  const v = value as Partial<StoredSummaries> | undefined;
  return typeof v === "object" && v !== null && v.version === 1 && typeof v.summaries === "object" && v.summaries !== null && Object.values(v.summaries).every((text) => typeof text === "string");
}

/** The summaries of `entry`, by request hash. */
function summariesOf(entry: StoredSummaries | undefined): Map<string, string> | undefined {
  return entry === undefined ? undefined : new Map(Object.entries(entry.summaries));
}

/** lcm's dry-run summaries in a store shared by workers: the claim on a range, the saved summaries, the wait for another worker's. */
export class SharedSummaries {
  private readonly work: SharedWork<PreparedRangeId, StoredSummaries>;

  constructor(
    store: SharedStateStore,
    engine: string,
    private readonly now: () => number,
  ) {
    this.work = new SharedWork(store, { claimKey: `${engine}${PREPARING_KEY_SUFFIX}`, entryKey: `${engine}${PREPARED_KEY_SUFFIX}`, isClaim: isPreparedRangeId, isEntry: isStoredSummaries, now });
  }

  /** Claims the dry run of `range` for this worker: false when another worker's claim holds, undefined when the store failed. */
  async claim(session: string, range: PreparedRangeId): Promise<boolean | undefined> {
    return this.work.claim(session, range).catch(() => undefined);
  }

  /** Keeps this worker's claim alive until the returned stop is called. */
  keepClaimed(session: string, range: PreparedRangeId): () => void {
    return this.work.keepClaimed(session, range);
  }

  /** Gives the claim up (the dry run settled). */
  async release(session: string): Promise<void> {
    await this.work.release(session).catch(() => undefined);
  }

  /** Saves the summaries a dry run wrote for whichever worker takes the trigger; false when the store failed. */
  async save(session: string, written: ReadonlyMap<string, string>): Promise<boolean> {
    const entry: StoredSummaries = { version: 1, summaries: Object.fromEntries(written), savedAt: this.now() };
    return this.work.save(session, entry).then(
      () => true,
      () => false,
    );
  }

  /** The saved summaries, taken (no other worker gets them after this); undefined when there are none. */
  async take(session: string): Promise<Map<string, string> | undefined> {
    return summariesOf(await this.work.take(session).catch(() => undefined));
  }

  /**
   * The saved summaries, taken — waiting while another worker's claim holds on a range `messages` start
   * with, until they are saved, the claim goes or expires, or `signal` fires.
   */
  async takeOrAwait(session: string, messages: readonly ChatMessage[], signal: AbortSignal | undefined): Promise<Map<string, string> | undefined> {
    const taken = await this.work.takeOrAwait(session, startsWithRange(messages), signal).catch(() => ({ entry: undefined }));
    return summariesOf(taken.entry);
  }

  /** Forgets the session's saved summaries and claim (its session ended). */
  async forget(session: string): Promise<void> {
    await this.work.forget(session).catch(() => undefined);
  }
}
