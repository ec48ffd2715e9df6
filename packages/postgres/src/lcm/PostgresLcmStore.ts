/**
 * The lcm store over PostgreSQL (`openPostgresLcmStore`): lcm's append-only messages, summaries and
 * lineage, the per-session context items and the compaction log, behind `LcmStoreAsync` (every method
 * returns a promise), with full-text search over messages and summaries (tsvector words and phrases,
 * pg_trgm substrings and CJK). Appends and summary commits of one session run one at a time, in any
 * process, under the session's advisory lock; a summary commit checks the context range it replaces
 * and changes nothing when another worker changed it first.
 */
import type { ItemRef, LcmCompactionRecord, LcmCompactionRow, LcmFullTextSearch, LcmMessageRow, LcmRowCodec, LcmStoreAsync, LcmSummaryRow, NewMessage, SearchHits, SearchWindow, SessionScope, StoredMessage, SummaryKind, SummaryLevel, SummaryRecord } from "./lcmTypes.js";
import { loadLcmApi, type LcmApi } from "./lcmTypes.js";
import { PG_COLUMNS, type PgColumnTypes } from "../columns.js";
import { DEFAULT_SESSION_SCOPE } from "@context-engine/core";
import { closeLeases, connect, leaseSessionCompaction, num, oneAtATime, withScope, withSessionLock, type PgConnection, type PgConnectionOptions, type Queryable } from "../connection.js";
import { openSchema } from "../migrate.js";
import { storableSearchText, termCondition, type TermQuery } from "../search/query.js";
import { PG_LCM_MIGRATIONS } from "./schema.js";

/** A row of `lcm_messages` as read (its search columns left out). */
type MessageRow = LcmMessageRow<PgColumnTypes>;
/** A row of `lcm_summaries` as read. */
type SummaryRow = LcmSummaryRow<PgColumnTypes>;

const MESSAGE_COLUMNS = "id, session, seq, role, message_json, tokens, identity, created_at, tokens_by";
const SUMMARY_COLUMNS = "id, session, kind, depth, level, content, tokens, source_tokens, seq_start, seq_end, created_at";
const FAR_FUTURE = 8.64e15;

/** The PostgreSQL implementation of `LcmStoreAsync` with full-text search. */
export class PostgresLcmStore implements LcmStoreAsync, LcmFullTextSearch {
  private readonly s: string;
  /** lcm's row codec over pg's columns. */
  private readonly codec: LcmRowCodec<PgColumnTypes>;

  /**
   * @param reader what the read methods query: the pool, or the client of a transaction set to one scope
   *   (see {@link readInScope})
   */
  private constructor(
    private readonly connection: PgConnection,
    private readonly lcmApi: LcmApi,
    private readonly reader: Queryable = connection.pool,
  ) {
    this.s = connection.schema;
    this.codec = lcmApi.lcmRowCodec(PG_COLUMNS);
  }

  /** Connects, checks the schema version (creating or migrating the tables when behind and this role may), and returns the store. */
  static async open(options: PgConnectionOptions): Promise<PostgresLcmStore> {
    const lcmApi = await loadLcmApi();
    const connection = connect(options, "openPostgresLcmStore");
    try {
      await openSchema(connection, "lcm", PG_LCM_MIGRATIONS, "openPostgresLcmStore");
    } catch (error) {
      if (connection.ownsPool) await connection.pool.end().catch(() => undefined);
      throw error;
    }
    return new PostgresLcmStore(connection, lcmApi);
  }

  /** Closes the pool when the store opened it. */
  async close(): Promise<void> {
    await closeLeases(this.connection);
    if (this.connection.ownsPool) await this.connection.pool.end();
  }

  async lastSeq(session: string): Promise<number> {
    return this.scalar(this.reader, `SELECT COALESCE(MAX(seq), 0) AS n FROM ${this.s}.lcm_messages WHERE session = $1`, [session]);
  }

  /** Every session with messages or context items (of `scope` only, when given), sorted. */
  async sessions(scope?: string): Promise<string[]> {
    const rows = await this.rows<{ session: string }>(
      this.reader,
      `SELECT session FROM (SELECT session FROM ${this.s}.lcm_messages GROUP BY session UNION SELECT session FROM ${this.s}.lcm_context_items GROUP BY session) AS s
       WHERE $1::text IS NULL OR coalesce((SELECT scope FROM ${this.s}.lcm_sessions r WHERE r.session = s.session), 'default') = $1::text ORDER BY session COLLATE "C"`,
      [scope ?? null],
    );
    return rows.map((r) => r.session);
  }

  /** Records that `session` belongs to `scope`: fixed once recorded (its first append records the default scope); another one throws. */
  async recordSessionScope(session: string, scope: string): Promise<void> {
    await this.connection.pool.query(`INSERT INTO ${this.s}.lcm_sessions (session, scope) VALUES ($1, $2) ON CONFLICT (session) DO NOTHING`, [session, scope]);
    const recorded = await this.sessionScope(session);
    if (recorded !== scope) throw new Error(`lcm: session '${session}' belongs to scope '${recorded}', not '${scope}'`);
  }

  /** The scope `session` belongs to; the default scope for a session never recorded (or not visible to this reader). */
  async sessionScope(session: string): Promise<string> {
    return (await this.rows<{ scope: string }>(this.reader, `SELECT scope FROM ${this.s}.lcm_sessions WHERE session = $1`, [session]))[0]?.scope ?? DEFAULT_SESSION_SCOPE;
  }

  /**
   * Runs `body` with this store reading in one transaction set to `scope`: row-level security (schema v2)
   * shows it that scope's rows only, whatever a query asks for. lcm's agent tools read through it.
   */
  readInScope<T>(scope: string, body: (store: PostgresLcmStore) => Promise<T>): Promise<T> {
    // an empty setting is the operator's view of every scope: never one a tool reads in
    if (scope.trim() === "") return Promise.reject(new Error("readInScope: the scope must not be empty"));
    return withScope(this.connection.pool, scope, (client) => body(new PostgresLcmStore(this.connection, this.lcmApi, oneAtATime(client))));
  }

  /** One engine compacts a session at a time, in any process: see lcm's `LcmStoreAsync.leaseCompaction`. */
  async leaseCompaction(session: string): Promise<(() => Promise<void>) | undefined> {
    return leaseSessionCompaction(this.connection, "lcm", session);
  }

  async hasSession(session: string): Promise<boolean> {
    const rows = await this.rows(this.reader, `SELECT 1 FROM ${this.s}.lcm_sessions WHERE session = $1 UNION ALL SELECT 1 FROM ${this.s}.lcm_messages WHERE session = $1 UNION ALL SELECT 1 FROM ${this.s}.lcm_context_items WHERE session = $1 LIMIT 1`, [session]);
    return rows.length > 0;
  }

  async identityAt(session: string, seq: number): Promise<Buffer | undefined> {
    return (await this.rows<{ identity: Buffer }>(this.reader, `SELECT identity FROM ${this.s}.lcm_messages WHERE session = $1 AND seq = $2`, [session, seq]))[0]?.identity;
  }

  async identitiesFrom(session: string, fromSeq: number): Promise<Buffer[]> {
    const rows = await this.rows<{ identity: Buffer }>(this.reader, `SELECT identity FROM ${this.s}.lcm_messages WHERE session = $1 AND seq >= $2 ORDER BY seq`, [session, fromSeq]);
    return rows.map((r) => r.identity);
  }

  async appendMessages(session: string, messages: readonly NewMessage[], createdAt: number): Promise<StoredMessage[]> {
    if (messages.length === 0) return [];
    return this.writeSession(session, async (client) => {
      await this.recordSession(client, session);
      const first = (await this.scalar(client, `SELECT COALESCE(MAX(seq), 0) AS n FROM ${this.s}.lcm_messages WHERE session = $1`, [session])) + 1;
      const ord = await this.scalar(client, `SELECT COALESCE(MAX(ord), -1) + 1 AS n FROM ${this.s}.lcm_context_items WHERE session = $1`, [session]);
      const rows = await this.rows<{ id: string; seq: number }>(
        client,
        `INSERT INTO ${this.s}.lcm_messages (session, seq, role, message_json, search_text, tokens, identity, created_at, tokens_by)
         SELECT $1, u.seq, u.role, u.message_json, u.search_text, u.tokens, u.identity, $2, u.tokens_by
         FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bytea[], $9::text[]) AS u(seq, role, message_json, search_text, tokens, identity, tokens_by)
         ORDER BY u.seq RETURNING id, seq`,
        [
          session,
          createdAt,
          messages.map((_, i) => first + i),
          messages.map((m) => m.message.role),
          messages.map((m) => JSON.stringify(m.message)),
          messages.map((m) => storableSearchText(this.lcmApi.searchableText(m.message))),
          messages.map((m) => m.tokens),
          messages.map((m) => m.identity),
          messages.map((m) => m.tokensBy ?? null),
        ],
      );
      const rowIds = rows.sort((a, b) => a.seq - b.seq).map((r) => num(r.id));
      await client.query(
        `INSERT INTO ${this.s}.lcm_context_items (session, ord, item_type, item_id) SELECT $1, u.ord, 'message', u.item_id FROM unnest($2::int[], $3::text[]) AS u(ord, item_id)`,
        [session, rowIds.map((_, i) => ord + i), rowIds.map((id) => this.lcmApi.messageId(id))],
      );
      return messages.map((m, i) => ({
        id: this.lcmApi.messageId(rowIds[i]!),
        rowId: rowIds[i]!,
        session,
        seq: first + i,
        role: m.message.role,
        message: m.message,
        tokens: m.tokens,
        identity: m.identity,
        createdAt,
        tokensBy: m.tokensBy,
      }));
    });
  }

  async getMessage(id: string): Promise<StoredMessage | undefined> {
    const rowId = this.lcmApi.parseMessageId(id);
    if (rowId === undefined) return undefined;
    const row = (await this.rows<MessageRow>(this.reader, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.lcm_messages WHERE id = $1`, [rowId]))[0];
    return row ? this.codec.toMessage(row) : undefined;
  }

  async getMessages(ids: readonly string[]): Promise<StoredMessage[]> {
    const rowIds = ids.map((id) => this.lcmApi.parseMessageId(id)).filter((n): n is number => n !== undefined);
    if (rowIds.length === 0) return [];
    const rows = await this.rows<MessageRow>(this.reader, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.lcm_messages WHERE id = ANY($1::bigint[]) ORDER BY session, seq`, [rowIds]);
    return rows.map(this.codec.toMessage);
  }

  async getMessagesBySeq(session: string, from: number, to: number): Promise<StoredMessage[]> {
    const rows = await this.rows<MessageRow>(this.reader, `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.lcm_messages WHERE session = $1 AND seq BETWEEN $2::bigint AND $3::bigint ORDER BY seq`, [session, from, to]);
    return rows.map(this.codec.toMessage);
  }

  async contextItems(session: string): Promise<ItemRef[]> {
    return this.contextItemsOf(this.reader, session);
  }

  async contextSummaryIds(session: string): Promise<string[]> {
    const rows = await this.rows<{ id: string }>(this.reader, `SELECT item_id AS id FROM ${this.s}.lcm_context_items WHERE session = $1 AND item_type = 'summary' ORDER BY ord`, [session]);
    return rows.map((r) => r.id);
  }

  async getSummary(id: string): Promise<SummaryRecord | undefined> {
    const row = (await this.rows<SummaryRow>(this.reader, `SELECT ${SUMMARY_COLUMNS} FROM ${this.s}.lcm_summaries WHERE id = $1`, [id]))[0];
    return row ? this.codec.toSummary(row) : undefined;
  }

  async allSummaries(session: string): Promise<SummaryRecord[]> {
    const rows = await this.rows<SummaryRow>(this.reader, `SELECT ${SUMMARY_COLUMNS} FROM ${this.s}.lcm_summaries WHERE session = $1 ORDER BY seq_start, depth, row_id`, [session]);
    return rows.map(this.codec.toSummary);
  }

  async sourcesOf(summaryId: string): Promise<ItemRef[]> {
    return this.rows<ItemRef>(this.reader, `SELECT source_type AS type, source_id AS id FROM ${this.s}.lcm_summary_sources WHERE summary_id = $1 ORDER BY ord`, [summaryId]);
  }

  async parentsOf(id: string): Promise<string[]> {
    const rows = await this.rows<{ id: string }>(this.reader, `SELECT summary_id AS id FROM ${this.s}.lcm_summary_sources WHERE source_id = $1 ORDER BY summary_id`, [id]);
    return rows.map((r) => r.id);
  }

  async commitSummary(summary: SummaryRecord, sources: readonly ItemRef[], fromOrd: number, toOrd: number): Promise<void> {
    const r = summary;
    await this.writeSession(r.session, async (client) => {
      const current = (await this.contextItemsOf(client, r.session)).slice(fromOrd, toOrd + 1);
      const same = current.length === sources.length && current.every((c, i) => c.type === sources[i]!.type && c.id === sources[i]!.id);
      if (!same) throw new Error(`lcm: context items ${fromOrd}..${toOrd} of session '${r.session}' changed under the compaction`);
      await client.query(
        `INSERT INTO ${this.s}.lcm_summaries (id, session, kind, depth, level, content, tokens, source_tokens, seq_start, seq_end, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [r.id, r.session, r.kind, r.depth, r.level, r.content, r.tokens, r.sourceTokens, r.seqStart, r.seqEnd, r.createdAt],
      );
      await client.query(
        `INSERT INTO ${this.s}.lcm_summary_sources (summary_id, ord, source_type, source_id) SELECT $1, u.ord - 1, u.type, u.id FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(type, id, ord)`,
        [r.id, sources.map((src) => src.type), sources.map((src) => src.id)],
      );
      await client.query(`DELETE FROM ${this.s}.lcm_context_items WHERE session = $1 AND ord BETWEEN $2 AND $3`, [r.session, fromOrd, toOrd]);
      await client.query(`UPDATE ${this.s}.lcm_context_items SET ord = ord - $1 WHERE session = $2 AND ord > $3`, [toOrd - fromOrd, r.session, toOrd]);
      await client.query(`INSERT INTO ${this.s}.lcm_context_items (session, ord, item_type, item_id) VALUES ($1, $2, 'summary', $3)`, [r.session, fromOrd, r.id]);
    });
  }

  async carrySummaries(session: string, summaryIds: readonly string[]): Promise<void> {
    await this.writeSession(session, async (client) => {
      await this.recordSession(client, session);
      if ((await this.contextItemsOf(client, session)).length > 0) throw new Error(`lcm: session '${session}' already has context items; summaries are carried into an empty session only`);
      const found = await this.scalar(client, `SELECT COUNT(*) AS n FROM ${this.s}.lcm_summaries WHERE id = ANY($1::text[])`, [[...new Set(summaryIds)]]);
      if (found !== new Set(summaryIds).size) throw new Error(`lcm: cannot carry summaries ${summaryIds.join(", ")} into session '${session}': not every one is a stored summary`);
      await client.query(
        `INSERT INTO ${this.s}.lcm_context_items (session, ord, item_type, item_id) SELECT $1, u.ord - 1, 'summary', u.id FROM unnest($2::text[]) WITH ORDINALITY AS u(id, ord)`,
        [session, [...summaryIds]],
      );
    });
  }

  async logCompaction(c: LcmCompactionRecord): Promise<void> {
    await this.connection.pool.query(
      `INSERT INTO ${this.s}.lcm_compactions (session, at, passes, tokens_before, tokens_after, summaries_created, fallback_summaries) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [c.session, c.at, c.passes, c.tokensBefore, c.tokensAfter, c.summariesCreated, c.fallbackSummaries],
    );
  }

  async lastCompaction(session: string): Promise<LcmCompactionRecord | undefined> {
    const row = (await this.rows<LcmCompactionRow<PgColumnTypes>>(this.reader, `SELECT * FROM ${this.s}.lcm_compactions WHERE session = $1 ORDER BY id DESC LIMIT 1`, [session]))[0];
    return row ? this.codec.toCompaction(session, row) : undefined;
  }

  async messageCount(session: string): Promise<number> {
    return this.scalar(this.reader, `SELECT COUNT(*) AS n FROM ${this.s}.lcm_messages WHERE session = $1`, [session]);
  }

  async summaryCounts(session: string): Promise<{ depth: number; kind: SummaryKind; level: SummaryLevel; n: number }[]> {
    const rows = await this.rows<{ depth: number; kind: SummaryKind; level: SummaryLevel; n: string }>(
      this.reader,
      `SELECT depth, kind, level, COUNT(*) AS n FROM ${this.s}.lcm_summaries WHERE session = $1 GROUP BY depth, kind, level ORDER BY depth, kind, level`,
      [session],
    );
    return rows.map((r) => ({ ...r, n: num(r.n) }));
  }

  async searchMessagesFullText(sessions: SessionScope, pattern: string, window: SearchWindow): Promise<SearchHits<StoredMessage>> {
    const { sql, params } = this.fullTextCondition(pattern, "search_text", 5);
    const rows = await this.rows<MessageRow>(
      this.reader,
      `SELECT ${MESSAGE_COLUMNS} FROM ${this.s}.lcm_messages WHERE ${IN_SESSIONS} AND created_at >= $2 AND created_at < $3 AND ${sql} ORDER BY id DESC LIMIT $4`,
      [sessionsParam(sessions), window.since ?? 0, window.before ?? FAR_FUTURE, window.limit, ...params],
    );
    return { hits: rows.map(this.codec.toMessage), truncated: false };
  }

  async searchSummariesFullText(sessions: SessionScope, pattern: string, window: SearchWindow): Promise<SearchHits<SummaryRecord>> {
    const { sql, params } = this.fullTextCondition(pattern, "content", 5);
    const rows = await this.rows<SummaryRow>(
      this.reader,
      `SELECT ${SUMMARY_COLUMNS} FROM ${this.s}.lcm_summaries WHERE ${IN_SESSIONS} AND created_at >= $2 AND created_at < $3 AND ${sql} ORDER BY row_id DESC LIMIT $4`,
      [sessionsParam(sessions), window.since ?? 0, window.before ?? FAR_FUTURE, window.limit, ...params],
    );
    return { hits: rows.map(this.codec.toSummary), truncated: false };
  }

  /**
   * The condition of `pattern` over `column`, read with lcm's own query language (`|` the only alternation;
   * AND, OR and NOT plain words); a pattern without words is lcm's `SearchError`, as in the SQLite store.
   */
  private fullTextCondition(pattern: string, column: string, firstParam: number): { sql: string; params: string[] } {
    const grep = this.lcmApi.parseGrepQuery(pattern);
    const query: TermQuery = { terms: grep.terms.map((t) => ({ text: this.lcmApi.termNeedle(t), negated: false })), anyOf: grep.anyOf, given: grep.given };
    const condition = termCondition(query, column, "tsv", firstParam);
    if (condition === undefined) throw new this.lcmApi.SearchError("invalid_pattern", `pattern ${JSON.stringify(pattern)} has no words to search for`);
    return condition;
  }

  private writeSession<T>(session: string, body: (client: Queryable) => Promise<T>): Promise<T> {
    return withSessionLock(this.connection, "lcm", session, body);
  }

  /** Records `session` in the default scope unless it is recorded already. */
  private async recordSession(client: Queryable, session: string): Promise<void> {
    await client.query(`INSERT INTO ${this.s}.lcm_sessions (session) VALUES ($1) ON CONFLICT (session) DO NOTHING`, [session]);
  }

  private contextItemsOf(client: Queryable, session: string): Promise<ItemRef[]> {
    return this.rows<ItemRef>(client, `SELECT item_type AS type, item_id AS id FROM ${this.s}.lcm_context_items WHERE session = $1 ORDER BY ord`, [session]);
  }

  private async scalar(client: Queryable, sql: string, params: unknown[]): Promise<number> {
    return num((await this.rows<{ n: string | number }>(client, sql, params))[0]!.n);
  }

  private async rows<R extends object>(client: Queryable, sql: string, params: unknown[]): Promise<R[]> {
    return (await client.query<R>(sql, params)).rows;
  }
}

/** The session condition of a full-text search: `$1` is the list of sessions, or NULL for every session. */
const IN_SESSIONS = "($1::text[] IS NULL OR session = ANY($1::text[]))";

/** `$1` of {@link IN_SESSIONS}. */
function sessionsParam(sessions: SessionScope): readonly string[] | null {
  return sessions === "all" ? null : sessions;
}

/**
 * Opens the PostgreSQL lcm store (`connectionString` or `pool`; tables in `schema`, default
 * `context_engine`, beside the session store's). Every method returns a promise.
 */
export function openPostgresLcmStore(options: PgConnectionOptions): Promise<PostgresLcmStore> {
  return PostgresLcmStore.open(options);
}
