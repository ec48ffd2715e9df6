/** The session store's PostgreSQL rows: core's row codec over pg's columns (BIGINT as text, booleans). */
import { sessionRowCodec, type CompactionRow, type MessageRow, type SessionRow } from "@context-engine/core/store";
import { PG_COLUMNS, type PgColumnTypes } from "../columns.js";

/** A `sessions` row. */
export type PgSessionRow = SessionRow<PgColumnTypes>;
/** A `messages` row (without its tsvector). */
export type PgMessageRow = MessageRow<PgColumnTypes>;
/** A `compactions` row with the id of the undo that reversed it. */
export type PgCompactionRow = CompactionRow<PgColumnTypes>;

/** The columns of a message row as read (everything but the tsvector). */
export const MESSAGE_COLUMNS = "id, session_id, seq, role, message_json, text, tokens, tokens_by, active, compacted, compaction_id, created_at";

/** The public records of the PostgreSQL session store's rows. */
export const { toSession, toStored, toCompaction } = sessionRowCodec(PG_COLUMNS);
