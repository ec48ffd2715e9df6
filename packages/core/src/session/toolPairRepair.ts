/**
 * The tool pairs an engine repaired in a compaction attempt that compacted nothing (the compressor's
 * `repairedToolPairs`): written to the store once (`repairActiveList`, no compaction), so the next
 * attempt finds nothing to repair instead of making the same repair every turn.
 */
import { isDeepStrictEqual } from "node:util";
import type { ChatMessage } from "../messages/schema.js";
import { CompactionConflictError, type SessionStoreAsync, type StoredMessage } from "../store/types.js";

/**
 * Writes `repaired` (the engine's answer for the messages of `startRows`, the rows it read) as the
 * session's active list: the leading messages it left as they were stay, the rest is replaced, and turns
 * appended meanwhile follow it. Returns the length of the active list it leaves; undefined when nothing
 * was written (a store without `repairActiveList`, a repair of rows a compaction in effect wrote, or a
 * list another worker changed first).
 */
export async function storeToolPairRepair(store: SessionStoreAsync, sessionId: string, startRows: readonly StoredMessage[], repaired: readonly ChatMessage[]): Promise<number | undefined> {
  if (store.repairActiveList === undefined) return undefined;
  let kept = 0;
  while (kept < startRows.length && kept < repaired.length && (repaired[kept] === startRows[kept]!.message || isDeepStrictEqual(repaired[kept], startRows[kept]!.message))) kept++;
  try {
    const written = await store.repairActiveList(sessionId, { readRowIds: startRows.map((row) => row.id), kept, messages: repaired.slice(kept) });
    return written === undefined ? undefined : kept + written.length;
  } catch (error) {
    if (error instanceof CompactionConflictError) return undefined;
    throw error;
  }
}
