/**
 * The lcm SQLite schema. Messages, summaries, lineage and the compaction log are append-only: triggers
 * make the database itself refuse UPDATE and DELETE on them, and an INSERT (OR REPLACE) over a stored
 * row. The per-session list of context items is the only mutable structure.
 */

/**
 * Schema version written to `PRAGMA user_version`. v2: `lcm_messages.tokens_by` names the counting that
 * produced `tokens` (a counter's `countingId`), so another counter recounts instead of trusting it.
 * v3: trigram indexes (`lcm_messages_tri`, `lcm_summaries_tri`) of the texts written without spaces
 * between words (CJK, kana, Hangul, Thai), so a word inside such text is found as a substring.
 * v4: `lcm_sessions` records whose each session is (its scope, fixed once recorded); the sessions of an
 * older file are recorded in the default scope.
 */
export const LCM_SCHEMA_VERSION = 4;

/** The full DDL, idempotent (`IF NOT EXISTS`). */
export const LCM_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS lcm_messages (
  id INTEGER PRIMARY KEY,
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  -- the original message as JSON; string content is stored once, in content_text, and the JSON holds
  -- null in its place (same key position, so the message is rebuilt verbatim). Long values are stored
  -- as a raw-deflate BLOB instead of TEXT (see LcmStore's pack/unpack).
  message_json NOT NULL,
  content_text,
  tokens INTEGER NOT NULL,
  identity BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  tokens_by TEXT,
  UNIQUE (session, seq)
);

CREATE TABLE IF NOT EXISTS lcm_summaries (
  id TEXT PRIMARY KEY,
  session TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('leaf', 'condensed')),
  depth INTEGER NOT NULL CHECK (depth >= 1),
  level INTEGER NOT NULL CHECK (level IN (1, 2, 3)),
  content TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  source_tokens INTEGER NOT NULL,
  seq_start INTEGER NOT NULL,
  seq_end INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS lcm_summary_sources (
  summary_id TEXT NOT NULL REFERENCES lcm_summaries(id),
  ord INTEGER NOT NULL,
  source_type TEXT NOT NULL CHECK (source_type IN ('message', 'summary')),
  source_id TEXT NOT NULL,
  PRIMARY KEY (summary_id, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS lcm_summary_sources_by_source ON lcm_summary_sources (source_id);

CREATE TABLE IF NOT EXISTS lcm_context_items (
  session TEXT NOT NULL,
  ord INTEGER NOT NULL,
  item_type TEXT NOT NULL CHECK (item_type IN ('message', 'summary')),
  item_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lcm_context_items_by_session ON lcm_context_items (session, ord);
CREATE INDEX IF NOT EXISTS lcm_context_summaries ON lcm_context_items (session, ord) WHERE item_type = 'summary';

CREATE TABLE IF NOT EXISTS lcm_compactions (
  id INTEGER PRIMARY KEY,
  session TEXT NOT NULL,
  at INTEGER NOT NULL,
  passes INTEGER NOT NULL,
  tokens_before INTEGER NOT NULL,
  tokens_after INTEGER NOT NULL,
  summaries_created INTEGER NOT NULL,
  fallback_summaries INTEGER NOT NULL
);

-- whose each session is: a tenant or user id, fixed once recorded (the agent tools answer from one scope)
CREATE TABLE IF NOT EXISTS lcm_sessions (
  session TEXT PRIMARY KEY,
  scope TEXT NOT NULL DEFAULT 'default'
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS lcm_sessions_by_scope ON lcm_sessions (scope, session);

-- contentless full-text indexes: the text lives once, in the tables above
CREATE VIRTUAL TABLE IF NOT EXISTS lcm_messages_fts USING fts5 (text, skey, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS lcm_summaries_fts USING fts5 (text, skey, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2');
-- substring indexes of the texts in scripts written without spaces (see unspacedScript), same rowids
CREATE VIRTUAL TABLE IF NOT EXISTS lcm_messages_tri USING fts5 (text, content='', columnsize=0, tokenize='trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS lcm_summaries_tri USING fts5 (text, content='', columnsize=0, tokenize='trigram');

${appendOnlyTriggers("lcm_messages", [])}
${appendOnlyTriggers("lcm_summaries", ["id = NEW.id"])}
${appendOnlyTriggers("lcm_summary_sources", ["summary_id = NEW.summary_id AND ord = NEW.ord"])}
${appendOnlyTriggers("lcm_compactions", ["id = NEW.id"])}
CREATE TRIGGER IF NOT EXISTS lcm_sessions_no_delete BEFORE DELETE ON lcm_sessions
BEGIN SELECT RAISE(ABORT, 'lcm_sessions: DELETE refused — a session keeps its scope'); END;
CREATE TRIGGER IF NOT EXISTS lcm_sessions_scope_fixed BEFORE UPDATE ON lcm_sessions
BEGIN SELECT RAISE(ABORT, 'lcm_sessions: UPDATE refused — the scope of a session is fixed'); END;
`;

/** The version that added `lcm_sessions`: a store opening an older file records its sessions in the default scope. */
export const LCM_SCOPE_VERSION = 4;

/** Records every session an older file holds in the default scope (no session had another one). */
export const LCM_RECORD_DEFAULT_SCOPES_SQL = `
INSERT OR IGNORE INTO lcm_sessions (session)
SELECT session FROM lcm_messages GROUP BY session UNION SELECT session FROM lcm_context_items GROUP BY session`;

/** Columns added after v1, as `ALTER TABLE` statements for files created before them. */
export const LCM_ADDED_COLUMNS: readonly { table: string; column: string; sql: string }[] = [
  { table: "lcm_messages", column: "tokens_by", sql: "ALTER TABLE lcm_messages ADD COLUMN tokens_by TEXT" },
];

/** The version that added the trigram tables: a store opening an older file fills them from its rows. */
export const LCM_TRIGRAM_VERSION = 3;

/**
 * DELETE and UPDATE refused. `INSERT OR REPLACE` deletes the row it replaces without firing DELETE
 * triggers unless `recursive_triggers` is on, which LcmStore sets on its connection; for the tables
 * written rarely, an INSERT meeting an existing row under one of `uniqueKeys` (conditions on NEW) is
 * refused for every connection too. lcm_messages has no such trigger: it would halve the ingest rate.
 */
function appendOnlyTriggers(table: string, uniqueKeys: readonly string[]): string {
  const clash = uniqueKeys.map((key) => `EXISTS (SELECT 1 FROM ${table} WHERE ${key})`).join(" OR ");
  const noReplace = clash
    ? `
CREATE TRIGGER IF NOT EXISTS ${table}_no_replace BEFORE INSERT ON ${table} WHEN ${clash}
BEGIN SELECT RAISE(ABORT, '${table} is append-only: INSERT over an existing row refused'); END;`
    : "";
  return `${noReplace}
CREATE TRIGGER IF NOT EXISTS ${table}_no_delete BEFORE DELETE ON ${table}
BEGIN SELECT RAISE(ABORT, '${table} is append-only: DELETE refused'); END;
CREATE TRIGGER IF NOT EXISTS ${table}_no_update BEFORE UPDATE ON ${table}
BEGIN SELECT RAISE(ABORT, '${table} is append-only: UPDATE refused'); END;`;
}
