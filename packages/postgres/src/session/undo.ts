/**
 * Undoing the latest in-place compaction over PostgreSQL: the rows it wrote are archived under an undo
 * entry of the log, the rows it archived come back, and the session's count and mode go back one step.
 * Nothing is deleted. The caller holds the session's advisory lock.
 */
import type { UndoResult } from "@context-engine/core";
import { undoRefusal } from "@context-engine/core/store";
import { num, type Queryable } from "../connection.js";
import { COMPACTION_COLUMNS, insertCompaction, setCompactionState } from "./compactionLog.js";
import { readCompactionView } from "./rowWrites.js";
import { toCompaction, type PgCompactionRow } from "./rows.js";

/** Undoes the latest in-place compaction of `sessionId` in effect; undefined when there is none. Throws the refusal when it cannot be undone. */
export async function undoLastCompactionOn(client: Queryable, s: string, sessionId: string, now: () => number, where: string): Promise<UndoResult | undefined> {
  const { session, activeIds } = await readCompactionView(client, s, sessionId, where);
  const { rows: inEffect } = await client.query<PgCompactionRow>(
    `SELECT ${COMPACTION_COLUMNS(s)} FROM ${s}.compactions c WHERE c.session_id = $1 AND c.kind = 'compaction'
     AND NOT EXISTS (SELECT 1 FROM ${s}.compactions u WHERE u.reverts_compaction_id = c.id) ORDER BY c.id DESC LIMIT 2`,
    [sessionId],
  );
  const [lastRow, previousRow] = inEffect;
  if (!lastRow) return undefined;
  const last = toCompaction(lastRow);
  const refused = undoRefusal(last, session.parentSessionId, where);
  if (refused) throw refused;
  const [firstSeq, lastSeq] = [lastRow.first_seq ?? 0, lastRow.last_seq ?? -1];
  const count = async (sql: string, params: unknown[]) => num((await client.query<{ n: string }>(sql, params)).rows[0]!.n);
  const written = await count(`SELECT COUNT(*) AS n FROM ${s}.messages WHERE session_id = $1 AND active AND seq BETWEEN $2 AND $3`, [sessionId, firstSeq, lastSeq]);
  const restorable = await count(`SELECT COUNT(*) AS n FROM ${s}.messages WHERE session_id = $1 AND NOT active AND compaction_id = $2`, [sessionId, last.id]);
  const at = now();
  const before = activeIds.length;
  const undoId = await insertCompaction(client, s, [sessionId, "undo", at, true, before, before - written + restorable, null, null, null, null, last.id]);
  const archived = await client.query(`UPDATE ${s}.messages SET active = FALSE, compacted = TRUE, compaction_id = $1 WHERE session_id = $2 AND active AND seq BETWEEN $3 AND $4`, [
    undoId,
    sessionId,
    firstSeq,
    lastSeq,
  ]);
  const restored = await client.query(`UPDATE ${s}.messages SET active = TRUE, compacted = FALSE, compaction_id = NULL WHERE session_id = $1 AND NOT active AND compaction_id = $2`, [sessionId, last.id]);
  await setCompactionState(client, s, sessionId, Math.max(0, session.compressionCount - 1), previousRow === undefined ? null : previousRow.in_place, at);
  return { undoneCompactionId: last.id, undoId, restored: restored.rowCount ?? 0, archived: archived.rowCount ?? 0 };
}
