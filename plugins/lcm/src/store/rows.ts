/**
 * The lcm store's rows and their mapping to records: one codec for lcm's SQLite store and any other
 * store of the same tables (the PostgreSQL one), each driver handing in how it reads its bigint columns.
 * A message row's JSON may be packed (the SQLite store keeps long texts deflated and string content in
 * `content_text`); a store that writes plain JSON and no `content_text` reads through the same code.
 */
import type { ChatMessage, ColumnDecoder, ColumnTypes, SqliteColumnTypes } from "../core.js";
import { messageId } from "../messageText.js";
import type { CompactionRecord, StoredMessage, SummaryKind, SummaryLevel, SummaryRecord } from "./records.js";
import { unpackText } from "./packText.js";

/** An `lcm_messages` row (a full-text store's without its search columns). */
export interface LcmMessageRow<C extends ColumnTypes = SqliteColumnTypes> {
  id: C["bigint"];
  session: string;
  seq: number;
  role: string;
  /** The message as JSON; SQLite: string content nulled (it is in `content_text`), long values deflated. */
  message_json: string | Buffer;
  /** SQLite only: the string content, deflated when long; absent or null elsewhere. */
  content_text?: string | Buffer | null;
  tokens: number;
  identity: Buffer;
  created_at: C["bigint"];
  tokens_by: string | null;
}

/** An `lcm_summaries` row. */
export interface LcmSummaryRow<C extends ColumnTypes = SqliteColumnTypes> {
  id: string;
  session: string;
  kind: SummaryKind;
  depth: number;
  level: SummaryLevel;
  content: string;
  tokens: number;
  source_tokens: number;
  seq_start: number;
  seq_end: number;
  created_at: C["bigint"];
}

/** An `lcm_compactions` row. */
export interface LcmCompactionRow<C extends ColumnTypes = SqliteColumnTypes> {
  at: C["bigint"];
  passes: number;
  tokens_before: number;
  tokens_after: number;
  summaries_created: number;
  fallback_summaries: number;
}

/** The lcm store's rows to records, for one driver's columns. */
export interface LcmRowCodec<C extends ColumnTypes> {
  /** The stored message of a row (the original message rebuilt verbatim, its public id from the row id). */
  toMessage(row: LcmMessageRow<C>): StoredMessage;
  /** The summary of a row. */
  toSummary(row: LcmSummaryRow<C>): SummaryRecord;
  /** The compaction-log entry of a row of `session`. */
  toCompaction(session: string, row: LcmCompactionRow<C>): CompactionRecord;
}

/** The lcm store's row codec over the bigint columns `columns` decodes (lcm's tables have no booleans). */
export function lcmRowCodec<C extends ColumnTypes>(columns: Pick<ColumnDecoder<C>, "bigint">): LcmRowCodec<C> {
  const { bigint } = columns;
  return {
    toMessage(row) {
      const message = JSON.parse(unpackText(row.message_json)) as ChatMessage;
      if (row.content_text !== undefined && row.content_text !== null) message.content = unpackText(row.content_text);
      const rowId = bigint(row.id);
      return {
        id: messageId(rowId),
        rowId,
        session: row.session,
        seq: row.seq,
        role: row.role,
        message,
        tokens: row.tokens,
        identity: row.identity,
        createdAt: bigint(row.created_at),
        tokensBy: row.tokens_by ?? undefined,
      };
    },
    toSummary: (row) => ({
      id: row.id,
      session: row.session,
      kind: row.kind,
      depth: row.depth,
      level: row.level,
      content: row.content,
      tokens: row.tokens,
      sourceTokens: row.source_tokens,
      seqStart: row.seq_start,
      seqEnd: row.seq_end,
      createdAt: bigint(row.created_at),
    }),
    toCompaction: (session, row) => ({
      session,
      at: bigint(row.at),
      passes: row.passes,
      tokensBefore: row.tokens_before,
      tokensAfter: row.tokens_after,
      summariesCreated: row.summaries_created,
      fallbackSummaries: row.fallback_summaries,
    }),
  };
}
