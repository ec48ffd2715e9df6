/** The records of the lcm store: what its methods take and return, whichever database holds them. */
import type { ChatMessage } from "../core.js";

/** A message as stored: the original message verbatim plus its place in the session. */
export interface StoredMessage {
  id: string;
  rowId: number;
  session: string;
  seq: number;
  role: string;
  message: ChatMessage;
  tokens: number;
  /** The first 16 bytes of SHA-256 over the message's key-sorted JSON (see `messageIdentity`). */
  identity: Buffer;
  createdAt: number;
  /** The `countingId` of the counter that produced `tokens`; undefined when unknown (older rows, counters without one). */
  tokensBy?: string | undefined;
}

/** Kinds of summary nodes. */
export type SummaryKind = "leaf" | "condensed";
/** 1 normal, 2 aggressive, 3 deterministic fallback. */
export type SummaryLevel = 1 | 2 | 3;

/** One node of the summary DAG. */
export interface SummaryRecord {
  id: string;
  session: string;
  kind: SummaryKind;
  depth: number;
  level: SummaryLevel;
  content: string;
  tokens: number;
  sourceTokens: number;
  seqStart: number;
  seqEnd: number;
  createdAt: number;
}

/** A reference to a message or a summary (lineage and context items). */
export interface ItemRef {
  type: "message" | "summary";
  id: string;
}

/** A message to append. */
export interface NewMessage {
  message: ChatMessage;
  tokens: number;
  identity: Buffer;
  /** The `countingId` of the counter that produced `tokens`, when it has one. */
  tokensBy?: string | undefined;
}

/** One entry of the compaction log. */
export interface CompactionRecord {
  session: string;
  at: number;
  passes: number;
  tokensBefore: number;
  tokensAfter: number;
  summariesCreated: number;
  fallbackSummaries: number;
}
