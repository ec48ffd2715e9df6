/**
 * The session store's rows and their mapping to the public records (see types.ts): one codec for the
 * SQLite store and the PostgreSQL one, each driver handing in how it reads bigint and boolean columns.
 */
import type { ChatMessage } from "../messages/schema.js";
import { SessionStoreError, type CompactionKind, type CompactionRecord, type SessionRecord, type StoredMessage } from "./types.js";

/**
 * The column types that differ between drivers: 64-bit integers (ids, times; better-sqlite3 gives
 * numbers, pg gives BIGINT as text) and booleans (SQLite stores 0/1, PostgreSQL has booleans). Every
 * other column reads the same everywhere.
 */
export interface ColumnTypes {
  bigint: unknown;
  boolean: unknown;
}

/** How better-sqlite3 hands over those columns. */
export interface SqliteColumnTypes {
  bigint: number;
  boolean: number;
}

/** One driver's conversion of its bigint and boolean columns: the only driver-specific part of a row codec. */
export interface ColumnDecoder<C extends ColumnTypes> {
  bigint(value: C["bigint"]): number;
  boolean(value: C["boolean"]): boolean;
}

/** better-sqlite3's columns: integers as they are, booleans from 0/1. */
export const SQLITE_COLUMNS: ColumnDecoder<SqliteColumnTypes> = {
  bigint: (value) => value,
  boolean: (value) => value === 1,
};

/** A `sessions` row. */
export interface SessionRow<C extends ColumnTypes = SqliteColumnTypes> {
  id: string;
  platform: string;
  /** Schema v5 (SQLite) / v4 (PostgreSQL). */
  scope: string;
  title: string | null;
  created_at: C["bigint"];
  updated_at: C["bigint"];
  parent_session_id: string | null;
  compression_count: number;
  last_compaction_in_place: C["boolean"] | null;
}

/** A `messages` row (PostgreSQL's without its tsvector). */
export interface MessageRow<C extends ColumnTypes = SqliteColumnTypes> {
  id: C["bigint"];
  session_id: string;
  seq: number;
  role: string;
  message_json: string;
  text: string;
  tokens: number;
  /** The counting that produced `tokens` (schema v3; NULL when unknown). */
  tokens_by: string | null;
  active: C["boolean"];
  compacted: C["boolean"];
  compaction_id: C["bigint"] | null;
  created_at: C["bigint"];
}

/** A `compactions` row, with the id of the undo that reversed it (`undone_by`). */
export interface CompactionRow<C extends ColumnTypes = SqliteColumnTypes> {
  id: C["bigint"];
  session_id: string;
  kind: CompactionKind;
  at: C["bigint"];
  in_place: C["boolean"];
  messages_before: number;
  messages_after: number;
  summary: string | null;
  report_json: string | null;
  first_seq: number | null;
  last_seq: number | null;
  reverts_compaction_id: C["bigint"] | null;
  undone_by: C["bigint"] | null;
}

/** The session store's rows to public records, for one driver's columns. */
export interface SessionRowCodec<C extends ColumnTypes> {
  /** The public record of a session row. */
  toSession(row: SessionRow<C>): SessionRecord;
  /** The public record of a message row (the message parsed back from its JSON). */
  toStored(row: MessageRow<C>): StoredMessage;
  /** The public record of a compaction-log row. */
  toCompaction(row: CompactionRow<C>): CompactionRecord;
}

/** The session store's row codec over the columns `columns` decodes (one codec for SQLite and PostgreSQL). */
export function sessionRowCodec<C extends ColumnTypes>(columns: ColumnDecoder<C>): SessionRowCodec<C> {
  const { bigint, boolean } = columns;
  const bigintOrNull = (value: C["bigint"] | null) => (value === null ? null : bigint(value));
  return {
    toSession: (row) => ({
      id: row.id,
      platform: row.platform,
      scope: row.scope,
      title: row.title,
      createdAt: bigint(row.created_at),
      updatedAt: bigint(row.updated_at),
      parentSessionId: row.parent_session_id,
      compressionCount: row.compression_count,
      lastCompactionInPlace: row.last_compaction_in_place === null ? null : boolean(row.last_compaction_in_place),
    }),
    toStored: (row) => ({
      id: bigint(row.id),
      sessionId: row.session_id,
      seq: row.seq,
      role: row.role,
      message: JSON.parse(row.message_json) as ChatMessage,
      text: row.text,
      tokens: row.tokens,
      active: boolean(row.active),
      compacted: boolean(row.compacted),
      compactionId: bigintOrNull(row.compaction_id),
      createdAt: bigint(row.created_at),
    }),
    toCompaction: (row) => ({
      id: bigint(row.id),
      sessionId: row.session_id,
      kind: row.kind,
      at: bigint(row.at),
      inPlace: boolean(row.in_place),
      messagesBefore: row.messages_before,
      messagesAfter: row.messages_after,
      summary: row.summary,
      report: row.report_json === null ? null : JSON.parse(row.report_json),
      revertsCompactionId: bigintOrNull(row.reverts_compaction_id),
      undoneByCompactionId: bigintOrNull(row.undone_by),
      // archiveAndReplace and rotateSession always log the rows they wrote; only a boundary has none.
      transcriptRewritten: !(row.kind === "compaction" && row.first_seq === null),
    }),
  };
}

/** The SQLite session store's codec. */
const sqliteRows = sessionRowCodec(SQLITE_COLUMNS);
/** The public record of a SQLite session row. */
export const toSession = sqliteRows.toSession;
/** The public record of a SQLite message row. */
export const toStored = sqliteRows.toStored;
/** The public record of a SQLite compaction-log row. */
export const toCompaction = sqliteRows.toCompaction;

/** `report` as JSON for the log (null when absent); throws naming `where` when it cannot be serialized. */
export function reportJson(report: unknown, where: string): string | null {
  if (report === undefined || report === null) return null;
  try {
    return JSON.stringify(report);
  } catch (error) {
    throw new SessionStoreError(`${where}: the compaction report cannot be stored as JSON (${(error as Error).message})`);
  }
}
