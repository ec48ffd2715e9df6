/**
 * The session store's writes on the request path, each one statement: an append (the session's
 * `updated_at` and the new rows, seqs after the last), and an in-place compaction (checked against the
 * rows it read; its log entry, the archived rows, the new active rows, the carried ones and the session's
 * count). A worker's write then costs a few round trips, not one per step: under load a round trip waits
 * for a CPU on both sides. The caller holds the session's advisory lock. Also the read a rotation checks
 * against (the session, its active row ids, its last seq).
 */
import type { ChatMessage, CompactionRecord, SessionRecord } from "@context-engine/core";
import { nothingToCompactError, rowsAppendedAfter, searchableMessageText, unknownSessionError, type StoredTokenCounting } from "@context-engine/core/store";
import { num, type Queryable } from "../connection.js";
import { storableSearchText } from "../search/query.js";
import { toCompaction, toSession, type PgCompactionRow, type PgSessionRow } from "./rows.js";

/**
 * `messages` as rows to insert, read from arrays (`unnest … WITH ORDINALITY`): `values(session, first)` is the
 * select list (session id and first seq as SQL expressions; created at `$<from>`), `source` the FROM item,
 * `params` the parameters from `$<from>` on.
 */
function messageRows(messages: readonly ChatMessage[], counting: StoredTokenCounting, from: number, at: number): { values: (session: string, first: string) => string; source: string; params: unknown[] } {
  const counts = messages.map((m) => counting.count(m));
  const p = (i: number) => `$${from + i}`;
  return {
    values: (session, first) => `${session}, ${first} + u.i - 1, u.role, u.message_json, u.text, u.tokens, u.tokens_by, ${p(0)}`,
    source: `unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::int[], ${p(5)}::text[]) WITH ORDINALITY AS u(role, message_json, text, tokens, tokens_by, i)`,
    params: [
      at,
      messages.map((m) => m.role),
      messages.map((m) => JSON.stringify(m)),
      messages.map((m) => storableSearchText(searchableMessageText(m))),
      counts.map((c) => c.tokens),
      counts.map((c) => c.by),
    ],
  };
}

const INSERT_MESSAGES = (s: string) => `INSERT INTO ${s}.messages (session_id, seq, role, message_json, text, tokens, tokens_by, created_at)`;

/** The ids of inserted rows, in seq order. */
const idsBySeq = (rows: readonly { id: string; seq: number }[]) => [...rows].sort((a, b) => a.seq - b.seq).map((r) => num(r.id));

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The append of `messages` (non-empty) to `sessionId` after its last seq, with the session's `updated_at`
 * stamped, as one statement answering the new rows' ids and seqs (none: the session is not there).
 */
export function appendStatement(s: string, sessionId: string, messages: readonly ChatMessage[], counting: StoredTokenCounting, at: number): Statement {
  const rows = messageRows(messages, counting, 2, at);
  return {
    sql: `WITH touched AS (UPDATE ${s}.sessions SET updated_at = $2 WHERE id = $1 RETURNING id)
     ${INSERT_MESSAGES(s)}
     SELECT ${rows.values("touched.id", "l.n")}
     FROM touched, (SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${s}.messages WHERE session_id = $1) l, ${rows.source}
     ORDER BY u.i RETURNING id, seq`,
    params: [sessionId, ...rows.params],
  };
}

/** The ids of the rows {@link appendStatement} inserted, in seq order; throws the unknown-session error when it inserted none. */
export function appendedIds(rows: readonly { id: string; seq: number }[], sessionId: string, where: string): number[] {
  if (rows.length === 0) throw unknownSessionError(sessionId, where);
  return idsBySeq(rows);
}

/** Appends `messages` to `sessionId` after its last seq, in one statement (the session is known to be there); returns their ids. */
export async function insertRows(client: Queryable, s: string, sessionId: string, messages: readonly ChatMessage[], counting: StoredTokenCounting, at: number): Promise<number[]> {
  if (messages.length === 0) return [];
  const rows = messageRows(messages, counting, 2, at);
  const { rows: inserted } = await client.query<{ id: string; seq: number }>(
    `${INSERT_MESSAGES(s)}
     SELECT ${rows.values("$1", "l.n")} FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${s}.messages WHERE session_id = $1) l, ${rows.source}
     ORDER BY u.i RETURNING id, seq`,
    [sessionId, ...rows.params],
  );
  return idsBySeq(inserted);
}

/** What a compaction checks and writes against, read in one statement. */
export interface CompactionView {
  session: SessionRecord;
  /** The active rows' ids, in seq order. */
  activeIds: number[];
  /** The highest seq of the session (0 when it has no rows). */
  lastSeq: number;
}

/** The session, its active row ids and its last seq; throws the unknown-session error when it is not there. */
export async function readCompactionView(client: Queryable, s: string, sessionId: string, where: string): Promise<CompactionView> {
  const { rows } = await client.query<PgSessionRow & { active_ids: string[] | null; last_seq: number }>(
    `SELECT x.*,
       (SELECT array_agg(m.id ORDER BY m.seq) FROM ${s}.messages m WHERE m.session_id = x.id AND m.active) AS active_ids,
       (SELECT COALESCE(MAX(m.seq), 0) FROM ${s}.messages m WHERE m.session_id = x.id) AS last_seq
     FROM ${s}.sessions x WHERE x.id = $1`,
    [sessionId],
  );
  const row = rows[0];
  if (row === undefined) throw unknownSessionError(sessionId, where);
  return { session: toSession(row), activeIds: (row.active_ids ?? []).map((id) => num(id)), lastSeq: row.last_seq };
}

/** An in-place compaction to write: the compacted list, the rows it was made from, and its log entry's fields. */
export interface InPlaceCompaction {
  /** The compacted list; the rows appended after `compactedRowIds` follow it. */
  messages: readonly ChatMessage[];
  /** The active rows' ids the compaction read (undefined: not checked, nothing carried). */
  compactedRowIds: readonly number[] | undefined;
  at: number;
  summary: string | null;
  report: string | null;
}

/**
 * An in-place compaction as one statement, checked against the rows it read: when the session's active
 * list still begins with `compactedRowIds`, its log entry, every active row archived under it, the
 * compacted list appended as the new active rows followed by copies of the rows appended after the read
 * ones (the archiving does not see the new rows: one snapshot), and the session's compaction count and
 * mode. It answers one row: whether the session was found, its active ids, and the log entry (null when
 * nothing was written); {@link compactionWritten} reads it.
 */
export function compactionStatement(s: string, sessionId: string, compaction: InPlaceCompaction, counting: StoredTokenCounting): Statement {
  const { messages, compactedRowIds, at } = compaction;
  const read = compactedRowIds ?? [];
  const rows = messageRows(messages, counting, 9, at);
  return {
    sql: `WITH v AS (
       SELECT x.compression_count,
         COALESCE((SELECT array_agg(m.id ORDER BY m.seq) FROM ${s}.messages m WHERE m.session_id = x.id AND m.active), '{}'::bigint[]) AS ids,
         (SELECT COALESCE(MAX(m.seq), 0) FROM ${s}.messages m WHERE m.session_id = x.id) AS last_seq
       FROM ${s}.sessions x WHERE x.id = $1),
     ok AS (
       SELECT v.*, CASE WHEN $7 THEN cardinality(v.ids) - $3 ELSE 0 END AS carried FROM v
       WHERE cardinality(v.ids) > 0 AND (NOT $7 OR (cardinality(v.ids) >= $3 AND v.ids[1:$3] = $8::bigint[]))),
     c AS (
       INSERT INTO ${s}.compactions (session_id, kind, at, in_place, messages_before, messages_after, summary, report_json, first_seq, last_seq, reverts_compaction_id)
       SELECT $1, 'compaction', $2, TRUE, cardinality(ok.ids), $4 + ok.carried, $5, $6, ok.last_seq + 1, ok.last_seq + $4 + ok.carried, NULL FROM ok
       RETURNING *),
     archived AS (UPDATE ${s}.messages SET active = FALSE, compacted = TRUE, compaction_id = (SELECT id FROM c) WHERE session_id = $1 AND active AND EXISTS (SELECT 1 FROM c)),
     appended AS (${INSERT_MESSAGES(s)} SELECT ${rows.values("$1", "ok.last_seq + 1")} FROM ok, ${rows.source} ORDER BY u.i),
     copied AS (
       ${INSERT_MESSAGES(s)} SELECT $1, ok.last_seq + $4 + k.i, m.role, m.message_json, m.text, m.tokens, m.tokens_by, $2
       FROM ok, unnest(ok.ids[$3 + 1:]) WITH ORDINALITY AS k(id, i) JOIN ${s}.messages m ON m.id = k.id WHERE $7 ORDER BY k.i),
     counted AS (UPDATE ${s}.sessions x SET compression_count = ok.compression_count + 1, last_compaction_in_place = TRUE, updated_at = $2 FROM ok WHERE x.id = $1)
     SELECT EXISTS (SELECT 1 FROM v) AS found, (SELECT ids FROM v) AS active_ids, c.*, NULL::bigint AS undone_by FROM (SELECT 1) AS one LEFT JOIN c ON TRUE`,
    params: [sessionId, at, read.length, messages.length, compaction.summary, compaction.report, compactedRowIds !== undefined, read, ...rows.params],
  };
}

/** The row {@link compactionStatement} answered. */
export type CompactionStatementRow = PgCompactionRow & { found: boolean; active_ids: string[] | null };

/**
 * The log entry {@link compactionStatement} wrote; throws, as every store words it, when it wrote nothing:
 * an unknown session, an empty active list, or a list that no longer begins with `compactedRowIds`.
 */
export function compactionWritten(row: CompactionStatementRow, sessionId: string, compactedRowIds: readonly number[] | undefined, where: string): CompactionRecord {
  if (!row.found) throw unknownSessionError(sessionId, where);
  const activeIds = (row.active_ids ?? []).map((id) => num(id));
  if (activeIds.length === 0) throw nothingToCompactError(where);
  if (row.id === null) {
    rowsAppendedAfter(activeIds, compactedRowIds, where); // throws the conflict
    throw new Error(`${where}: the compaction was not written`);
  }
  return toCompaction(row);
}
