/**
 * The PostgreSQL schema of the session store: the SQLite store's tables (sessions, messages with
 * active/compacted flags, the compaction log, engine state) with a generated `tsvector` column and a GIN
 * index for word search, and a pg_trgm GIN index on the text for substrings and CJK. As in SQLite the
 * database itself refuses DELETE (and TRUNCATE), and UPDATE of anything but a message's flags.
 */
import type { PgMigration } from "../migrate.js";

/** Characters of a message's text that go into its `tsvector` (a tsvector holds at most 1 MB); substring search covers the rest. */
export const TSVECTOR_TEXT_CHARS = 100_000;

const refuse = (s: string, table: string, operation: "DELETE" | "UPDATE" | "TRUNCATE", what: string) => `
CREATE TRIGGER ${table}_no_${operation.toLowerCase()} BEFORE ${operation} ON ${s}.${table}
FOR EACH ${operation === "TRUNCATE" ? "STATEMENT" : "ROW"} EXECUTE FUNCTION ${s}.refuse_change('${table}: ${operation} refused — ${what}');`;

const V1 = (s: string, trgm: string) => `
CREATE TABLE ${s}.sessions (
  id TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  title TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  parent_session_id TEXT REFERENCES ${s}.sessions(id),
  compression_count INTEGER NOT NULL DEFAULT 0 CHECK (compression_count >= 0),
  last_compaction_in_place BOOLEAN,
  -- creation order (SQLite's rowid): the tie-break of listings
  ord BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX sessions_by_parent ON ${s}.sessions (parent_session_id);
CREATE INDEX sessions_by_update ON ${s}.sessions (updated_at DESC, ord DESC);

CREATE TABLE ${s}.compactions (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES ${s}.sessions(id),
  kind TEXT NOT NULL CHECK (kind IN ('compaction', 'undo')),
  at BIGINT NOT NULL,
  in_place BOOLEAN NOT NULL,
  messages_before INTEGER NOT NULL,
  messages_after INTEGER NOT NULL,
  summary TEXT,
  report_json TEXT,
  first_seq INTEGER,
  last_seq INTEGER,
  reverts_compaction_id BIGINT REFERENCES ${s}.compactions(id)
);
CREATE INDEX compactions_by_session ON ${s}.compactions (session_id, id);
CREATE UNIQUE INDEX compactions_reverted_once ON ${s}.compactions (reverts_compaction_id) WHERE reverts_compaction_id IS NOT NULL;

CREATE TABLE ${s}.messages (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES ${s}.sessions(id),
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  message_json TEXT NOT NULL,
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  tokens_by TEXT,
  active BOOLEAN NOT NULL DEFAULT TRUE,
  compacted BOOLEAN NOT NULL DEFAULT FALSE,
  compaction_id BIGINT REFERENCES ${s}.compactions(id),
  created_at BIGINT NOT NULL,
  tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, left(text, ${TSVECTOR_TEXT_CHARS}))) STORED,
  UNIQUE (session_id, seq),
  CHECK (NOT (active AND compacted))
);
CREATE INDEX messages_active ON ${s}.messages (session_id, active, seq);
CREATE INDEX messages_by_compaction ON ${s}.messages (compaction_id) WHERE compaction_id IS NOT NULL;
CREATE INDEX messages_tsv ON ${s}.messages USING GIN (tsv);
CREATE INDEX messages_trgm ON ${s}.messages USING GIN (text ${trgm}.gin_trgm_ops);

CREATE TABLE ${s}.engine_state (
  engine TEXT NOT NULL,
  session_id TEXT NOT NULL,
  state_json TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (engine, session_id)
);

CREATE FUNCTION ${s}.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$;

CREATE FUNCTION ${s}.messages_flags_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.session_id, NEW.seq, NEW.role, NEW.message_json, NEW.text, NEW.tokens, NEW.tokens_by, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.session_id, OLD.seq, OLD.role, OLD.message_json, OLD.text, OLD.tokens, OLD.tokens_by, OLD.created_at) THEN
    RAISE EXCEPTION 'messages: UPDATE refused — only active, compacted and compaction_id may change';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER messages_flags_only BEFORE UPDATE ON ${s}.messages FOR EACH ROW EXECUTE FUNCTION ${s}.messages_flags_only();

CREATE FUNCTION ${s}.sessions_identity_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.created_at, NEW.parent_session_id) IS DISTINCT FROM (OLD.id, OLD.created_at, OLD.parent_session_id) THEN
    RAISE EXCEPTION 'sessions: UPDATE refused — id, created_at and parent_session_id are fixed';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER sessions_identity_fixed BEFORE UPDATE ON ${s}.sessions FOR EACH ROW EXECUTE FUNCTION ${s}.sessions_identity_fixed();
${refuse(s, "messages", "DELETE", "archived turns are kept forever (compaction marks them active=false, compacted=true)")}
${refuse(s, "compactions", "DELETE", "the compaction log is append-only")}
${refuse(s, "compactions", "UPDATE", "the compaction log is append-only")}
${refuse(s, "sessions", "DELETE", "sessions are never deleted")}
${refuse(s, "messages", "TRUNCATE", "archived turns are kept forever")}
${refuse(s, "compactions", "TRUNCATE", "the compaction log is append-only")}
${refuse(s, "sessions", "TRUNCATE", "sessions are never deleted")}
`;

/**
 * v2: sessions belong to someone (docs/BEHAVIOUR.md, "Multi-user stores"). Every session, message,
 * compaction and engine-state row carries its session's scope (rows written before get 'default'; a message's and a
 * compaction's are copied from their session on insert, and no scope ever changes), and row-level
 * security, forced on the tables' owner too, shows a transaction only the rows of the scope it set with
 * `set_config('context_engine.scope', <scope>, true)`. A connection that sets none is the operator's: it
 * sees every scope. The stores' agent tools always set one, so a query they build cannot reach past it.
 */
const V2 = (s: string) => `
ALTER TABLE ${s}.sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
ALTER TABLE ${s}.messages ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
ALTER TABLE ${s}.compactions ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
ALTER TABLE ${s}.engine_state ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
CREATE INDEX sessions_by_scope ON ${s}.sessions (scope, updated_at DESC);
CREATE INDEX messages_by_scope ON ${s}.messages (scope);

CREATE FUNCTION ${s}.inherit_session_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := (SELECT scope FROM ${s}.sessions WHERE id = NEW.session_id);
  RETURN NEW;
END $$;
CREATE TRIGGER messages_scope BEFORE INSERT ON ${s}.messages FOR EACH ROW EXECUTE FUNCTION ${s}.inherit_session_scope();
CREATE TRIGGER compactions_scope BEFORE INSERT ON ${s}.compactions FOR EACH ROW EXECUTE FUNCTION ${s}.inherit_session_scope();
-- engine state is keyed by the ids engines are given, which need not be stored sessions: those stay 'default'
CREATE FUNCTION ${s}.engine_state_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := coalesce((SELECT scope FROM ${s}.sessions WHERE id = NEW.session_id), 'default');
  RETURN NEW;
END $$;
CREATE TRIGGER engine_state_scope BEFORE INSERT OR UPDATE ON ${s}.engine_state FOR EACH ROW EXECUTE FUNCTION ${s}.engine_state_scope();

${scopeFixedFunction(s, "scope_fixed")}
CREATE TRIGGER sessions_scope_fixed BEFORE UPDATE ON ${s}.sessions FOR EACH ROW EXECUTE FUNCTION ${s}.scope_fixed();
CREATE TRIGGER messages_scope_fixed BEFORE UPDATE ON ${s}.messages FOR EACH ROW EXECUTE FUNCTION ${s}.scope_fixed();

${scopeIsolation(s, ["sessions", "messages", "compactions", "engine_state"])}
`;

/** The name of the per-transaction setting that says which scope a transaction may see. */
export const SCOPE_SETTING = "context_engine.scope";
/** True for a row the current transaction may see: its scope is the one set, or none is set (the operator's connection). */
const SCOPE_VISIBLE = `coalesce(nullif(current_setting('${SCOPE_SETTING}', true), ''), scope) = scope`;

/** `CREATE FUNCTION <s>.<name>()`: a BEFORE UPDATE trigger function that refuses a change of a row's scope. */
export function scopeFixedFunction(s: string, name: string): string {
  return `CREATE FUNCTION ${s}.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.scope IS DISTINCT FROM OLD.scope THEN RAISE EXCEPTION '%: UPDATE refused — the scope of a row is fixed', TG_TABLE_NAME; END IF;
  RETURN NEW;
END $$;`;
}

/** Row-level security on `tables` of schema `s`, forced on their owner too: a transaction sees and writes the rows of the scope it set only. */
export function scopeIsolation(s: string, tables: readonly string[]): string {
  return tables
    .map(
      (table) => `
ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY;
CREATE POLICY scope_isolation ON ${s}.${table}
  USING (${SCOPE_VISIBLE})
  WITH CHECK (${SCOPE_VISIBLE});`,
    )
    .join("\n");
}

/** Every schema step of the session store, oldest first. Append new steps; never edit a released one. */
export const PG_SESSION_STORE_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
];
