/**
 * Work the workers of one store hand each other through its engine state (docs/BEHAVIOUR.md,
 * "Many workers"): a claim row one worker holds while it does the work — renewed while the work runs, expiring
 * when it is not (a worker that crashed) — and the entry it saves once the work settled, which exactly one
 * worker takes. What is claimed and saved is the engine's; this is only the store shell (keys, expiry,
 * renewal, the bounded wait for another worker's entry). The built-in compressor's background summaries
 * and lcm's use it.
 */
import type { SharedStateStore } from "./sharedState.js";

/** How long a claim holds unless renewed: a worker that crashed holds the work at most this long. */
export const SHARED_CLAIM_MS = 30_000;
/** How often the worker holding a claim renews it while its work runs. */
export const SHARED_RENEW_MS = 10_000;
/** How often a worker waiting for another worker's entry looks again. */
export const SHARED_POLL_MS = 50;

/** What a kind of shared work is stored as: its keys, and how to recognise its values (another version's are ignored). */
export interface SharedWorkOptions<C extends object, E> {
  /** The engine-state key of the claim row, e.g. `lcm#preparing`. */
  claimKey: string;
  /** The engine-state key of the settled entry, e.g. `lcm#prepared`. */
  entryKey: string;
  /** True when a stored claim (its `claimedAt` aside) is one of this kind. */
  isClaim: (value: unknown) => value is C;
  /** True when a stored entry is one of this kind. */
  isEntry: (value: unknown) => value is E;
  /** The clock claims are stamped and judged with (epoch ms; default `Date.now`). */
  now?: () => number;
  /** Default {@link SHARED_CLAIM_MS}. */
  claimMs?: number;
  /** Default {@link SHARED_RENEW_MS}. */
  renewMs?: number;
  /** Default {@link SHARED_POLL_MS}. */
  pollMs?: number;
}

/** A claim as the store keeps it: the caller's value, stamped. */
export type HeldClaim<C extends object> = C & { claimedAt: number };

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

/** One kind of work shared by the workers of a store, per session: its claim and its settled entry. */
export class SharedWork<C extends object, E> {
  private readonly now: () => number;
  private readonly claimMs: number;
  private readonly renewMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly store: SharedStateStore,
    private readonly kind: SharedWorkOptions<C, E>,
  ) {
    this.now = kind.now ?? Date.now;
    this.claimMs = kind.claimMs ?? SHARED_CLAIM_MS;
    this.renewMs = kind.renewMs ?? SHARED_RENEW_MS;
    this.pollMs = kind.pollMs ?? SHARED_POLL_MS;
  }

  /** Claims the session's work (`claim` says which) for this worker: false when another worker's unexpired claim holds. */
  async claim(sessionId: string, claim: C): Promise<boolean> {
    const now = this.now();
    const held: HeldClaim<C> = { ...claim, claimedAt: now };
    return this.store.claimEngineState(this.kind.claimKey, sessionId, held, now - this.claimMs);
  }

  /** Keeps this worker's claim alive until the returned stop is called. A renewal that fails is left to the next one; unrenewed, the claim expires. */
  keepClaimed(sessionId: string, claim: C): () => void {
    const timer = setInterval(() => {
      const held: HeldClaim<C> = { ...claim, claimedAt: this.now() };
      Promise.resolve(this.store.saveEngineState(this.kind.claimKey, sessionId, held)).catch(() => undefined);
    }, this.renewMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /** Gives the claim up (the work settled, or was dropped). */
  async release(sessionId: string): Promise<void> {
    await this.store.clearEngineState(this.kind.claimKey, sessionId);
  }

  /** Another worker's claim on the session's work, while it holds (unexpired). */
  async liveClaim(sessionId: string): Promise<HeldClaim<C> | undefined> {
    const claim: unknown = await this.store.loadEngineState(this.kind.claimKey, sessionId);
    const claimedAt = (claim as { claimedAt?: unknown } | undefined)?.claimedAt;
    if (typeof claimedAt !== "number" || !this.kind.isClaim(claim)) return undefined;
    return claimedAt >= this.now() - this.claimMs ? { ...claim, claimedAt } : undefined;
  }

  /** Saves the settled work for whichever worker takes it. */
  async save(sessionId: string, entry: E): Promise<void> {
    await this.store.saveEngineState(this.kind.entryKey, sessionId, entry);
  }

  /** Takes the saved entry (no other worker gets it after this); undefined when there is none, or not one of this kind. */
  async take(sessionId: string): Promise<E | undefined> {
    const value = await this.store.takeEngineState(this.kind.entryKey, sessionId);
    return this.kind.isEntry(value) ? value : undefined;
  }

  /**
   * The saved entry, taken — waiting while another worker's claim holds and `covers` says its work is the
   * one wanted, until the entry is saved, the claim goes or expires, or `signal` fires. `waited` says
   * whether the entry was still being worked on when asked.
   */
  async takeOrAwait(sessionId: string, covers: (claim: HeldClaim<C>) => boolean, signal: AbortSignal | undefined): Promise<{ entry: E | undefined; waited: boolean }> {
    for (let waited = false; ; waited = true) {
      const entry = await this.take(sessionId);
      if (entry !== undefined || signal?.aborted) return { entry, waited };
      const claim = await this.liveClaim(sessionId);
      if (claim === undefined) return { entry: await this.take(sessionId), waited };
      if (!covers(claim)) return { entry: undefined, waited };
      await pause(this.pollMs, signal);
    }
  }

  /** Forgets the session's entry and claim (its session ended). */
  async forget(sessionId: string): Promise<void> {
    await this.store.clearEngineState(this.kind.entryKey, sessionId);
    await this.store.clearEngineState(this.kind.claimKey, sessionId);
  }
}
