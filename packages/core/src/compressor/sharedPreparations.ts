/**
 * Background summaries shared by the workers of one store (docs/BEHAVIOUR.md, "Background compaction",
 * "Many workers"): a settled preparation is saved through the engine-state store with what identifies its
 * range — a fingerprint of the messages it was planned on, their count, the plan's boundaries, the summary
 * budget and the usage it was planned with — so whichever worker takes the trigger applies it (once: the
 * entry is taken, not read), and a claim row makes one worker prepare a range while the others wait for
 * it (a crashed preparer's claim expires). The decisions are pure; {@link SharedPreparations} is the store shell.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../messages/canonicalJson.js";
import type { ChatMessage } from "../messages/schema.js";
import type { SharedStateStore } from "../store/sharedState.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import type { SummaryLadderSuccess } from "./summaryLadder.js";

/**
 * How long a claim holds unless renewed: the preparing worker renews it every {@link PREPARATION_RENEW_MS}
 * while its summarizer runs, so a worker that crashed or shut down mid-preparation holds the range at most
 * this long (another worker then prepares it, and a trigger stops waiting for it).
 */
export const PREPARATION_CLAIM_MS = 30_000;
/** How often a preparing worker renews its claim. */
export const PREPARATION_RENEW_MS = 10_000;
/** How often a worker at the trigger looks again for the summary another worker is preparing. */
export const PREPARATION_POLL_MS = 50;

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

/** A worker's claim on preparing a range. */
interface PreparationClaim {
  fingerprint: string;
  messages: number;
  claimedAt: number;
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

/** Waits `ms`, or less when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** One engine's preparations in a store shared by workers: claims, settled summaries, and the wait for another worker's. */
export class SharedPreparations {
  private readonly preparedKey: string;
  private readonly claimKey: string;

  constructor(
    private readonly store: SharedStateStore,
    engine: string,
    private readonly now: () => number = Date.now,
    private readonly claimMs = PREPARATION_CLAIM_MS,
    private readonly pollMs = PREPARATION_POLL_MS,
    private readonly renewMs = PREPARATION_RENEW_MS,
  ) {
    this.preparedKey = `${engine}${PREPARED_KEY_SUFFIX}`;
    this.claimKey = `${engine}${PREPARING_KEY_SUFFIX}`;
  }

  /** Claims the preparation of `range` for this worker: false when another worker's claim holds. */
  async claim(sessionId: string, range: PreparedRangeId): Promise<boolean> {
    const now = this.now();
    const claim: PreparationClaim = { ...range, claimedAt: now };
    return this.store.claimEngineState(this.claimKey, sessionId, claim, now - this.claimMs);
  }

  /**
   * Keeps this worker's claim on `range` alive until the returned stop is called (the
   * preparation settled). A renewal that fails is left to the next one; unrenewed, the claim expires.
   */
  keepClaimed(sessionId: string, range: PreparedRangeId): () => void {
    const timer = setInterval(() => {
      Promise.resolve(this.store.saveEngineState(this.claimKey, sessionId, { ...range, claimedAt: this.now() } satisfies PreparationClaim)).catch(() => undefined);
    }, this.renewMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /** Gives the claim up (the preparation settled, or was dropped). */
  async release(sessionId: string): Promise<void> {
    await this.store.clearEngineState(this.claimKey, sessionId);
  }

  /** Saves a settled preparation for whichever worker takes the trigger. */
  async save(sessionId: string, entry: StoredPreparation): Promise<void> {
    await this.store.saveEngineState(this.preparedKey, sessionId, entry);
  }

  /** Takes the saved preparation (no other worker gets it after this); undefined when there is none. */
  async take(sessionId: string): Promise<StoredPreparation | undefined> {
    const value = await this.store.takeEngineState(this.preparedKey, sessionId);
    return isStoredPreparation(value) ? value : undefined;
  }

  /** Another worker's claim on the session's preparation, while it holds (unexpired). */
  private async liveClaim(sessionId: string): Promise<PreparationClaim | undefined> {
    const claim = (await this.store.loadEngineState(this.claimKey, sessionId)) as Partial<PreparationClaim> | undefined;
    if (typeof claim?.claimedAt !== "number" || typeof claim.fingerprint !== "string" || typeof claim.messages !== "number") return undefined;
    return claim.claimedAt >= this.now() - this.claimMs ? (claim as PreparationClaim) : undefined;
  }

  /**
   * The saved preparation, taken — waiting while another worker still prepares a range `messages` start
   * with (its claim holds) until it is saved, the claim goes or expires, or `signal` fires. `waited` says
   * whether it was still being written when asked (then the trigger waited for it).
   */
  async takeOrAwait(sessionId: string, messages: readonly ChatMessage[], signal: AbortSignal | undefined): Promise<{ entry: StoredPreparation | undefined; waited: boolean }> {
    let startsWith: string | undefined;
    for (let waited = false; ; waited = true) {
      const entry = await this.take(sessionId);
      if (entry !== undefined || signal?.aborted) return { entry, waited };
      const claim = await this.liveClaim(sessionId);
      if (claim === undefined) return { entry: await this.take(sessionId), waited };
      if (claim.fingerprint !== startsWith) {
        if (claim.messages > messages.length || rangeFingerprint(messages, claim.messages) !== claim.fingerprint) return { entry: undefined, waited };
        startsWith = claim.fingerprint;
      }
      await pause(this.pollMs, signal);
    }
  }

  /** Forgets the session's saved preparation and claim (its session ended). */
  async forget(sessionId: string): Promise<void> {
    await this.store.clearEngineState(this.preparedKey, sessionId);
    await this.store.clearEngineState(this.claimKey, sessionId);
  }
}
