/** `/new` in lcm: the id of the session that follows, and the summaries it starts with. */
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** The session `/new` switches to after `from`: `<base>~<n>`, the first n the store has no session for. */
export async function nextSessionId(store: LcmStoreAsync, from: string): Promise<string> {
  const base = from.replace(/~\d+$/, "");
  let n = 1;
  while (await store.hasSession(`${base}~${n}`)) n++;
  return `${base}~${n}`;
}

/**
 * Starts session `to` with the summaries in the context of `from` at `depth` or deeper (-1: all of them),
 * summaries `from` carried over itself included. True when any were carried.
 */
export async function carrySummaries(store: LcmStoreAsync, from: string, to: string, depth: number): Promise<boolean> {
  const summaries = await Promise.all((await store.contextSummaryIds(from)).map((id) => store.getSummary(id)));
  const kept = summaries.filter((s) => s !== undefined && (depth === -1 || s.depth >= depth)).map((s) => s!.id);
  if (kept.length === 0) return false;
  await store.carrySummaries(to, kept);
  return true;
}

/** What carrying summaries into a fresh session reads of the engine. */
export interface CarryOverParts {
  /** `new_session_retain_depth`. */
  depth: number;
  /** Whether `ignore_sessions` names the session. */
  isIgnored: (session: string) => boolean;
  /** Runs `body` on the engine's store. */
  use: <T>(body: (store: LcmStoreAsync) => Promise<T>) => Promise<T>;
  /** Sessions started with summaries carried over that the host has not been handed yet. */
  carriedUnseen: Set<string>;
  warn: (message: string) => void;
}

/**
 * Starts session `to` with the summaries in the context of `from` at `new_session_retain_depth` or
 * deeper (-1: all of them, 0: none), summaries `from` carried over itself included; nothing for a
 * session `ignore_sessions` names. A failure (another worker started `to` first) is a warning.
 */
export async function carryOver(parts: CarryOverParts, from: string, to: string): Promise<void> {
  if (parts.depth === 0 || parts.isIgnored(from) || parts.isIgnored(to)) return;
  try {
    if (await parts.use((store) => carrySummaries(store, from, to, parts.depth))) parts.carriedUnseen.add(to);
  } catch (error) {
    parts.warn(`lcm: the summaries of session '${from}' were not carried into '${to}': ${error instanceof Error ? error.message : String(error)}`);
  }
}
