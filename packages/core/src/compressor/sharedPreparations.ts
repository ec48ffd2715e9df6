/**
 * Background summaries shared by the workers of one store (docs/BEHAVIOUR.md, "Background compaction",
 * "Many workers"): a settled preparation is saved through the engine-state store with what identifies its
 * range — a fingerprint of the messages it was planned on, their count, the plan's boundaries, the summary
 * budget and the usage it was planned with — so whichever worker takes the trigger applies it (once: the
 * entry is taken, not read), and a claim row makes one worker prepare a range while the others wait for
 * it (a crashed preparer's claim expires). The decisions are pure; {@link SharedPreparations} is the store shell
 * (over store/sharedWork.ts: the claim's expiry and renewal, the entry taken once).
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../messages/canonicalJson.js";
import type { ChatMessage } from "../messages/schema.js";
import type { SharedStateStore } from "../store/sharedState.js";
import { SHARED_CLAIM_MS, SHARED_POLL_MS, SHARED_RENEW_MS, SharedWork } from "../store/sharedWork.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import type { SummaryLadderSuccess } from "./summaryLadder.js";

/** The shared store's keys of a session's settled preparation and of the claim on preparing it: the engine's name and these. */
export const PREPARED_KEY_SUFFIX = "#prepared";
export const PREPARING_KEY_SUFFIX = "#preparing";

/** A settled preparation as the store keeps it. */
export interface StoredPreparation {
  version: 1;
  /** {@link rangeFingerprint} of the messages it was planned on. */
  fingerprint: string;
  /** How many messages it was planned on. */
  messages: number;
  headEnd: number;
  tailStart: number;
  maxSummaryTokens: number;
  /** The prompt tokens the plan was made with (undefined: counted). */
  currentTokens: number | undefined;
  outcome: SummaryLadderSuccess;
  /** When it was saved (epoch ms). */
  savedAt: number;
}

/** A fingerprint of `messages[0, count)`: sha-256 of each message's canonical JSON (key order does not matter). */
export function rangeFingerprint(messages: readonly ChatMessage[], count = messages.length): string {
  const hash = createHash("sha256");
  for (let i = 0; i < count; i++) hash.update(canonicalJson(messages[i])).update("\n");
  return hash.digest("hex");
}

/** The range a preparation was planned on, as workers name it: its messages' fingerprint and count. */
export interface PreparedRangeId {
  fingerprint: string;
  messages: number;
}

/** The {@link PreparedRangeId} of `snapshot` (hashed once per preparation: its claim, renewals and entry share it). */
export function preparedRangeId(snapshot: readonly ChatMessage[]): PreparedRangeId {
  return { fingerprint: rangeFingerprint(snapshot), messages: snapshot.length };
}

/**
 * A test of whether `messages` start with a range (a claimed one, while a worker waits for it): each
 * range is fingerprinted once, the last one found there remembered.
 */
export function startsWithRange(messages: readonly ChatMessage[]): (range: PreparedRangeId) => boolean {
  let startsWith: string | undefined;
  return (range) => {
    if (range.fingerprint === startsWith) return true;
    if (range.messages > messages.length || rangeFingerprint(messages, range.messages) !== range.fingerprint) return false;
    startsWith = range.fingerprint;
    return true;
  };
}

/** The store's entry for a preparation of the range `range` that settled with `outcome`. */
export function storedPreparationOf(range: PreparedRangeId, prepared: PreparedCompaction, maxSummaryTokens: number, currentTokens: number | undefined, outcome: SummaryLadderSuccess, now: number): StoredPreparation {
  return { version: 1, ...range, headEnd: prepared.plan.headEnd, tailStart: prepared.plan.tailStart, maxSummaryTokens, currentTokens, outcome, savedAt: now };
}

/** True when `value` has the shape this version saves (another version's entry is ignored). */
function isStoredPreparation(value: unknown): value is StoredPreparation {
  const v = value as Partial<StoredPreparation> | undefined;
  return typeof v === "object" && v !== null && v.version === 1 && typeof v.fingerprint === "string" && typeof v.messages === "number" && typeof v.outcome?.summary === "string";
}

/**
 * Why `entry` cannot be applied to `messages` (undefined when it can): the conversation must still start
 * with the range it was planned on, with the same budget — and planned again on that range, the same
 * boundaries (`replan`), else a summary of one range would replace another and lose or repeat turns.
 */
export function storedPreparationMismatch(entry: StoredPreparation, messages: readonly ChatMessage[], maxSummaryTokens: number, replan: () => PreparedCompaction): string | undefined {
  if (messages.length < entry.messages) return `the conversation has ${messages.length} messages, fewer than the ${entry.messages} its summary was prepared on`;
  if (entry.maxSummaryTokens !== maxSummaryTokens) return "the summary budget changed after it was prepared (another model)";
  if (rangeFingerprint(messages, entry.messages) !== entry.fingerprint) return "the conversation changed after its summary was prepared";
  const { plan } = replan();
  if (plan.headEnd !== entry.headEnd || plan.tailStart !== entry.tailStart) return "planned again here, the range differs from the one its summary was prepared for";
  return undefined;
}

/** True when `value` names a range (a worker's claim on preparing it, its `claimedAt` aside). */
export function isPreparedRangeId(value: unknown): value is PreparedRangeId {
  const v = value as Partial<PreparedRangeId> | undefined;
  return typeof v?.fingerprint === "string" && typeof v.messages === "number";
}

/** One engine's preparations in a store shared by workers: claims, settled summaries, and the wait for another worker's. */
export class SharedPreparations {
  private readonly work: SharedWork<PreparedRangeId, StoredPreparation>;

  /**
   * @param claimMs how long a claim holds unless renewed: the preparing worker renews it every `renewMs` while its
   * summarizer runs, so a worker that crashed or shut down mid-preparation holds the range at most this long
   * @param pollMs how often a worker at the trigger looks again for the summary another worker is preparing
   */
  constructor(store: SharedStateStore, engine: string, now: () => number = Date.now, claimMs = SHARED_CLAIM_MS, pollMs = SHARED_POLL_MS, renewMs = SHARED_RENEW_MS) {
    this.work = new SharedWork(store, { claimKey: `${engine}${PREPARING_KEY_SUFFIX}`, entryKey: `${engine}${PREPARED_KEY_SUFFIX}`, isClaim: isPreparedRangeId, isEntry: isStoredPreparation, now, claimMs, pollMs, renewMs });
  }

  /** Claims the preparation of `range` for this worker: false when another worker's claim holds. */
  claim(sessionId: string, range: PreparedRangeId): Promise<boolean> {
    return this.work.claim(sessionId, range);
  }

  /**
   * Keeps this worker's claim on `range` alive until the returned stop is called (the
   * preparation settled). A renewal that fails is left to the next one; unrenewed, the claim expires.
   */
  keepClaimed(sessionId: string, range: PreparedRangeId): () => void {
    return this.work.keepClaimed(sessionId, range);
  }

  /** Gives the claim up (the preparation settled, or was dropped). */
  release(sessionId: string): Promise<void> {
    return this.work.release(sessionId);
  }

  /** Saves a settled preparation for whichever worker takes the trigger. */
  save(sessionId: string, entry: StoredPreparation): Promise<void> {
    return this.work.save(sessionId, entry);
  }

  /** Takes the saved preparation (no other worker gets it after this); undefined when there is none. */
  take(sessionId: string): Promise<StoredPreparation | undefined> {
    return this.work.take(sessionId);
  }

  /**
   * The saved preparation, taken — waiting while another worker still prepares a range `messages` start
   * with (its claim holds) until it is saved, the claim goes or expires, or `signal` fires. `waited` says
   * whether it was still being written when asked (then the trigger waited for it).
   */
  takeOrAwait(sessionId: string, messages: readonly ChatMessage[], signal: AbortSignal | undefined): Promise<{ entry: StoredPreparation | undefined; waited: boolean }> {
    return this.work.takeOrAwait(sessionId, startsWithRange(messages), signal);
  }

  /** Forgets the session's saved preparation and claim (its session ended). */
  forget(sessionId: string): Promise<void> {
    return this.work.forget(sessionId);
  }
}
