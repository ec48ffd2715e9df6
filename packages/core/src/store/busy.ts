/**
 * Waiting out another process's lock where SQLite does not: a few statements (switching the journal
 * mode to WAL while another connection creates the same file) fail with SQLITE_BUSY at once instead of
 * calling the busy handler. {@link retryWhileBusy} retries them until the store's busy timeout.
 */

/** The busy timeout of every store connection, in ms (better-sqlite3's default `timeout`). */
export const STORE_BUSY_TIMEOUT_MS = 5_000;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** True for SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, SQLITE_BUSY_SNAPSHOT, …). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/**
 * Runs `operation`, and again after a short synchronous pause (growing to 50 ms) while it throws
 * SQLITE_BUSY, until `timeoutMs` have passed; then the last BUSY error is thrown. Other errors are
 * thrown at once.
 */
export function retryWhileBusy<T>(operation: () => T, timeoutMs: number = STORE_BUSY_TIMEOUT_MS): T {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    try {
      return operation();
    } catch (error) {
      if (!isBusyError(error) || Date.now() + wait > deadline) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}
