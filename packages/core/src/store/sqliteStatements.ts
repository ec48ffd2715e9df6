/** The SQL of the SQLite session store (sqliteStore.ts), each statement prepared once per open database. */
import type Database from "better-sqlite3";

const COMPACTION_COLUMNS = "c.*, (SELECT u.id FROM compactions u WHERE u.reverts_compaction_id = c.id) AS undone_by";

/** The SQL of every statement of the store, by name. */
const SQL = {
  insertSession:
    "INSERT INTO sessions (id, platform, title, created_at, updated_at, parent_session_id, compression_count, last_compaction_in_place, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  session: "SELECT * FROM sessions WHERE id = ?",
  children: "SELECT * FROM sessions WHERE parent_session_id = ? ORDER BY created_at, rowid",
  touchSession: "UPDATE sessions SET updated_at = ? WHERE id = ?",
  setCompactionState: "UPDATE sessions SET compression_count = ?, last_compaction_in_place = ?, updated_at = ? WHERE id = ?",
  lastSeq: "SELECT COALESCE(MAX(seq), 0) AS n FROM messages WHERE session_id = ?",
  insertMessage:
    "INSERT INTO messages (session_id, seq, role, message_json, text, tokens, tokens_by, active, compacted, compaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, NULL, ?)",
  activeRows: "SELECT * FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq",
  activeIds: "SELECT id FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq",
  activeJson: "SELECT message_json, tokens, tokens_by FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq",
  activeCount: "SELECT COUNT(*) AS n FROM messages WHERE session_id = ? AND active = 1",
  archived: "SELECT * FROM messages WHERE session_id = ? AND active = 0 ORDER BY seq",
  archivedBy: "SELECT * FROM messages WHERE session_id = ? AND active = 0 AND compaction_id = ? ORDER BY seq",
  archiveActive: "UPDATE messages SET active = 0, compacted = 1, compaction_id = ? WHERE session_id = ? AND active = 1",
  archiveSeqRange: "UPDATE messages SET active = 0, compacted = 1, compaction_id = ? WHERE session_id = ? AND active = 1 AND seq BETWEEN ? AND ?",
  countActiveSeqRange: "SELECT COUNT(*) AS n FROM messages WHERE session_id = ? AND active = 1 AND seq BETWEEN ? AND ?",
  restoreArchivedBy: "UPDATE messages SET active = 1, compacted = 0, compaction_id = NULL WHERE session_id = ? AND active = 0 AND compaction_id = ?",
  countArchivedBy: "SELECT COUNT(*) AS n FROM messages WHERE session_id = ? AND active = 0 AND compaction_id = ?",
  insertCompaction:
    "INSERT INTO compactions (session_id, kind, at, in_place, messages_before, messages_after, summary, report_json, first_seq, last_seq, reverts_compaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  compaction: `SELECT ${COMPACTION_COLUMNS} FROM compactions c WHERE c.id = ?`,
  compactions: `SELECT ${COMPACTION_COLUMNS} FROM compactions c WHERE c.session_id = ? ORDER BY c.id`,
  listSessions:
    `SELECT s.*,
       (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
       (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id AND m.active = 1) AS active_count,
       (SELECT COALESCE(MAX(m.seq), 0) FROM messages m WHERE m.session_id = s.id) AS last_seq
     FROM sessions s
     WHERE (@platform IS NULL OR s.platform = @platform) AND (@ids IS NULL OR s.id IN (SELECT value FROM json_each(@ids)))
       AND (@scope IS NULL OR s.scope = @scope)
     ORDER BY s.updated_at DESC, s.rowid DESC LIMIT @limit OFFSET @offset`,
  messagesBySeq: "SELECT * FROM messages WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
  engineState: "SELECT state_json FROM engine_state WHERE engine = ? AND session_id = ?",
  saveEngineState:
    "INSERT INTO engine_state (engine, session_id, state_json, updated_at) VALUES (?, ?, ?, ?) " +
      "ON CONFLICT (engine, session_id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at",
  clearEngineState: "DELETE FROM engine_state WHERE engine = ? AND session_id = ?",
  engineStates: "SELECT engine, state_json, updated_at FROM engine_state WHERE session_id = ? ORDER BY engine",
  takeLease:
    "INSERT INTO compaction_leases (session_id, holder, expires_at) VALUES (?, ?, ?) " +
    "ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE compaction_leases.expires_at < ? RETURNING 1",
  renewLease: "UPDATE compaction_leases SET expires_at = ? WHERE session_id = ? AND holder = ?",
  releaseLease: "DELETE FROM compaction_leases WHERE session_id = ? AND holder = ?",
  takeEngineState: "DELETE FROM engine_state WHERE engine = ? AND session_id = ? RETURNING state_json",
  claimEngineState:
    "INSERT INTO engine_state (engine, session_id, state_json, updated_at) VALUES (?, ?, ?, ?) " +
    "ON CONFLICT (engine, session_id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at WHERE engine_state.updated_at < ? RETURNING 1",
  // the last seq a compaction still in effect wrote (0 when none): a repair leaves its rows to it
  inEffectLastSeq:
    `SELECT COALESCE(MAX(c.last_seq), 0) AS n FROM compactions c WHERE c.session_id = ? AND c.kind = 'compaction' AND c.last_seq IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM compactions u WHERE u.reverts_compaction_id = c.id)`,
  seqOf: "SELECT seq FROM messages WHERE id = ?",
  messageJson: "SELECT message_json FROM messages WHERE id = ?",
  archiveRepaired: "UPDATE messages SET active = 0 WHERE session_id = ? AND active = 1 AND seq >= ?",
  inEffect:
    `SELECT ${COMPACTION_COLUMNS} FROM compactions c WHERE c.session_id = ? AND c.kind = 'compaction'
     AND NOT EXISTS (SELECT 1 FROM compactions u WHERE u.reverts_compaction_id = c.id) ORDER BY c.id DESC LIMIT 2`,
};

/** The statements that answer their first column's value instead of a row. */
const PLUCKED: ReadonlySet<string> = new Set<keyof typeof SQL>(["activeIds", "seqOf", "messageJson"]);

/** Every statement of the store by name, prepared. */
export type SqliteStatements = { readonly [K in keyof typeof SQL]: Database.Statement };

/** Every statement of the store, prepared once. */
export function prepareStatements(db: Database.Database): SqliteStatements {
  const prepared: Record<string, Database.Statement> = {};
  for (const [name, sql] of Object.entries(SQL)) prepared[name] = PLUCKED.has(name) ? db.prepare(sql).pluck() : db.prepare(sql);
  return prepared as SqliteStatements;
}
