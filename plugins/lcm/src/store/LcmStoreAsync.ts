/**
 * The lcm store as a store that may answer asynchronously (`@context-engine/lcm/store`): every data
 * method of {@link LcmStore} with the same arguments and meaning, each returning its value or a promise
 * of it, so a store over a network database (the PostgreSQL one of `@context-engine/postgres`) fits
 * beside the embedded SQLite one, which is an {@link LcmStoreAsync} as it is. Also what such a store
 * needs from lcm: the record types, message ids, the row codec, and the full-text search it adds.
 */
import type { Awaitable, AwaitableMethods } from "@context-engine/core/store";
import type { LcmStore } from "./LcmStore.js";
import type { StoredMessage, SummaryRecord } from "./records.js";
import type { SearchWindow, SessionScope } from "./search.js";

export type { CompactionRecord, ItemRef, NewMessage, StoredMessage, SummaryKind, SummaryLevel, SummaryRecord } from "./records.js";
export type { SearchWindow, SessionScope } from "./search.js";

/** Search results; `truncated` when a search stopped before it had looked at the whole history. */
export interface SearchHits<T> {
  hits: T[];
  truncated: boolean;
}
export { SearchError } from "./search.js";
export { messageId, parseMessageId, messageIdentity, searchableText } from "../messageText.js";
export { parseGrepQuery, termNeedle, type GrepQuery, type GrepTerm } from "./grepQuery.js";
export { lcmRowCodec, type LcmRowCodec, type LcmMessageRow, type LcmSummaryRow, type LcmCompactionRow } from "./rows.js";

/** The data methods of the lcm store (append-only messages, summaries and lineage, context items, the compaction log). */
export type LcmStoreData = Pick<
  LcmStore,
  | "lastSeq"
  | "sessions"
  | "recordSessionScope"
  | "sessionScope"
  | "hasSession"
  | "identityAt"
  | "identitiesFrom"
  | "appendMessages"
  | "getMessage"
  | "getMessages"
  | "getMessagesBySeq"
  | "contextItems"
  | "contextSummaryIds"
  | "getSummary"
  | "allSummaries"
  | "sourcesOf"
  | "parentsOf"
  | "commitSummary"
  | "carrySummaries"
  | "logCompaction"
  | "lastCompaction"
  | "messageCount"
  | "summaryCounts"
  | "close"
>;

/** The lcm store's data methods, each returning its value or a promise of it ({@link LcmStore} is one). */
export interface LcmStoreAsync extends AwaitableMethods<LcmStoreData> {
  /**
   * Claims the compaction of `session` across processes, when the store can: resolves to the release
   * function, or undefined while another holder has it (the engine then leaves the session be). A store
   * without it (SQLite) compacts unclaimed: a summary commit still refuses a context range that changed.
   */
  leaseCompaction?(session: string): Awaitable<(() => Awaitable<void>) | undefined>;
  /**
   * Runs `body` with a view of the store that can read the rows of `scope` only, when the database can
   * enforce it (PostgreSQL: one transaction under row-level security); the agent tools read through it.
   * A store without it (SQLite) is read as it is: the tools themselves keep to the scope's sessions.
   */
  readInScope?<T>(scope: string, body: (store: LcmStoreAsync) => Promise<T>): Promise<T>;
}

/**
 * Full-text search, newest first, as an lcm store over a database with its own text search offers it
 * (the SQLite store's is in store/search.ts, over its FTS5 tables), in one query over the `sessions`
 * given (`"all"`: every session): `pattern` is read with {@link parseGrepQuery} (its terms must all match
 * unless `|` joins them; `AND`, `OR`, `NOT` are plain words); a pattern without words is a `SearchError`.
 */
export interface LcmFullTextSearch {
  searchMessagesFullText(sessions: SessionScope, pattern: string, window: SearchWindow): Promise<SearchHits<StoredMessage>>;
  searchSummariesFullText(sessions: SessionScope, pattern: string, window: SearchWindow): Promise<SearchHits<SummaryRecord>>;
}
