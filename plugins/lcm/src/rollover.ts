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
