/**
 * The lcm store over better-sqlite3: append-only messages and summaries with their lineage, the
 * per-session context-item list (replaced range by range in transactions), and the compaction log.
 * Every statement is prepared once.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DEFAULT_SESSION_SCOPE, type SqliteColumnTypes } from "../core.js";
import type { CompactionRecord, ItemRef, NewMessage, StoredMessage, SummaryKind, SummaryLevel, SummaryRecord } from "./records.js";
import { Database, type SqliteDatabase, type SqliteStatement } from "../deps.js";
import { messageId, parseMessageId, searchableText } from "../messageText.js";
import { packText } from "./packText.js";
import { lcmRowCodec, type LcmCompactionRow, type LcmMessageRow, type LcmSummaryRow } from "./rows.js";
import { LCM_ADDED_COLUMNS, LCM_RECORD_DEFAULT_SCOPES_SQL, LCM_SCHEMA_SQL, LCM_SCHEMA_VERSION, LCM_SCOPE_VERSION, LCM_TRIGRAM_VERSION } from "./schema.js";
import { hasUnspacedScript } from "./unspaced.js";

export type { CompactionRecord, ItemRef, NewMessage, StoredMessage, SummaryKind, SummaryLevel, SummaryRecord } from "./records.js";

/** The FTS token that restricts a full-text query to one session (a single alphanumeric token). */
export function sessionKey(session: string): string {
  return "s" + createHash("sha1").update(session).digest("hex").slice(0, 20);
}

/** The SQLite store's rows to records (better-sqlite3 hands integers over as numbers). */
const sqliteRows = lcmRowCodec<SqliteColumnTypes>({ bigint: (value) => value });
/** The lcm SQLite store. */
export class LcmStore {
  readonly db: SqliteDatabase;
  private readonly s: Record<string, SqliteStatement>;

  /** Opens (and creates) the store at `path`; `":memory:"` keeps it in memory. */
  constructor(readonly path: string) {
    let db: SqliteDatabase | undefined;
    try {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
      db = this.db = new Database(path);
      this.migrate();
    } catch (error) {
      db?.close();
      throw new Error(`lcm database ${path} cannot be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const p = (sql: string) => this.db.prepare(sql);
    this.s = {
      lastSeq: p("SELECT COALESCE(MAX(seq), 0) AS n FROM lcm_messages WHERE session = ?"),
      nextOrd: p("SELECT COALESCE(MAX(ord), -1) + 1 AS n FROM lcm_context_items WHERE session = ?"),
      insertMessage: p(
        "INSERT INTO lcm_messages (session, seq, role, message_json, content_text, tokens, identity, created_at, tokens_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      insertMessageFts: p("INSERT INTO lcm_messages_fts (rowid, text, skey) VALUES (?, ?, ?)"),
      insertMessageTri: p("INSERT INTO lcm_messages_tri (rowid, text) VALUES (?, ?)"),
      insertSummaryTri: p("INSERT INTO lcm_summaries_tri (rowid, text) VALUES (?, ?)"),
      insertItem: p("INSERT INTO lcm_context_items (session, ord, item_type, item_id) VALUES (?, ?, ?, ?)"),
      identityAt: p("SELECT identity FROM lcm_messages WHERE session = ? AND seq = ?"),
      identitiesFrom: p("SELECT identity FROM lcm_messages WHERE session = ? AND seq >= ? ORDER BY seq"),
      messageByRowId: p("SELECT * FROM lcm_messages WHERE id = ?"),
      messagesByRowIds: p("SELECT m.* FROM json_each(?) j JOIN lcm_messages m ON m.id = j.value"),
      messagesBySeq: p("SELECT * FROM lcm_messages WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq"),
      contextItems: p("SELECT item_type AS type, item_id AS id FROM lcm_context_items WHERE session = ? ORDER BY ord"),
      contextSummaryIds: p("SELECT item_id AS id FROM lcm_context_items INDEXED BY lcm_context_summaries WHERE session = ? AND item_type = 'summary' ORDER BY ord"),
      deleteItems: p("DELETE FROM lcm_context_items WHERE session = ? AND ord BETWEEN ? AND ?"),
      shiftItems: p("UPDATE lcm_context_items SET ord = ord - ? WHERE session = ? AND ord > ?"),
      insertSummary: p(
        "INSERT INTO lcm_summaries (id, session, kind, depth, level, content, tokens, source_tokens, seq_start, seq_end, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      insertSummaryFts: p("INSERT INTO lcm_summaries_fts (rowid, text, skey) VALUES (?, ?, ?)"),
      insertSource: p("INSERT INTO lcm_summary_sources (summary_id, ord, source_type, source_id) VALUES (?, ?, ?, ?)"),
      summaryById: p("SELECT * FROM lcm_summaries WHERE id = ?"),
      sources: p("SELECT source_type AS type, source_id AS id FROM lcm_summary_sources WHERE summary_id = ? ORDER BY ord"),
      parents: p("SELECT summary_id AS id FROM lcm_summary_sources WHERE source_id = ? ORDER BY summary_id"),
      messageCount: p("SELECT COUNT(*) AS n FROM lcm_messages WHERE session = ?"),
      summaryCounts: p("SELECT depth, kind, level, COUNT(*) AS n FROM lcm_summaries WHERE session = ? GROUP BY depth, kind, level ORDER BY depth, kind, level"),
      allSummaries: p("SELECT * FROM lcm_summaries WHERE session = ? ORDER BY seq_start, depth"),
      insertCompaction: p(
        "INSERT INTO lcm_compactions (session, at, passes, tokens_before, tokens_after, summaries_created, fallback_summaries) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ),
      lastCompaction: p("SELECT * FROM lcm_compactions WHERE session = ? ORDER BY id DESC LIMIT 1"),
      sessions: p("SELECT session FROM lcm_messages GROUP BY session UNION SELECT session FROM lcm_context_items GROUP BY session ORDER BY session"),
      sessionsOfScope: p(
        "SELECT session FROM lcm_sessions WHERE scope = ? AND (EXISTS (SELECT 1 FROM lcm_messages m WHERE m.session = lcm_sessions.session) OR EXISTS (SELECT 1 FROM lcm_context_items c WHERE c.session = lcm_sessions.session)) ORDER BY session",
      ),
      insertSession: p("INSERT OR IGNORE INTO lcm_sessions (session, scope) VALUES (?, ?)"),
      sessionScope: p("SELECT scope FROM lcm_sessions WHERE session = ?"),
      hasSession: p("SELECT 1 FROM lcm_sessions WHERE session = ? UNION ALL SELECT 1 FROM lcm_messages WHERE session = ? UNION ALL SELECT 1 FROM lcm_context_items WHERE session = ? LIMIT 1"),
    };
  }
  /** Sets the connection's pragmas and brings the schema to {@link LCM_SCHEMA_VERSION}. */
  private migrate(): void {
    // larger pages waste less space around rows of very different sizes (only effective on a new file)
    this.db.pragma("page_size = 16384");
    if (this.path !== ":memory:") this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    // REPLACE conflict resolution then fires the DELETE triggers, so INSERT OR REPLACE cannot overwrite a row
    this.db.pragma("recursive_triggers = ON");
    const openedVersion = this.db.pragma("user_version", { simple: true }) as number;
    this.db.exec(LCM_SCHEMA_SQL);
    for (const added of LCM_ADDED_COLUMNS) {
      const columns = this.db.pragma(`table_info(${added.table})`) as { name: string }[];
      if (!columns.some((c) => c.name === added.column)) this.db.exec(added.sql);
    }
    if (openedVersion > 0 && openedVersion < LCM_TRIGRAM_VERSION) this.fillTrigramIndexes();
    if (openedVersion > 0 && openedVersion < LCM_SCOPE_VERSION) this.db.exec(LCM_RECORD_DEFAULT_SCOPES_SQL);
    this.db.pragma(`user_version = ${LCM_SCHEMA_VERSION}`);
  }

  /**
   * Fills the trigram indexes (schema v3) from the rows a store file written before them holds: every
   * message and summary text written in a script without spaces. One transaction.
   */
  private fillTrigramIndexes(): void {
    const messages = this.db.prepare("SELECT * FROM lcm_messages WHERE id > ? ORDER BY id LIMIT 1000");
    const insertMessage = this.db.prepare("INSERT INTO lcm_messages_tri (rowid, text) VALUES (?, ?)");
    const insertSummary = this.db.prepare("INSERT INTO lcm_summaries_tri (rowid, text) VALUES (?, ?)");
    this.write(() => {
      for (let after = 0, rows: LcmMessageRow[]; (rows = messages.all(after) as LcmMessageRow[]).length > 0; after = rows[rows.length - 1]!.id) {
        for (const row of rows) {
          const text = searchableText(sqliteRows.toMessage(row).message);
          if (hasUnspacedScript(text)) insertMessage.run(row.id, text);
        }
      }
      for (const row of this.db.prepare("SELECT rowid AS rowId, content FROM lcm_summaries").all() as { rowId: number; content: string }[]) {
        if (hasUnspacedScript(row.content)) insertSummary.run(row.rowId, row.content);
      }
    });
  }

  /** False once the database was closed. */
  get isOpen(): boolean {
    return this.db.open;
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Highest seq stored for `session` (0 when empty). */
  lastSeq(session: string): number {
    return (this.s.lastSeq!.get(session) as { n: number }).n;
  }

  /** Every session the store holds messages or context items of (of `scope` only, when given), sorted. */
  sessions(scope?: string): string[] {
    const rows = scope === undefined ? this.s.sessions!.all() : this.s.sessionsOfScope!.all(scope);
    return (rows as { session: string }[]).map((r) => r.session);
  }

  /**
   * Records that `session` belongs to `scope` (a tenant or user id). A session's scope is fixed once
   * recorded (its first append records the default scope): recording another one throws, changing nothing.
   */
  recordSessionScope(session: string, scope: string): void {
    this.s.insertSession!.run(session, scope);
    const recorded = this.sessionScope(session);
    if (recorded !== scope) throw new Error(`lcm: session '${session}' belongs to scope '${recorded}', not '${scope}'`);
  }

  /** The scope `session` belongs to; the default scope for a session never recorded. */
  sessionScope(session: string): string {
    return (this.s.sessionScope!.get(session) as { scope: string } | undefined)?.scope ?? DEFAULT_SESSION_SCOPE;
  }

  /** True when `session` was started (recorded with its scope, by any engine on this store) or has any message or context item. */
  hasSession(session: string): boolean {
    return this.s.hasSession!.get(session, session, session) !== undefined;
  }

  /** Identity of the session's message at `seq`, if stored. */
  identityAt(session: string, seq: number): Buffer | undefined {
    return (this.s.identityAt!.get(session, seq) as { identity: Buffer } | undefined)?.identity;
  }

  /** Identities of the session's messages with seq ≥ `fromSeq`, in seq order. */
  identitiesFrom(session: string, fromSeq: number): Buffer[] {
    return (this.s.identitiesFrom!.all(session, fromSeq) as { identity: Buffer }[]).map((r) => r.identity);
  }

  /**
   * Appends messages to `session` (seq continues after the last one), indexes them for search and
   * appends them to the context list, in one transaction. Returns the stored records.
   */
  appendMessages(session: string, messages: readonly NewMessage[], createdAt: number): StoredMessage[] {
    if (messages.length === 0) return [];
    const skey = sessionKey(session);
    return this.write(() => {
      this.s.insertSession!.run(session, DEFAULT_SESSION_SCOPE);
      let seq = this.lastSeq(session);
      let ord = (this.s.nextOrd!.get(session) as { n: number }).n;
      const out: StoredMessage[] = [];
      for (const m of messages) {
        seq += 1;
        const stringContent = typeof m.message.content === "string";
        const json = JSON.stringify(stringContent ? { ...m.message, content: null } : m.message);
        const content = stringContent ? packText(m.message.content as string) : null;
        const info = this.s.insertMessage!.run(session, seq, m.message.role, packText(json), content, m.tokens, m.identity, createdAt, m.tokensBy ?? null);
        const rowId = Number(info.lastInsertRowid);
        const text = searchableText(m.message);
        this.s.insertMessageFts!.run(rowId, text, skey);
        if (hasUnspacedScript(text)) this.s.insertMessageTri!.run(rowId, text);
        this.s.insertItem!.run(session, ord++, "message", messageId(rowId));
        out.push({ id: messageId(rowId), rowId, session, seq, role: m.message.role, message: m.message, tokens: m.tokens, identity: m.identity, createdAt, tokensBy: m.tokensBy });
      }
      return out;
    });
  }

  /** One stored message by public id, or undefined. */
  getMessage(id: string): StoredMessage | undefined {
    const rowId = parseMessageId(id);
    if (rowId === undefined) return undefined;
    const row = this.s.messageByRowId!.get(rowId) as LcmMessageRow | undefined;
    return row ? sqliteRows.toMessage(row) : undefined;
  }

  /** Stored messages by public ids, in seq order (unknown ids are skipped). */
  getMessages(ids: readonly string[]): StoredMessage[] {
    const rowIds = ids.map(parseMessageId).filter((n): n is number => n !== undefined);
    const rows = this.s.messagesByRowIds!.all(JSON.stringify(rowIds)) as LcmMessageRow[];
    return rows.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : a.seq - b.seq)).map(sqliteRows.toMessage);
  }

  /** The session's messages with seq in [from, to], in order. */
  getMessagesBySeq(session: string, from: number, to: number): StoredMessage[] {
    return (this.s.messagesBySeq!.all(session, from, to) as LcmMessageRow[]).map(sqliteRows.toMessage);
  }

  /** The session's context items, in order. */
  contextItems(session: string): ItemRef[] {
    return this.s.contextItems!.all(session) as ItemRef[];
  }

  /** Ids of the summaries in the session's context, in order (cheap: raw items are not read). */
  contextSummaryIds(session: string): string[] {
    return (this.s.contextSummaryIds!.all(session) as { id: string }[]).map((r) => r.id);
  }

  /** One summary by id, or undefined. */
  getSummary(id: string): SummaryRecord | undefined {
    const row = this.s.summaryById!.get(id) as LcmSummaryRow | undefined;
    return row ? sqliteRows.toSummary(row) : undefined;
  }

  /** Every summary of the session, oldest range first. */
  allSummaries(session: string): SummaryRecord[] {
    return (this.s.allSummaries!.all(session) as LcmSummaryRow[]).map(sqliteRows.toSummary);
  }

  /** The ordered sources of a summary. */
  sourcesOf(summaryId: string): ItemRef[] {
    return this.s.sources!.all(summaryId) as ItemRef[];
  }

  /** Ids of the summaries that have `id` (a message or summary) as a source. */
  parentsOf(id: string): string[] {
    return (this.s.parents!.all(id) as { id: string }[]).map((r) => r.id);
  }

  /**
   * Records `summary` with its sources and, in the same transaction, replaces the context items
   * `fromOrd..toOrd` (inclusive) with it. Throws (and changes nothing) if the range is not exactly `sources`.
   */
  commitSummary(summary: SummaryRecord, sources: readonly ItemRef[], fromOrd: number, toOrd: number): void {
    this.write(() => {
      const current = this.contextItems(summary.session).slice(fromOrd, toOrd + 1);
      const same = current.length === sources.length && current.every((c, i) => c.type === sources[i]!.type && c.id === sources[i]!.id);
      if (!same) throw new Error(`lcm: context items ${fromOrd}..${toOrd} of session '${summary.session}' changed under the compaction`);
      const r = summary;
      const info = this.s.insertSummary!.run(r.id, r.session, r.kind, r.depth, r.level, r.content, r.tokens, r.sourceTokens, r.seqStart, r.seqEnd, r.createdAt);
      this.s.insertSummaryFts!.run(Number(info.lastInsertRowid), r.content, sessionKey(r.session));
      if (hasUnspacedScript(r.content)) this.s.insertSummaryTri!.run(Number(info.lastInsertRowid), r.content);
      sources.forEach((src, i) => this.s.insertSource!.run(r.id, i, src.type, src.id));
      this.s.deleteItems!.run(r.session, fromOrd, toOrd);
      this.s.shiftItems!.run(toOrd - fromOrd, r.session, toOrd);
      this.s.insertItem!.run(r.session, fromOrd, "summary", r.id);
    });
  }

  /**
   * Starts the context of `session` with `summaryIds` (summaries of an earlier session, carried over by
   * `/new`), in that order. Refuses, changing nothing, when the session already has context items or an id is not a stored summary.
   */
  carrySummaries(session: string, summaryIds: readonly string[]): void {
    this.write(() => {
      this.s.insertSession!.run(session, DEFAULT_SESSION_SCOPE);
      if (this.contextItems(session).length > 0) throw new Error(`lcm: session '${session}' already has context items; summaries are carried into an empty session only`);
      summaryIds.forEach((id, ord) => {
        if (this.s.summaryById!.get(id) === undefined) throw new Error(`lcm: cannot carry summary ${id} into session '${session}': no such summary`);
        this.s.insertItem!.run(session, ord, "summary", id);
      });
    });
  }

  /**
   * Runs `body` as one write transaction that takes the write lock at BEGIN (IMMEDIATE). A deferred
   * transaction that reads first and then writes cannot wait for another process's lock: in WAL mode its
   * upgrade fails at once with SQLITE_BUSY when that process committed meanwhile, whatever the busy timeout.
   */
  private write<T>(body: () => T): T {
    return this.db.transaction(body).immediate();
  }

  /** Appends one entry to the compaction log. */
  logCompaction(c: CompactionRecord): void {
    this.s.insertCompaction!.run(c.session, c.at, c.passes, c.tokensBefore, c.tokensAfter, c.summariesCreated, c.fallbackSummaries);
  }

  /** The session's latest compaction, if any. */
  lastCompaction(session: string): CompactionRecord | undefined {
    const row = this.s.lastCompaction!.get(session) as LcmCompactionRow | undefined;
    return row ? sqliteRows.toCompaction(session, row) : undefined;
  }

  /** Number of stored messages of the session. */
  messageCount(session: string): number {
    return (this.s.messageCount!.get(session) as { n: number }).n;
  }

  /** Summary counts of the session grouped by depth, kind and level. */
  summaryCounts(session: string): { depth: number; kind: SummaryKind; level: SummaryLevel; n: number }[] {
    return this.s.summaryCounts!.all(session) as { depth: number; kind: SummaryKind; level: SummaryLevel; n: number }[];
  }
}
