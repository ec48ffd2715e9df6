/**
 * The session store's writes on the request path, each one statement: an append (the session's
 * `updated_at` and the new rows, seqs after the last), and a compaction's read (the session, its active
 * row ids, its last seq) and write (the compaction's log entry, the archived rows, the new active rows and
 * the session's count). A worker's write then costs a few round trips, not one per step: under load a
 * round trip waits for a CPU on both sides. The caller holds the session's advisory lock.
 */
import type { ChatMessage, CompactionRecord, SessionRecord } from "@context-engine/core";
import { searchableMessageText, unknownSessionError, type StoredTokenCounting } from "@context-engine/core/store";
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

/**
 * Appends `messages` (non-empty) to `sessionId` after its last seq and stamps the session's `updated_at`,
 * in one statement; returns their ids. Throws the unknown-session error when the session is not there.
 */
export async function appendRows(client: Queryable, s: string, sessionId: string, messages: readonly ChatMessage[], counting: StoredTokenCounting, at: number, where: string): Promise<number[]> {
  const rows = messageRows(messages, counting, 2, at);
  const { rows: inserted } = await client.query<{ id: string; seq: number }>(
    `WITH touched AS (UPDATE ${s}.sessions SET updated_at = $2 WHERE id = $1 RETURNING id)
     ${INSERT_MESSAGES(s)}
     SELECT ${rows.values("touched.id", "l.n")}
     FROM touched, (SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${s}.messages WHERE session_id = $1) l, ${rows.source}
     ORDER BY u.i RETURNING id, seq`,
    [sessionId, ...rows.params],
  );
  if (inserted.length === 0) throw unknownSessionError(sessionId, where);
  return idsBySeq(inserted);
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

/** An in-place compaction to write: the new active list, and its log entry's fields. */
export interface InPlaceCompaction {
  view: CompactionView;
  written: readonly ChatMessage[];
  at: number;
  summary: string | null;
  report: string | null;
}

/**
 * Writes an in-place compaction in one statement: its log entry, every active row archived under it, the
 * `written` list appended as the new active rows (the archiving does not see them: one snapshot), and the
 * session's compaction count and mode. Returns the log entry.
 */
export async function writeInPlaceCompaction(client: Queryable, s: string, sessionId: string, compaction: InPlaceCompaction, counting: StoredTokenCounting): Promise<CompactionRecord> {
  const { view, written, at } = compaction;
  const firstSeq = view.lastSeq + 1;
  const rows = messageRows(written, counting, 8, at);
  const { rows: entries } = await client.query<PgCompactionRow>(
    `WITH c AS (
       INSERT INTO ${s}.compactions (session_id, kind, at, in_place, messages_before, messages_after, summary, report_json, first_seq, last_seq, reverts_compaction_id)
       VALUES ($1, 'compaction', $2, TRUE, $3, $4, $5, $6, ${firstSeq}, ${firstSeq + written.length - 1}, NULL) RETURNING *),
     archived AS (UPDATE ${s}.messages SET active = FALSE, compacted = TRUE, compaction_id = (SELECT id FROM c) WHERE session_id = $1 AND active),
     appended AS (${INSERT_MESSAGES(s)} SELECT ${rows.values("$1", String(firstSeq))} FROM ${rows.source} ORDER BY u.i),
     counted AS (UPDATE ${s}.sessions SET compression_count = $7, last_compaction_in_place = TRUE, updated_at = $2 WHERE id = $1)
     SELECT c.*, NULL::bigint AS undone_by FROM c`,
    [sessionId, at, view.activeIds.length, written.length, compaction.summary, compaction.report, view.session.compressionCount + 1, ...rows.params],
  );
  return toCompaction(entries[0]!);
}
