/** The session store's SQLite rows and their mapping to the public records (see types.ts). */
import type { ChatMessage } from "../messages/schema.js";
import { SessionStoreError, type CompactionKind, type CompactionRecord, type SessionRecord, type StoredMessage } from "./types.js";

/** A `sessions` row. */
export interface SessionRow {
  id: string;
  platform: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  parent_session_id: string | null;
  compression_count: number;
  last_compaction_in_place: number | null;
}

/** A `messages` row. */
export interface MessageRow {
  id: number;
  session_id: string;
  seq: number;
  role: string;
  message_json: string;
  text: string;
  tokens: number;
  /** The counting that produced `tokens` (schema v3; NULL when unknown). */
  tokens_by: string | null;
  active: number;
  compacted: number;
  compaction_id: number | null;
  created_at: number;
}

/** A `compactions` row, with the id of the undo that reversed it (`undone_by`). */
export interface CompactionRow {
  id: number;
  session_id: string;
  kind: CompactionKind;
  at: number;
  in_place: number;
  messages_before: number;
  messages_after: number;
  summary: string | null;
  report_json: string | null;
  first_seq: number | null;
  last_seq: number | null;
  reverts_compaction_id: number | null;
  undone_by: number | null;
}

/** The public record of a session row. */
export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    platform: row.platform,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    parentSessionId: row.parent_session_id,
    compressionCount: row.compression_count,
    lastCompactionInPlace: row.last_compaction_in_place === null ? null : row.last_compaction_in_place === 1,
  };
}

/** The public record of a message row (the message parsed back from its JSON). */
export function toStored(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    role: row.role,
    message: JSON.parse(row.message_json) as ChatMessage,
    text: row.text,
    tokens: row.tokens,
    active: row.active === 1,
    compacted: row.compacted === 1,
    compactionId: row.compaction_id,
    createdAt: row.created_at,
  };
}

/** The public record of a compaction-log row. */
export function toCompaction(row: CompactionRow): CompactionRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    kind: row.kind,
    at: row.at,
    inPlace: row.in_place === 1,
    messagesBefore: row.messages_before,
    messagesAfter: row.messages_after,
    summary: row.summary,
    report: row.report_json === null ? null : JSON.parse(row.report_json),
    revertsCompactionId: row.reverts_compaction_id,
    undoneByCompactionId: row.undone_by,
    // archiveAndReplace and rotateSession always log the rows they wrote; only a boundary has none.
    transcriptRewritten: !(row.kind === "compaction" && row.first_seq === null),
  };
}

/** `report` as JSON for the log (null when absent); throws naming `where` when it cannot be serialized. */
export function reportJson(report: unknown, where: string): string | null {
  if (report === undefined || report === null) return null;
  try {
    return JSON.stringify(report);
  } catch (error) {
    throw new SessionStoreError(`${where}: the compaction report cannot be stored as JSON (${(error as Error).message})`);
  }
}
