/**
 * The PostgreSQL schema of the lcm store: lcm's SQLite tables (messages, summaries and their lineage,
 * the compaction log: append-only, the database refuses UPDATE and DELETE; the per-session context
 * items: the one mutable list) with a generated `tsvector` and a pg_trgm index on the searchable text of
 * messages and summaries. Messages are stored as their JSON text, verbatim (TOAST compresses long ones).
 */
import type { PgMigration } from "../migrate.js";
import { scopeFixedFunction, scopeIsolation, TSVECTOR_TEXT_CHARS } from "../session/schema.js";

const appendOnly = (s: string, table: string) => `
CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_refuse_change('${table} is append-only: UPDATE refused');
CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_refuse_change('${table} is append-only: DELETE refused');
CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${s}.${table} FOR EACH STATEMENT EXECUTE FUNCTION ${s}.lcm_refuse_change('${table} is append-only: TRUNCATE refused');`;

const tsv = (column: string) => `TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, left(${column}, ${TSVECTOR_TEXT_CHARS}))) STORED`;

const V1 = (s: string, trgm: string) => `
CREATE FUNCTION ${s}.lcm_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$;

CREATE TABLE ${s}.lcm_messages (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  message_json TEXT NOT NULL,
  search_text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  identity BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  tokens_by TEXT,
  tsv ${tsv("search_text")},
  UNIQUE (session, seq)
);
CREATE INDEX lcm_messages_by_session_id ON ${s}.lcm_messages (session, id);
CREATE INDEX lcm_messages_tsv ON ${s}.lcm_messages USING GIN (tsv);
CREATE INDEX lcm_messages_trgm ON ${s}.lcm_messages USING GIN (search_text ${trgm}.gin_trgm_ops);

CREATE TABLE ${s}.lcm_summaries (
  row_id BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
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
  created_at BIGINT NOT NULL,
  tsv ${tsv("content")}
);
CREATE INDEX lcm_summaries_by_session ON ${s}.lcm_summaries (session, seq_start, depth);
CREATE INDEX lcm_summaries_tsv ON ${s}.lcm_summaries USING GIN (tsv);
CREATE INDEX lcm_summaries_trgm ON ${s}.lcm_summaries USING GIN (content ${trgm}.gin_trgm_ops);

CREATE TABLE ${s}.lcm_summary_sources (
  summary_id TEXT NOT NULL REFERENCES ${s}.lcm_summaries(id),
  ord INTEGER NOT NULL,
  source_type TEXT NOT NULL CHECK (source_type IN ('message', 'summary')),
  source_id TEXT NOT NULL,
  PRIMARY KEY (summary_id, ord)
);
CREATE INDEX lcm_summary_sources_by_source ON ${s}.lcm_summary_sources (source_id);

CREATE TABLE ${s}.lcm_context_items (
  session TEXT NOT NULL,
  ord INTEGER NOT NULL,
  item_type TEXT NOT NULL CHECK (item_type IN ('message', 'summary')),
  item_id TEXT NOT NULL
);
CREATE INDEX lcm_context_items_by_session ON ${s}.lcm_context_items (session, ord);

CREATE TABLE ${s}.lcm_compactions (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session TEXT NOT NULL,
  at BIGINT NOT NULL,
  passes INTEGER NOT NULL,
  tokens_before INTEGER NOT NULL,
  tokens_after INTEGER NOT NULL,
  summaries_created INTEGER NOT NULL,
  fallback_summaries INTEGER NOT NULL
);
CREATE INDEX lcm_compactions_by_session ON ${s}.lcm_compactions (session, id);
${appendOnly(s, "lcm_messages")}
${appendOnly(s, "lcm_summaries")}
${appendOnly(s, "lcm_summary_sources")}
${appendOnly(s, "lcm_compactions")}
`;

/** The lcm tables that hold a scope column under row-level security (v2). */
const SCOPED_TABLES = ["lcm_sessions", "lcm_messages", "lcm_summaries", "lcm_summary_sources", "lcm_context_items", "lcm_compactions"];

/**
 * v2: sessions belong to someone (docs/BEHAVIOUR.md, "Multi-user stores"), as in the session store's v2.
 * `lcm_sessions` records each session's scope (the sessions stored before get 'default'); every lcm row
 * carries its session's scope, copied on insert (a lineage row's from its summary), and no scope ever
 * changes. Row-level security, forced on the tables' owner too, shows a transaction that set
 * `context_engine.scope` only that scope's rows; a connection that sets none (the engine's writes, the
 * operator) sees every scope. lcm's agent tools read in a transaction set to the caller's scope.
 */
const V2 = (s: string) => `
CREATE TABLE ${s}.lcm_sessions (
  session TEXT PRIMARY KEY,
  scope TEXT NOT NULL DEFAULT 'default'
);
CREATE INDEX lcm_sessions_by_scope ON ${s}.lcm_sessions (scope, session);
INSERT INTO ${s}.lcm_sessions (session)
  SELECT session FROM ${s}.lcm_messages UNION SELECT session FROM ${s}.lcm_context_items;
${SCOPED_TABLES.slice(1)
  .map((table) => `ALTER TABLE ${s}.${table} ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';`)
  .join("\n")}

CREATE FUNCTION ${s}.lcm_inherit_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := coalesce((SELECT scope FROM ${s}.lcm_sessions WHERE session = NEW.session), 'default');
  RETURN NEW;
END $$;
CREATE FUNCTION ${s}.lcm_inherit_summary_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := (SELECT scope FROM ${s}.lcm_summaries WHERE id = NEW.summary_id);
  RETURN NEW;
END $$;
${["lcm_messages", "lcm_summaries", "lcm_context_items", "lcm_compactions"]
  .map((table) => `CREATE TRIGGER ${table}_scope BEFORE INSERT ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_inherit_scope();`)
  .join("\n")}
CREATE TRIGGER lcm_summary_sources_scope BEFORE INSERT ON ${s}.lcm_summary_sources FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_inherit_summary_scope();

${scopeFixedFunction(s, "lcm_scope_fixed")}
CREATE TRIGGER lcm_sessions_scope_fixed BEFORE UPDATE ON ${s}.lcm_sessions FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_scope_fixed();
CREATE TRIGGER lcm_context_items_scope_fixed BEFORE UPDATE ON ${s}.lcm_context_items FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_scope_fixed();
CREATE TRIGGER lcm_sessions_no_delete BEFORE DELETE ON ${s}.lcm_sessions FOR EACH ROW EXECUTE FUNCTION ${s}.lcm_refuse_change('lcm_sessions: DELETE refused — a session keeps its scope');
${scopeIsolation(s, SCOPED_TABLES)}
`;

/** Every schema step of the lcm store, oldest first. Append new steps; never edit a released one. */
export const PG_LCM_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
];
