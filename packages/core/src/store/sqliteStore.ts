/**
 * The embedded session store (`openSqliteStore(path)`): better-sqlite3 in WAL mode, FTS5 search,
 * schema migrations in `user_version`. Compaction archives rows instead of deleting them, so archived
 * turns stay searchable and a compaction can be undone. Every statement is prepared once.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { parseMessages, type ChatMessage } from "../messages/schema.js";
import type { MemoizedTokenCounter } from "../tokens/counter.js";
import type { TokenCounter } from "../tokens/types.js";
import { retryWhileBusy, STORE_BUSY_TIMEOUT_MS } from "./busy.js";
import { sqliteDriver } from "./driver.js";
import {
  checkCompactedList,
  checkSeqRange,
  engineStateJson,
  nothingToCompactError,
  parseEngineState,
  parseListSessionsOptions,
  parseNewSession,
  repairedRowIds,
  rowsAppendedAfter,
  sessionExistsError,
  sessionScope,
  storedTokenCounting,
  undoRefusal,
  unknownSessionError,
  type StoredTokenCounting,
} from "./kit.js";
import { searchableMessageText } from "./messageText.js";
import { migrateSessionStore } from "./schema.js";
import { reportJson, toCompaction, toSession, toStored, type CompactionRow, type MessageRow, type SessionRow } from "./rows.js";
import { prepareSearch } from "./search.js";
import { leaseSqliteCompaction } from "./sqliteLease.js";
import { prepareStatements } from "./sqliteStatements.js";
import {
  SessionStoreError,
  type ActiveListRepair,
  type CompactionInfo,
  type CompactionRecord,
  type EngineStateEntry,
  type EngineStateStore,
  type ListSessionsOptions,
  type NewSession,
  type SearchHit,
  type SearchOptions,
  type SessionOverview,
  type SessionRecord,
  type SessionStore,
  type SessionStoreAsync,
  type StoredMessage,
  type UndoResult,
} from "./types.js";

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Counts each stored message's tokens (default: the rough estimate). When it is a
   * {@link MemoizedTokenCounter}, messages read back (`activeMessages`, `activeRows`, `archivedMessages`)
   * are remembered by it with their stored counts, if they were stored under its `countingId`, so a
   * reloaded session is not tokenized again.
   */
  tokenCounter?: TokenCounter;
  /** Clock in epoch ms (default `Date.now`). */
  now?: () => number;
}

/** A sessions row with the counts {@link SessionOverview} adds. */
type OverviewRow = SessionRow & { message_count: number; active_count: number; last_seq: number };

/** The SQLite implementation of {@link SessionStore}. */
export class SqliteSessionStore implements SessionStore, SessionStoreAsync, EngineStateStore {
  readonly db: Database.Database;
  private readonly now: () => number;
  /** Counts stored messages and remembers the stored counts of reloaded ones. */
  private readonly counting: StoredTokenCounting;
  private readonly runSearch: (query: string, options?: SearchOptions) => SearchHit[];
  private readonly s: ReturnType<typeof prepareStatements>;

  /** Opens (creating and migrating) the store at `path`; `":memory:"` keeps it in memory. */
  constructor(
    readonly path: string,
    options: SqliteStoreOptions = {},
  ) {
    const Driver = sqliteDriver();
    const inMemory = path === ":memory:" || path === "";
    try {
      if (!inMemory) mkdirSync(dirname(path), { recursive: true });
      this.db = new Driver(path, { timeout: STORE_BUSY_TIMEOUT_MS });
    } catch (error) {
      throw new SessionStoreError(`cannot open session store ${path}: ${(error as Error).message}`);
    }
    // Switching to WAL does not wait for a process that is creating the same file: retry until the busy timeout.
    if (!inMemory) retryWhileBusy(() => this.db.pragma("journal_mode = WAL"));
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    // A REPLACE conflict deletes the old row; with recursive triggers that deletion meets the DELETE guards.
    this.db.pragma("recursive_triggers = ON");
    migrateSessionStore(this.db, path);
    this.now = options.now ?? Date.now;
    this.counting = storedTokenCounting(options.tokenCounter);
    this.runSearch = prepareSearch(this.db);
    this.s = prepareStatements(this.db);
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  createSession(session: NewSession): SessionRecord {
    const { id = randomUUID(), platform, scope, title, parentSessionId } = parseNewSession(session);
    return this.write(() => {
      if (this.getSession(id)) throw sessionExistsError(id);
      const parent = parentSessionId === null ? undefined : this.requireSession(parentSessionId, "createSession (parentSessionId)");
      const at = this.now();
      this.s.insertSession.run(id, platform, title, at, at, parentSessionId, 0, null, sessionScope(scope, parent));
      return this.requireSession(id, "createSession");
    });
  }

  getSession(sessionId: string): SessionRecord | undefined {
    const row = this.s.session.get(sessionId) as SessionRow | undefined;
    return row ? toSession(row) : undefined;
  }

  childSessions(sessionId: string): SessionRecord[] {
    return (this.s.children.all(sessionId) as SessionRow[]).map(toSession);
  }

  appendMessages(sessionId: string, messages: readonly ChatMessage[]): number[] {
    const where = `appendMessages('${sessionId}')`;
    parseMessages(messages, where);
    return this.write(() => {
      this.requireSession(sessionId, where);
      const at = this.now();
      const { ids } = this.insertRows(sessionId, messages, at);
      this.s.touchSession.run(at, sessionId);
      return ids;
    });
  }

  activeMessages(sessionId: string): ChatMessage[] {
    this.requireSession(sessionId, "activeMessages");
    const rows = this.s.activeJson.all(sessionId) as Pick<MessageRow, "message_json" | "tokens" | "tokens_by">[];
    return rows.map((row) => this.remembered(JSON.parse(row.message_json) as ChatMessage, row));
  }

  activeRows(sessionId: string): StoredMessage[] {
    this.requireSession(sessionId, "activeRows");
    return (this.s.activeRows.all(sessionId) as MessageRow[]).map((row) => this.storedRecord(row));
  }

  archiveAndReplace(sessionId: string, newActiveMessages: readonly ChatMessage[], info: CompactionInfo = {}): CompactionRecord {
    const where = `archiveAndReplace('${sessionId}')`;
    parseMessages(newActiveMessages, where);
    checkCompactedList(newActiveMessages, where);
    const report = reportJson(info.report, where);
    return this.write(() => {
      const session = this.requireSession(sessionId, where);
      const before = this.activeCount(sessionId);
      if (before === 0) throw nothingToCompactError(where);
      const written = [...newActiveMessages, ...this.appendedAfter(sessionId, info.compactedRowIds, where)];
      const at = info.at ?? this.now();
      const firstSeq = this.lastSeq(sessionId) + 1;
      const lastSeq = firstSeq + written.length - 1;
      const id = Number(
        this.s.insertCompaction.run(sessionId, "compaction", at, 1, before, written.length, info.summary ?? null, report, firstSeq, lastSeq, null).lastInsertRowid,
      );
      this.s.archiveActive.run(id, sessionId);
      this.insertRows(sessionId, written, at);
      this.s.setCompactionState.run(session.compressionCount + 1, 1, at, sessionId);
      return this.compaction(id);
    });
  }

  rotateSession(
    parentSessionId: string,
    messages: readonly ChatMessage[],
    info: CompactionInfo & { id?: string; title?: string | null } = {},
  ): { session: SessionRecord; compaction: CompactionRecord } {
    const where = `rotateSession('${parentSessionId}')`;
    parseMessages(messages, where);
    checkCompactedList(messages, where);
    const report = reportJson(info.report, where);
    return this.write(() => {
      const parent = this.requireSession(parentSessionId, where);
      const written = [...messages, ...this.appendedAfter(parentSessionId, info.compactedRowIds, where)];
      const child = this.createSession({ id: info.id, platform: parent.platform, title: info.title ?? parent.title, parentSessionId });
      const at = info.at ?? this.now();
      const before = this.activeCount(parentSessionId);
      const id = Number(
        this.s.insertCompaction.run(child.id, "compaction", at, 0, before, written.length, info.summary ?? null, report, 1, written.length, null).lastInsertRowid,
      );
      this.insertRows(child.id, written, at);
      this.s.setCompactionState.run(parent.compressionCount + 1, 0, at, child.id);
      return { session: this.requireSession(child.id, where), compaction: this.compaction(id) };
    });
  }

  recordCompactionBoundary(sessionId: string, info: CompactionInfo = {}): CompactionRecord {
    const where = `recordCompactionBoundary('${sessionId}')`;
    const report = reportJson(info.report, where);
    return this.write(() => {
      const session = this.requireSession(sessionId, where);
      const at = info.at ?? this.now();
      const count = this.activeCount(sessionId);
      const id = Number(this.s.insertCompaction.run(sessionId, "compaction", at, 1, count, count, info.summary ?? null, report, null, null, null).lastInsertRowid);
      this.s.setCompactionState.run(session.compressionCount + 1, 1, at, sessionId);
      return this.compaction(id);
    });
  }

  repairActiveList(sessionId: string, repair: ActiveListRepair): number[] | undefined {
    const where = `repairActiveList('${sessionId}')`;
    parseMessages(repair.messages, where);
    return this.write(() => {
      this.requireSession(sessionId, where);
      const activeIds = this.s.activeIds.all(sessionId) as number[];
      const replaced = repairedRowIds(activeIds, repair, where);
      const appended = activeIds.slice(repair.readRowIds.length);
      if (replaced.length > 0) {
        const from = this.s.seqOf.get(replaced[0]) as number;
        if (from <= (this.s.inEffectLastSeq.get(sessionId) as { n: number }).n) return undefined;
        this.s.archiveRepaired.run(sessionId, from);
      }
      const carried = appended.map((id) => JSON.parse((this.s.messageJson.get(id) as string)) as ChatMessage);
      const at = this.now();
      const { ids } = this.insertRows(sessionId, [...repair.messages, ...carried], at);
      this.s.touchSession.run(at, sessionId);
      return ids;
    });
  }

  archivedMessages(sessionId: string, compactionId?: number): StoredMessage[] {
    this.requireSession(sessionId, "archivedMessages");
    const rows = compactionId === undefined ? this.s.archived.all(sessionId) : this.s.archivedBy.all(sessionId, compactionId);
    return (rows as MessageRow[]).map((row) => this.storedRecord(row));
  }

  compactions(sessionId: string): CompactionRecord[] {
    this.requireSession(sessionId, "compactions");
    return (this.s.compactions.all(sessionId) as CompactionRow[]).map(toCompaction);
  }

  listSessions(options: ListSessionsOptions = {}): SessionOverview[] {
    const { limit, offset, ids, platform, scope } = parseListSessionsOptions(options);
    const rows = this.s.listSessions.all({ limit, offset, platform: platform ?? null, scope: scope ?? null, ids: ids === undefined ? null : JSON.stringify(ids) }) as OverviewRow[];
    return rows.map((row) => ({ ...toSession(row), messageCount: row.message_count, activeCount: row.active_count, lastSeq: row.last_seq }));
  }

  messagesBySeq(sessionId: string, fromSeq: number, toSeq: number): StoredMessage[] {
    this.requireSession(sessionId, "messagesBySeq");
    checkSeqRange(fromSeq, toSeq);
    return (this.s.messagesBySeq.all(sessionId, fromSeq, toSeq) as MessageRow[]).map((row) => this.storedRecord(row));
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    if (options.sessionId !== undefined) this.requireSession(options.sessionId, "search");
    return this.runSearch(query, options);
  }

  undoLastCompaction(sessionId: string): UndoResult | undefined {
    const where = `undoLastCompaction('${sessionId}')`;
    return this.write(() => {
      const session = this.requireSession(sessionId, where);
      const [last, previous] = (this.s.inEffect.all(sessionId) as CompactionRow[]).map(toCompaction);
      if (!last) return undefined;
      const refused = undoRefusal(last, session.parentSessionId, where);
      if (refused) throw refused;
      const row = this.s.compaction.get(last.id) as CompactionRow;
      const [firstSeq, lastSeq] = [row.first_seq ?? 0, row.last_seq ?? -1];
      const before = this.activeCount(sessionId);
      const written = (this.s.countActiveSeqRange.get(sessionId, firstSeq, lastSeq) as { n: number }).n;
      const restorable = (this.s.countArchivedBy.get(sessionId, last.id) as { n: number }).n;
      const at = this.now();
      const undoId = Number(
        this.s.insertCompaction.run(sessionId, "undo", at, 1, before, before - written + restorable, null, null, null, null, last.id).lastInsertRowid,
      );
      const archived = this.s.archiveSeqRange.run(undoId, sessionId, firstSeq, lastSeq).changes;
      const restored = this.s.restoreArchivedBy.run(sessionId, last.id).changes;
      const inPlace = previous === undefined ? null : previous.inPlace ? 1 : 0;
      this.s.setCompactionState.run(Math.max(0, session.compressionCount - 1), inPlace, at, sessionId);
      return { undoneCompactionId: last.id, undoId, restored, archived };
    });
  }

  /**
   * The messages of the active rows after `compactedRowIds` (none when not given), read inside the
   * compaction's transaction; throws {@link CompactionConflictError} when the active list no longer
   * begins with exactly those rows.
   */
  private appendedAfter(sessionId: string, compactedRowIds: readonly number[] | undefined, where: string): ChatMessage[] {
    if (compactedRowIds === undefined) return [];
    const ids = this.s.activeIds.all(sessionId) as number[];
    if (rowsAppendedAfter(ids, compactedRowIds, where) === 0) return [];
    const rows = this.s.activeRows.all(sessionId) as MessageRow[];
    return rows.slice(compactedRowIds.length).map((row) => JSON.parse(row.message_json) as ChatMessage);
  }

  /**
   * Runs `body` as one write transaction that takes the write lock at BEGIN (IMMEDIATE). A deferred
   * transaction that reads first and then writes cannot wait for another process's lock: in WAL mode
   * its upgrade fails at once with SQLITE_BUSY when that process committed meanwhile, whatever the busy
   * timeout. Taking the lock first makes a second process wait (up to the busy timeout) instead.
   */
  private write<T>(body: () => T): T {
    return this.db.transaction(body).immediate();
  }

  loadEngineState(engine: string, sessionId: string): unknown {
    const row = this.s.engineState.get(engine, sessionId) as { state_json: string } | undefined;
    return row === undefined ? undefined : parseEngineState(engine, sessionId, row.state_json);
  }

  saveEngineState(engine: string, sessionId: string, state: unknown): void {
    this.s.saveEngineState.run(engine, sessionId, engineStateJson(engine, sessionId, state), this.now());
  }

  clearEngineState(engine: string, sessionId: string): void {
    this.s.clearEngineState.run(engine, sessionId);
  }

  takeEngineState(engine: string, sessionId: string): unknown {
    const row = this.s.takeEngineState.get(engine, sessionId) as { state_json: string } | undefined;
    return row === undefined ? undefined : parseEngineState(engine, sessionId, row.state_json);
  }

  claimEngineState(engine: string, sessionId: string, state: unknown, staleBefore: number): boolean {
    return this.s.claimEngineState.get(engine, sessionId, engineStateJson(engine, sessionId, state), this.now(), staleBefore) !== undefined;
  }

  /**
   * One process compacts a session at a time: the release of this caller's lease, or undefined when another
   * holds it (see core's `SessionStoreAsync.leaseCompaction`; sqliteLease.ts).
   */
  leaseCompaction(sessionId: string): (() => void) | undefined {
    return leaseSqliteCompaction(this.s, sessionId, this.now);
  }

  engineStates(sessionId: string): EngineStateEntry[] {
    const rows = this.s.engineStates.all(sessionId) as { engine: string; state_json: string; updated_at: number }[];
    return rows.map((row) => ({ engine: row.engine, state: parseEngineState(row.engine, sessionId, row.state_json), updatedAt: row.updated_at }));
  }

  private insertRows(sessionId: string, messages: readonly ChatMessage[], at: number): { ids: number[] } {
    let seq = this.lastSeq(sessionId);
    const ids = messages.map((message) => {
      seq += 1;
      const counted = this.counting.count(message);
      const info = this.s.insertMessage.run(sessionId, seq, message.role, JSON.stringify(message), searchableMessageText(message), counted.tokens, counted.by, at);
      return Number(info.lastInsertRowid);
    });
    return { ids };
  }

  /** `message` after the counter (if any) has remembered its stored count, when counted the same way. */
  private remembered(message: ChatMessage, row: Pick<MessageRow, "tokens" | "tokens_by">): ChatMessage {
    return this.counting.remembered(message, row.tokens, row.tokens_by);
  }

  private storedRecord(row: MessageRow): StoredMessage {
    const stored = toStored(row);
    this.remembered(stored.message, row);
    return stored;
  }

  private lastSeq(sessionId: string): number {
    return (this.s.lastSeq.get(sessionId) as { n: number }).n;
  }

  private activeCount(sessionId: string): number {
    return (this.s.activeCount.get(sessionId) as { n: number }).n;
  }

  private compaction(id: number): CompactionRecord {
    return toCompaction(this.s.compaction.get(id) as CompactionRow);
  }

  private requireSession(sessionId: string, where: string): SessionRecord {
    const session = typeof sessionId === "string" ? this.getSession(sessionId) : undefined;
    if (!session) throw unknownSessionError(sessionId, where);
    return session;
  }
}

/** Opens the embedded SQLite session store at `path` (created if missing; `":memory:"` for a throwaway one). */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteSessionStore {
  return new SqliteSessionStore(path, options);
}
