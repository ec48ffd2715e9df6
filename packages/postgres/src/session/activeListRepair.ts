/**
 * The PostgreSQL side of `repairActiveList` (core's `SessionStore.repairActiveList`): a repair of the
 * active list that is no compaction, written once inside the session's write transaction.
 */
import type { ChatMessage } from "@context-engine/core";
import { repairedRowIds, type ActiveListRepair } from "@context-engine/core/store";
import { num, type Queryable } from "../connection.js";

/**
 * Archives the active rows `repair` replaces (neither active nor compacted) and writes its messages
 * followed by the rows appended after the read ones, through `insertRows`; undefined (nothing written)
 * when the first replaced row was written by a compaction still in effect. Schema `s` is quoted.
 */
export async function writeActiveListRepair(
  client: Queryable,
  s: string,
  sessionId: string,
  repair: ActiveListRepair,
  where: string,
  insertRows: (messages: readonly ChatMessage[]) => Promise<number[]>,
): Promise<number[] | undefined> {
  const active = await client.query<{ id: string; seq: number }>(`SELECT id, seq FROM ${s}.messages WHERE session_id = $1 AND active ORDER BY seq`, [sessionId]);
  const activeIds = active.rows.map((row) => num(row.id));
  const replaced = repairedRowIds(activeIds, repair, where);
  if (replaced.length > 0) {
    const from = active.rows[repair.kept]!.seq;
    const inEffect = await client.query<{ n: number }>(
      `SELECT COALESCE(MAX(c.last_seq), 0) AS n FROM ${s}.compactions c WHERE c.session_id = $1 AND c.kind = 'compaction' AND c.last_seq IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM ${s}.compactions u WHERE u.reverts_compaction_id = c.id)`,
      [sessionId],
    );
    if (from <= inEffect.rows[0]!.n) return undefined;
    await client.query(`UPDATE ${s}.messages SET active = FALSE WHERE session_id = $1 AND active AND seq >= $2`, [sessionId, from]);
  }
  const appended = activeIds.slice(repair.readRowIds.length);
  const carried = appended.length === 0 ? [] : (await client.query<{ message_json: string }>(`SELECT message_json FROM ${s}.messages WHERE id = ANY($1::bigint[]) ORDER BY seq`, [appended])).rows;
  return insertRows([...repair.messages, ...carried.map((row) => JSON.parse(row.message_json) as ChatMessage)]);
}
