/**
 * The session store's compaction log over PostgreSQL: entries appended (never changed), each read with the
 * id of the undo that reversed it, and the session's compaction count and mode they leave.
 */
import type { CompactionRecord } from "@context-engine/core";
import { num, type Queryable } from "../connection.js";
import { toCompaction, type PgCompactionRow } from "./rows.js";

/** The columns of a log entry `c` of schema `s`, with the id of the undo that reversed it (`undone_by`). */
export const COMPACTION_COLUMNS = (s: string) => `c.*, (SELECT u.id FROM ${s}.compactions u WHERE u.reverts_compaction_id = c.id) AS undone_by`;

/** Appends a log entry: `values` are session_id, kind, at, in_place, messages_before, messages_after, summary, report_json, first_seq, last_seq, reverts_compaction_id. Returns its id. */
export async function insertCompaction(client: Queryable, s: string, values: unknown[]): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO ${s}.compactions (session_id, kind, at, in_place, messages_before, messages_after, summary, report_json, first_seq, last_seq, reverts_compaction_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    values,
  );
  return num(rows[0]!.id);
}

/** Sets the session's compaction count and the mode of its latest compaction in effect. */
export async function setCompactionState(client: Queryable, s: string, sessionId: string, count: number, inPlace: boolean | null, at: number): Promise<void> {
  await client.query(`UPDATE ${s}.sessions SET compression_count = $1, last_compaction_in_place = $2, updated_at = $3 WHERE id = $4`, [count, inPlace, at, sessionId]);
}

/** The log entry `id`. */
export async function compactionById(client: Queryable, s: string, id: number): Promise<CompactionRecord> {
  const { rows } = await client.query<PgCompactionRow>(`SELECT ${COMPACTION_COLUMNS(s)} FROM ${s}.compactions c WHERE c.id = $1`, [id]);
  return toCompaction(rows[0]!);
}
