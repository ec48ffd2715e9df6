/** The session store's PostgreSQL rows and their mapping to core's public records (BIGINT columns arrive as text). */
import type { ChatMessage, CompactionKind, CompactionRecord, SessionRecord, StoredMessage } from "@context-engine/core";
import { num } from "../connection.js";

/** A `sessions` row. */
export interface PgSessionRow {
  id: string;
  platform: string;
  title: string | null;
  created_at: string;
  updated_at: string;
  parent_session_id: string | null;
  compression_count: number;
  last_compaction_in_place: boolean | null;
}

/** A `messages` row (without its tsvector). */
export interface PgMessageRow {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  message_json: string;
  text: string;
  tokens: number;
  tokens_by: string | null;
  active: boolean;
  compacted: boolean;
  compaction_id: string | null;
  created_at: string;
}

/** A `compactions` row with the id of the undo that reversed it. */
export interface PgCompactionRow {
  id: string;
  session_id: string;
  kind: CompactionKind;
  at: string;
  in_place: boolean;
  messages_before: number;
  messages_after: number;
  summary: string | null;
  report_json: string | null;
  first_seq: number | null;
  last_seq: number | null;
  reverts_compaction_id: string | null;
  undone_by: string | null;
}

/** The columns of a message row as read (everything but the tsvector). */
export const MESSAGE_COLUMNS = "id, session_id, seq, role, message_json, text, tokens, tokens_by, active, compacted, compaction_id, created_at";

/** The public record of a session row. */
export function toSession(row: PgSessionRow): SessionRecord {
  return {
    id: row.id,
    platform: row.platform,
    title: row.title,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    parentSessionId: row.parent_session_id,
    compressionCount: row.compression_count,
    lastCompactionInPlace: row.last_compaction_in_place,
  };
}

/** The public record of a message row (the message parsed back from its JSON). */
export function toStored(row: PgMessageRow): StoredMessage {
  return {
    id: num(row.id),
    sessionId: row.session_id,
    seq: row.seq,
    role: row.role,
    message: JSON.parse(row.message_json) as ChatMessage,
    text: row.text,
    tokens: row.tokens,
    active: row.active,
    compacted: row.compacted,
    compactionId: num(row.compaction_id),
    createdAt: num(row.created_at),
  };
}

/** The public record of a compaction-log row. */
export function toCompaction(row: PgCompactionRow): CompactionRecord {
  return {
    id: num(row.id),
    sessionId: row.session_id,
    kind: row.kind,
    at: num(row.at),
    inPlace: row.in_place,
    messagesBefore: row.messages_before,
    messagesAfter: row.messages_after,
    summary: row.summary,
    report: row.report_json === null ? null : JSON.parse(row.report_json),
    revertsCompactionId: num(row.reverts_compaction_id),
    undoneByCompactionId: num(row.undone_by),
    // only a boundary (an app-server compaction) wrote no rows
    transcriptRewritten: !(row.kind === "compaction" && row.first_seq === null),
  };
}
