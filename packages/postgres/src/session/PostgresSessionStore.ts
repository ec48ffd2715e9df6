/**
 * The session store over PostgreSQL (`openPostgresStore`), for many workers (processes, machines)
 * sharing sessions: the same contract as the embedded SQLite store (`SessionStoreAsync`: every method
 * returns a promise). Every write of a session runs in one transaction that first takes the session's
 * advisory lock (`pg_advisory_xact_lock`), so appends get consecutive seqs and are never lost or
 * duplicated, and a compaction checks the rows it read (`compactedRowIds`) against the active list
 * under that lock: of two workers compacting the same turns, one writes and the other gets
 * `CompactionConflictError`, so no turn is compacted twice. Nothing is ever deleted.
 */
import { randomUUID } from "node:crypto";
import {
  parseMessages,
  SessionStoreError,
  type ChatMessage,
  type CompactionInfo,
  type CompactionRecord,
  type ListSessionsOptions,
  type NewSession,
  type SearchHit,
  type SearchOptions,
  type SessionOverview,
  type SessionRecord,
  type SessionStoreAsync,
  type StoredMessage,
  type TokenCounter,
  type UndoResult,
} from "@context-engine/core";
import type { ActiveListRepair, EngineStateEntry } from "@context-engine/core/store";
import {
  checkCompactedList,
  checkSeqRange,
  parseListSessionsOptions,
  parseNewSession,
  reportJson,
  rowsAppendedAfter,
  sessionExistsError,
  sessionScope,
  storedTokenCounting,
  unknownSessionError,
  type SessionSearchSource,
  type StoredTokenCounting,
} from "@context-engine/core/store";
import { closeLeases, connect, leaseSessionCompaction, num, withScope, withSessionLock, withTransaction, type PgConnection, type PgConnectionOptions, type Queryable } from "../connection.js";
import { openSchema } from "../migrate.js";
import { MESSAGE_COLUMNS, toCompaction, toSession, toStored, type PgCompactionRow, type PgMessageRow, type PgSessionRow } from "./rows.js";
import { PG_SESSION_STORE_MIGRATIONS } from "./schema.js";
import { searchMessages } from "./search.js";
import { writeActiveListRepair } from "./activeListRepair.js";
import { COMPACTION_COLUMNS, compactionById, insertCompaction, setCompactionState } from "./compactionLog.js";
import { PgEngineState } from "./engineState.js";
import { undoLastCompactionOn } from "./undo.js";
import { appendedIds, appendStatement, compactionStatement, compactionWritten, insertRows, readCompactionView, type CompactionStatementRow } from "./rowWrites.js";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions extends PgConnectionOptions {
  /** Counts each stored message's tokens (default: the rough estimate), as in `SqliteStoreOptions`. */
  tokenCounter?: TokenCounter;
  /** Clock in epoch ms (default `Date.now`). */
  now?: () => number;
}

/** The PostgreSQL implementation of `SessionStoreAsync` (and of the engine state, asynchronously). */
export class PostgresSessionStore implements SessionStoreAsync {
  private readonly s: string;
  private readonly now: () => number;
  private readonly counting: StoredTokenCounting;
  private readonly engineState: PgEngineState;

  private constructor(
    private readonly connection: PgConnection,
    options: PostgresStoreOptions,
  ) {
    this.s = connection.schema;
    this.now = options.now ?? Date.now;
    this.counting = storedTokenCounting(options.tokenCounter);
    this.engineState = new PgEngineState(connection.pool, this.s, this.now);
  }

  /** Connects, checks the schema version (creating or migrating the tables when behind and this role may), and returns the store. */
  static async open(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
    const connection = connect(options, "openPostgresStore");
    try {
      await openSchema(connection, "session_store", PG_SESSION_STORE_MIGRATIONS, "openPostgresStore");
    } catch (error) {
      if (connection.ownsPool) await connection.pool.end().catch(() => undefined);
      if (error instanceof SessionStoreError) throw error;
      throw new SessionStoreError(`openPostgresStore: cannot open the session store: ${(error as Error).message}`);
    }
    return new PostgresSessionStore(connection, options);
  }

  /** Closes the pool when the store opened it. */
  async close(): Promise<void> {
    await closeLeases(this.connection);
    if (this.connection.ownsPool) await this.connection.pool.end();
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    const parsed = parseNewSession(session);
    return withTransaction(this.connection.pool, (client) => this.insertSession(client, { ...parsed, id: parsed.id ?? randomUUID() }));
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.readSession(this.connection.pool, sessionId);
  }

  async childSessions(sessionId: string): Promise<SessionRecord[]> {
    const rows = await this.rows<PgSessionRow>(this.connection.pool, `SELECT * FROM ${this.s}.sessions WHERE parent_session_id = $1 ORDER BY created_at, ord`, [sessionId]);
    return rows.map(toSession);
  }

  async appendMessages(sessionId: string, messages: readonly ChatMessage[]): Promise<number[]> {
    const where = `appendMessages('${sessionId}')`;
    parseMessages(messages, where);
    if (messages.length === 0) return (await this.requireSession(this.connection.pool, sessionId, where), []);
    const statement = appendStatement(this.s, sessionId, messages, this.counting, this.now());
    return this.writeSession(sessionId, async (client) => appendedIds((await client.query<{ id: string; seq: number }>(statement.sql, statement.params)).rows, sessionId, where));
  }

  async activeMessages(sessionId: string): Promise<ChatMessage[]> {
    await this.requireSession(this.connection.pool, sessionId, "activeMessages");
    const rows = await this.rows<Pick<PgMessageRow, "message_json" | "tokens" | "tokens_by">>(
      this.connection.pool,
      `SELECT message_json, tokens, tokens_by FROM ${this.s}.messages WHERE session_id = $1 AND active ORDER BY seq`,
      [sessionId],
    );
    return rows.map((row) => this.counting.remembered(JSON.parse(row.message_json) as ChatMessage, row.tokens, row.tokens_by));
  }

  async activeRows(sessionId: string): Promise<StoredMessage[]> {
    await this.requireSession(this.connection.pool, sessionId, "activeRows");
    return this.activeRowsOf(this.connection.pool, sessionId);
  }

  async archiveAndReplace(sessionId: string, newActiveMessages: readonly ChatMessage[], info: CompactionInfo = {}): Promise<CompactionRecord> {
    const where = `archiveAndReplace('${sessionId}')`;
    parseMessages(newActiveMessages, where);
    checkCompactedList(newActiveMessages, where);
    const report = reportJson(info.report, where);
    const written = { messages: newActiveMessages, compactedRowIds: info.compactedRowIds, at: info.at ?? this.now(), summary: info.summary ?? null, report };
    const statement = compactionStatement(this.s, sessionId, written, this.counting);
    return this.writeSession(sessionId, async (client) => compactionWritten((await client.query<CompactionStatementRow>(statement.sql, statement.params)).rows[0]!, sessionId, info.compactedRowIds, where));
  }

  async rotateSession(
    parentSessionId: string,
    messages: readonly ChatMessage[],
    info: CompactionInfo & { id?: string; title?: string | null } = {},
  ): Promise<{ session: SessionRecord; compaction: CompactionRecord }> {
    const where = `rotateSession('${parentSessionId}')`;
    parseMessages(messages, where);
    checkCompactedList(messages, where);
    const report = reportJson(info.report, where);
    return this.writeSession(parentSessionId, async (client) => {
      const { session: parent, activeIds } = await readCompactionView(client, this.s, parentSessionId, where);
      const written = [...messages, ...(await this.appendedAfter(client, activeIds, info.compactedRowIds, where))];
      const child = parseNewSession({ id: info.id, platform: parent.platform, title: info.title ?? parent.title, parentSessionId });
      const created = await this.insertSession(client, { ...child, id: child.id ?? randomUUID() });
      const at = info.at ?? this.now();
      const id = await insertCompaction(client, this.s, [created.id, "compaction", at, false, activeIds.length, written.length, info.summary ?? null, report, 1, written.length, null]);
      await this.insertRows(client, created.id, written, at);
      await setCompactionState(client, this.s, created.id, parent.compressionCount + 1, false, at);
      return { session: await this.requireSession(client, created.id, where), compaction: await compactionById(client, this.s, id) };
    });
  }

  async recordCompactionBoundary(sessionId: string, info: CompactionInfo = {}): Promise<CompactionRecord> {
    const where = `recordCompactionBoundary('${sessionId}')`;
    const report = reportJson(info.report, where);
    return this.writeSession(sessionId, async (client) => {
      const { session, activeIds } = await readCompactionView(client, this.s, sessionId, where);
      const at = info.at ?? this.now();
      const count = activeIds.length;
      const id = await insertCompaction(client, this.s, [sessionId, "compaction", at, true, count, count, info.summary ?? null, report, null, null, null]);
      await setCompactionState(client, this.s, sessionId, session.compressionCount + 1, true, at);
      return compactionById(client, this.s, id);
    });
  }

  async repairActiveList(sessionId: string, repair: ActiveListRepair): Promise<number[] | undefined> {
    const where = `repairActiveList('${sessionId}')`;
    parseMessages(repair.messages, where);
    return this.writeSession(sessionId, async (client) => {
      await this.requireSession(client, sessionId, where);
      const at = this.now();
      const ids = await writeActiveListRepair(client, this.s, sessionId, repair, where, (messages) => this.insertRows(client, sessionId, messages, at));
      if (ids !== undefined) await client.query(`UPDATE ${this.s}.sessions SET updated_at = $1 WHERE id = $2`, [at, sessionId]);
      return ids;
    });
  }

  async archivedMessages(sessionId: string, compactionId?: number): Promise<StoredMessage[]> {
    await this.requireSession(this.connection.pool, sessionId, "archivedMessages");
    const rows =
      compactionId === undefined
        ? await this.rows<PgMessageRow>(this.connection.pool, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.messages WHERE session_id = $1 AND NOT active ORDER BY seq`, [sessionId])
        : await this.rows<PgMessageRow>(this.connection.pool, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.messages WHERE session_id = $1 AND NOT active AND compaction_id = $2 ORDER BY seq`, [
            sessionId,
            compactionId,
          ]);
    return rows.map((row) => this.stored(row));
  }

  async compactions(sessionId: string): Promise<CompactionRecord[]> {
    await this.requireSession(this.connection.pool, sessionId, "compactions");
    const rows = await this.rows<PgCompactionRow>(this.connection.pool, `SELECT ${COMPACTION_COLUMNS(this.s)} FROM ${this.s}.compactions c WHERE c.session_id = $1 ORDER BY c.id`, [sessionId]);
    return rows.map(toCompaction);
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<SessionOverview[]> {
    return this.listSessionsOn(this.connection.pool, options);
  }

  /**
   * The four reads `session_search` makes, each in a transaction that sets the scope: row-level security
   * shows it that scope's rows only, whatever the query asks (core's `scopedSearchSource` uses it).
   */
  forScope(scope: string): SessionSearchSource {
    const run = <T>(body: (client: Queryable) => Promise<T>): Promise<T> => withScope(this.connection.pool, scope, body);
    return {
      getSession: (sessionId) => run((client) => this.readSession(client, sessionId)),
      listSessions: (options = {}) => run((client) => this.listSessionsOn(client, { ...options, scope })),
      messagesBySeq: (sessionId, fromSeq, toSeq) => run((client) => this.messagesBySeqOn(client, sessionId, fromSeq, toSeq)),
      search: (query, options = {}) =>
        run(async (client) => {
          if (options.sessionId !== undefined) await this.requireSession(client, options.sessionId, "search");
          return searchMessages(client, this.s, query, { ...options, scope });
        }),
    };
  }

  private async listSessionsOn(client: Queryable, options: ListSessionsOptions): Promise<SessionOverview[]> {
    const { limit, offset, ids, platform, scope } = parseListSessionsOptions(options);
    const rows = await this.rows<PgSessionRow & { message_count: string; active_count: string; last_seq: number }>(
      client,
      `SELECT s.*,
         (SELECT COUNT(*) FROM ${this.s}.messages m WHERE m.session_id = s.id) AS message_count,
         (SELECT COUNT(*) FROM ${this.s}.messages m WHERE m.session_id = s.id AND m.active) AS active_count,
         (SELECT COALESCE(MAX(m.seq), 0) FROM ${this.s}.messages m WHERE m.session_id = s.id) AS last_seq
       FROM ${this.s}.sessions s
       WHERE ($1::text IS NULL OR s.platform = $1) AND ($2::text[] IS NULL OR s.id = ANY($2)) AND ($5::text IS NULL OR s.scope = $5)
       ORDER BY s.updated_at DESC, s.ord DESC LIMIT $3 OFFSET $4`,
      [platform ?? null, ids ?? null, limit, offset, scope ?? null],
    );
    return rows.map((row) => ({ ...toSession(row), messageCount: num(row.message_count), activeCount: num(row.active_count), lastSeq: row.last_seq }));
  }

  async messagesBySeq(sessionId: string, fromSeq: number, toSeq: number): Promise<StoredMessage[]> {
    return this.messagesBySeqOn(this.connection.pool, sessionId, fromSeq, toSeq);
  }

  private async messagesBySeqOn(client: Queryable, sessionId: string, fromSeq: number, toSeq: number): Promise<StoredMessage[]> {
    await this.requireSession(client, sessionId, "messagesBySeq");
    checkSeqRange(fromSeq, toSeq);
    const rows = await this.rows<PgMessageRow>(client, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.messages WHERE session_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq`, [
      sessionId,
      fromSeq,
      toSeq,
    ]);
    return rows.map((row) => this.stored(row));
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    if (options.sessionId !== undefined) await this.requireSession(this.connection.pool, options.sessionId, "search");
    return searchMessages(this.connection.pool, this.s, query, options);
  }

  async undoLastCompaction(sessionId: string): Promise<UndoResult | undefined> {
    const where = `undoLastCompaction('${sessionId}')`;
    return this.writeSession(sessionId, (client) => undoLastCompactionOn(client, this.s, sessionId, this.now, where));
  }

  /** One worker compacts a session at a time: see core's `SessionStoreAsync.leaseCompaction`. */
  async leaseCompaction(sessionId: string): Promise<(() => Promise<void>) | undefined> {
    return leaseSessionCompaction(this.connection, "session", sessionId);
  }

  async loadEngineState(engine: string, sessionId: string): Promise<unknown> {
    return this.engineState.load(engine, sessionId);
  }

  async saveEngineState(engine: string, sessionId: string, state: unknown): Promise<void> {
    return this.engineState.save(engine, sessionId, state);
  }

  async clearEngineState(engine: string, sessionId: string): Promise<void> {
    return this.engineState.clear(engine, sessionId);
  }

  /** Of workers taking the same state, one gets it (see core's `EngineStateStore.takeEngineState`). */
  async takeEngineState(engine: string, sessionId: string): Promise<unknown> {
    return this.engineState.take(engine, sessionId);
  }

  /** Saves unless a state saved at or after `staleBefore` is there (see core's `EngineStateStore.claimEngineState`). */
  async claimEngineState(engine: string, sessionId: string, state: unknown, staleBefore: number): Promise<boolean> {
    return this.engineState.claim(engine, sessionId, state, staleBefore);
  }

  async engineStates(sessionId: string): Promise<EngineStateEntry[]> {
    return this.engineState.list(sessionId);
  }

  /** Runs `body` in one transaction holding the advisory lock of `sessionId`. */
  private writeSession<T>(sessionId: string, body: (client: Queryable) => Promise<T>): Promise<T> {
    return withSessionLock(this.connection, "session", sessionId, body);
  }

  private async insertSession(client: Queryable, s: { id: string; platform: string; scope: string | undefined; title: string | null; parentSessionId: string | null }): Promise<SessionRecord> {
    const parent = s.parentSessionId === null ? undefined : await this.requireSession(client, s.parentSessionId, "createSession (parentSessionId)");
    const at = this.now();
    const rows = await this.rows<PgSessionRow>(
      client,
      `INSERT INTO ${this.s}.sessions (id, platform, title, created_at, updated_at, parent_session_id, compression_count, last_compaction_in_place, scope)
       VALUES ($1, $2, $3, $4, $4, $5, 0, NULL, $6) ON CONFLICT (id) DO NOTHING RETURNING *`,
      [s.id, s.platform, s.title, at, s.parentSessionId, sessionScope(s.scope, parent)],
    );
    if (rows[0] === undefined) throw sessionExistsError(s.id);
    return toSession(rows[0]);
  }

  /** Appends `messages` after the session's last seq (the caller holds the session's lock); returns their ids. */
  private insertRows(client: Queryable, sessionId: string, messages: readonly ChatMessage[], at: number): Promise<number[]> {
    return insertRows(client, this.s, sessionId, messages, this.counting, at);
  }

  /** The messages of the active rows after `compactedRowIds` (see core's `rowsAppendedAfter`), of the session whose active ids are `activeIds`. */
  private async appendedAfter(client: Queryable, activeIds: readonly number[], compactedRowIds: readonly number[] | undefined, where: string): Promise<ChatMessage[]> {
    const carried = rowsAppendedAfter(activeIds, compactedRowIds, where);
    if (carried === 0) return [];
    const rows = await this.rows<PgMessageRow>(client, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.messages WHERE id = ANY($1::bigint[]) ORDER BY seq`, [activeIds.slice(-carried)]);
    return rows.map((row) => this.stored(row).message);
  }

  private async activeRowsOf(client: Queryable, sessionId: string): Promise<StoredMessage[]> {
    const rows = await this.rows<PgMessageRow>(client, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.messages WHERE session_id = $1 AND active ORDER BY seq`, [sessionId]);
    return rows.map((row) => this.stored(row));
  }

  private stored(row: PgMessageRow): StoredMessage {
    const stored = toStored(row);
    this.counting.remembered(stored.message, row.tokens, row.tokens_by);
    return stored;
  }

  private async readSession(client: Queryable, sessionId: string): Promise<SessionRecord | undefined> {
    if (typeof sessionId !== "string") return undefined;
    const row = (await this.rows<PgSessionRow>(client, `SELECT * FROM ${this.s}.sessions WHERE id = $1`, [sessionId]))[0];
    return row ? toSession(row) : undefined;
  }

  private async requireSession(client: Queryable, sessionId: string, where: string): Promise<SessionRecord> {
    const session = await this.readSession(client, sessionId);
    if (!session) throw unknownSessionError(sessionId, where);
    return session;
  }

  private async rows<R extends object>(client: Queryable, sql: string, params: unknown[]): Promise<R[]> {
    return (await client.query<R>(sql, params)).rows;
  }
}

/**
 * Opens the PostgreSQL session store (`connectionString` or `pool`; tables in `schema`, default
 * `context_engine`, created or migrated on open). Every method returns a promise: use it with
 * `CompactionSessionAsync`. The embedded default stays `openSqliteStore`.
 */
export function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
  return PostgresSessionStore.open(options);
}
