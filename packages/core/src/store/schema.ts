/**
 * The session store's SQLite schema, as numbered migrations tracked in `PRAGMA user_version`.
 * Messages and the compaction log are never deleted: triggers make the database itself refuse
 * DELETE, allow UPDATE of a message only on its active/compacted/compaction_id flags, and (v2) refuse
 * an INSERT that would collide with a stored row — SQLite's REPLACE conflict resolution deletes the old
 * row without firing DELETE triggers (unless `recursive_triggers` is on), so it is stopped before it runs.
 */
import type BetterSqlite3 from "better-sqlite3";

/** One schema step: applied once, in order, when `user_version` is below `version`. */
export interface Migration {
  version: number;
  sql: string;
}

const refuseDelete = (table: string, what: string) => `
CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table}
BEGIN SELECT RAISE(ABORT, '${table}: DELETE refused — ${what}'); END;`;

const V1 = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  title TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  parent_session_id TEXT REFERENCES sessions(id),
  compression_count INTEGER NOT NULL DEFAULT 0 CHECK (compression_count >= 0),
  last_compaction_in_place INTEGER CHECK (last_compaction_in_place IN (0, 1))
);
CREATE INDEX sessions_by_parent ON sessions (parent_session_id);

CREATE TABLE compactions (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  kind TEXT NOT NULL CHECK (kind IN ('compaction', 'undo')),
  at INTEGER NOT NULL,
  in_place INTEGER NOT NULL CHECK (in_place IN (0, 1)),
  messages_before INTEGER NOT NULL,
  messages_after INTEGER NOT NULL,
  summary TEXT,
  report_json TEXT,
  -- rows this entry wrote into the session: seq first_seq..last_seq (none for an undo)
  first_seq INTEGER,
  last_seq INTEGER,
  reverts_compaction_id INTEGER REFERENCES compactions(id)
);
CREATE INDEX compactions_by_session ON compactions (session_id, id);
CREATE UNIQUE INDEX compactions_reverted_once ON compactions (reverts_compaction_id) WHERE reverts_compaction_id IS NOT NULL;

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  -- the message exactly as given, as JSON
  message_json TEXT NOT NULL,
  -- flattened searchable text (content text and rendered tool calls)
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  compacted INTEGER NOT NULL DEFAULT 0 CHECK (compacted IN (0, 1)),
  compaction_id INTEGER REFERENCES compactions(id),
  created_at INTEGER NOT NULL,
  UNIQUE (session_id, seq),
  CHECK (NOT (active = 1 AND compacted = 1))
);
CREATE INDEX messages_active ON messages (session_id, active, seq);
CREATE INDEX messages_by_compaction ON messages (compaction_id) WHERE compaction_id IS NOT NULL;

-- external-content index over messages.text (the text is stored once, snippets come from it)
CREATE VIRTUAL TABLE messages_fts USING fts5 (text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
BEGIN INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text); END;

${refuseDelete("messages", "archived turns are kept forever (compaction marks them active=0, compacted=1)")}
CREATE TRIGGER messages_flags_only BEFORE UPDATE ON messages
WHEN new.id IS NOT old.id OR new.session_id IS NOT old.session_id OR new.seq IS NOT old.seq OR new.role IS NOT old.role
  OR new.message_json IS NOT old.message_json OR new.text IS NOT old.text OR new.tokens IS NOT old.tokens OR new.created_at IS NOT old.created_at
BEGIN SELECT RAISE(ABORT, 'messages: UPDATE refused — only active, compacted and compaction_id may change'); END;

${refuseDelete("compactions", "the compaction log is append-only")}
CREATE TRIGGER compactions_no_update BEFORE UPDATE ON compactions
BEGIN SELECT RAISE(ABORT, 'compactions: UPDATE refused — the compaction log is append-only'); END;

${refuseDelete("sessions", "sessions are never deleted")}
CREATE TRIGGER sessions_identity_fixed BEFORE UPDATE ON sessions
WHEN new.id IS NOT old.id OR new.created_at IS NOT old.created_at OR new.parent_session_id IS NOT old.parent_session_id
BEGIN SELECT RAISE(ABORT, 'sessions: UPDATE refused — id, created_at and parent_session_id are fixed'); END;
`;

const refuseCollision = (table: string, collides: string, what: string) => `
CREATE TRIGGER ${table}_no_replace BEFORE INSERT ON ${table}
WHEN ${collides}
BEGIN SELECT RAISE(ABORT, '${table}: INSERT refused — ${what}'); END;`;

/** v2: no INSERT OR REPLACE / REPLACE / upsert over a stored row (BEFORE INSERT runs before conflict resolution). */
const V2 = `
${refuseCollision(
  "messages",
  "EXISTS (SELECT 1 FROM messages WHERE id = new.id) OR EXISTS (SELECT 1 FROM messages WHERE session_id = new.session_id AND seq = new.seq)",
  "a row with this id or (session_id, seq) exists; stored turns are never replaced",
)}
${refuseCollision(
  "compactions",
  "EXISTS (SELECT 1 FROM compactions WHERE id = new.id) OR (new.reverts_compaction_id IS NOT NULL AND EXISTS (SELECT 1 FROM compactions WHERE reverts_compaction_id = new.reverts_compaction_id))",
  "the entry (or an undo of that compaction) exists; the compaction log is append-only",
)}
${refuseCollision("sessions", "EXISTS (SELECT 1 FROM sessions WHERE id = new.id)", "a session with this id exists; sessions are never replaced")}
`;

/**
 * v3: `messages.tokens_by` names the counting that produced `tokens` (a counter's `countingId`; NULL
 * when unknown), so a reloaded message's stored count is reused only by a counter that counts the same.
 */
const V3 = `
ALTER TABLE messages ADD COLUMN tokens_by TEXT;
CREATE TRIGGER messages_tokens_by_fixed BEFORE UPDATE OF tokens_by ON messages
WHEN new.tokens_by IS NOT old.tokens_by
BEGIN SELECT RAISE(ABORT, 'messages: UPDATE refused — only active, compacted and compaction_id may change'); END;
`;

/**
 * v4: `engine_state` holds an engine's state of one session (cooldowns, failure streaks, the last
 * summary), so a restarted engine keeps them. Unlike the conversation tables it is working state: a
 * row is replaced on every change and deleted when the session ends. No foreign key: engines key it
 * by the session ids their callers use, which need not be sessions of this store.
 */
const V4 = `
CREATE TABLE engine_state (
  engine TEXT NOT NULL,
  session_id TEXT NOT NULL,
  state_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (engine, session_id)
);
`;

/**
 * v5: `sessions.scope` says whose session it is (a tenant or user id; issue "Sessions belong to someone").
 * Sessions written before get 'default', the scope of a session created without one. It is fixed once
 * written, like the id.
 */
const V5 = `
ALTER TABLE sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
CREATE INDEX sessions_by_scope ON sessions (scope, updated_at);
CREATE TRIGGER sessions_scope_fixed BEFORE UPDATE OF scope ON sessions
WHEN new.scope IS NOT old.scope
BEGIN SELECT RAISE(ABORT, 'sessions: UPDATE refused — the scope of a session is fixed'); END;
`;

/**
 * v6: `compaction_leases` says which process compacts a session now (see sqliteLease.ts): processes on one
 * file compact a session one at a time. Working state like `engine_state`: a row lives while its holder
 * compacts (renewed meanwhile) and is deleted after; a crashed holder's row expires.
 */
const V6 = `
CREATE TABLE compaction_leases (
  session_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

/** Every schema step, oldest first. Append new steps; never edit a released one. */
export const SESSION_STORE_MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
  { version: 3, sql: V3 },
  { version: 4, sql: V4 },
  { version: 5, sql: V5 },
  { version: 6, sql: V6 },
];

/** The `user_version` a fully migrated database has. */
export const SESSION_STORE_SCHEMA_VERSION = SESSION_STORE_MIGRATIONS[SESSION_STORE_MIGRATIONS.length - 1]!.version;

/**
 * Brings `db` to {@link SESSION_STORE_SCHEMA_VERSION}, each step in its own transaction. Throws when the
 * file was written by a newer schema (`where` names the file). Safe when several processes open a new
 * file at once: each step takes the write lock first and re-reads the version under it, so a step
 * another process has just applied is skipped instead of failing ("table sessions already exists").
 */
export function migrateSessionStore(db: BetterSqlite3.Database, where: string): void {
  const version = () => db.pragma("user_version", { simple: true }) as number;
  const current = version();
  if (current > SESSION_STORE_SCHEMA_VERSION) {
    throw new Error(`${where}: session store schema version ${current} is newer than this build supports (${SESSION_STORE_SCHEMA_VERSION}); upgrade @context-engine/core`);
  }
  for (const step of SESSION_STORE_MIGRATIONS) {
    if (step.version <= current) continue;
    db.transaction(() => {
      if (version() >= step.version) return;
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
}
