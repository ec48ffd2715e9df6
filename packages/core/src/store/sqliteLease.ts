/**
 * The SQLite store's compaction lease (docs/BEHAVIOUR.md, "Many workers"): processes on one file compact a
 * session one at a time, as workers on PostgreSQL do, so a second one does not pay for a summary the
 * first one's write would refuse. A `compaction_leases` row per leased session names its holder and when
 * it expires; the holder renews it while its summarizer runs, so a process that crashed holds the session
 * at most {@link COMPACTION_LEASE_MS}.
 */
import { randomUUID } from "node:crypto";
import type { SqliteStatements } from "./sqliteStatements.js";

/** How long a lease holds unless renewed. */
export const COMPACTION_LEASE_MS = 30_000;
/** How often its holder renews it. */
const RENEW_MS = 10_000;

/** Leases the compaction of `sessionId`: its release, or undefined when another holder's lease holds. */
export function leaseSqliteCompaction(statements: Pick<SqliteStatements, "takeLease" | "renewLease" | "releaseLease">, sessionId: string, now: () => number): (() => void) | undefined {
  const holder = randomUUID();
  const at = now();
  if (statements.takeLease.get(sessionId, holder, at + COMPACTION_LEASE_MS, at) === undefined) return undefined;
  const timer = setInterval(() => {
    try {
      statements.renewLease.run(now() + COMPACTION_LEASE_MS, sessionId, holder);
    } catch {
      // the next renewal tries again; unrenewed, the lease expires
    }
  }, RENEW_MS);
  timer.unref?.();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    try {
      statements.releaseLease.run(sessionId, holder);
    } catch {
      // the store was closed meanwhile: the lease expires
    }
  };
}
