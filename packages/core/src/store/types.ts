/**
 * The session store contract (docs/BEHAVIOUR.md, "In-place compaction"): sessions, their messages with
 * active/compacted flags, the compaction log, full-text search over active and archived turns, and
 * undo. Nothing is ever deleted: compaction archives rows, undo restores them.
 */
import type { ChatMessage } from "../messages/schema.js";

import { DEFAULT_SESSION_SCOPE } from "../engine/types.js";

export { DEFAULT_SESSION_SCOPE };

/** One conversation. */
export interface SessionRecord {
  id: string;
  platform: string;
  /**
   * Whose session it is (a tenant or user id), fixed at creation: the agent's tools answer only from
   * sessions of the calling session's scope ({@link DEFAULT_SESSION_SCOPE} when none was given).
   */
  scope: string;
  title: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** The session this one was rotated from (`compression.in_place: false`), else null. */
  parentSessionId: string | null;
  /** Compactions in effect for this conversation (undo lowers it; a rotated child inherits it). */
  compressionCount: number;
  /** Mode of the latest compaction: true in place, false by rotation, null before any compaction. */
  lastCompactionInPlace: boolean | null;
}

/** What {@link SessionStore.createSession} accepts. */
export interface NewSession {
  /** Default: a random UUID. */
  id?: string;
  platform: string;
  /** Whose session it is (default {@link DEFAULT_SESSION_SCOPE}); a rotated child keeps its parent's. */
  scope?: string;
  title?: string | null;
  parentSessionId?: string | null;
}

/** One stored message row. `message` is the message exactly as it was given. */
export interface StoredMessage {
  id: number;
  sessionId: string;
  /** Position in the session (1, 2, …; never reused). */
  seq: number;
  role: string;
  message: ChatMessage;
  /** The searchable text: content text plus rendered tool calls. */
  text: string;
  tokens: number;
  /** Part of the current message list. */
  active: boolean;
  /** Taken out of the list by a compaction (or an undo) and kept as an archived turn. */
  compacted: boolean;
  /** The compaction (or undo) that archived the row, when archived. */
  compactionId: number | null;
  createdAt: number;
}

/** `compaction` rewrites the active list; `undo` reverses the latest compaction still in effect. */
export type CompactionKind = "compaction" | "undo";

/** One entry of the compaction log. */
export interface CompactionRecord {
  id: number;
  sessionId: string;
  kind: CompactionKind;
  /** Epoch milliseconds. */
  at: number;
  inPlace: boolean;
  messagesBefore: number;
  messagesAfter: number;
  /** The summary text the compaction inserted, when known. */
  summary: string | null;
  /** The engine's report (e.g. the compressor's `lastCompression`), stored as JSON. */
  report: unknown;
  /** For an undo: the compaction it reversed. */
  revertsCompactionId: number | null;
  /** For an undo: the compaction that undid this one (null while it is in effect). */
  undoneByCompactionId: number | null;
  /**
   * False for a boundary only ({@link SessionStore.recordCompactionBoundary}: a compaction the model's
   * server did on its own thread, the local transcript untouched); true when the entry archived or wrote rows.
   */
  transcriptRewritten: boolean;
}

/** What the caller tells the store about a compaction. */
export interface CompactionInfo {
  summary?: string | null;
  report?: unknown;
  /** Epoch milliseconds (default: the store's clock). */
  at?: number;
  /**
   * The ids of the active rows the compaction read and compacted, in order. When given, the store checks
   * and writes against them in one transaction, so a turn another worker (or process) appended after
   * the read is never lost: rows after them move behind the new list (written again there, the
   * originals archived under this compaction so an undo restores the exact list), and when the active
   * list no longer begins with exactly these rows (another compaction or an undo came first) it throws
   * {@link CompactionConflictError} and writes nothing. Without it every active row is replaced.
   */
  compactedRowIds?: readonly number[];
}

/**
 * What {@link SessionStore.repairActiveList} writes: a repair of the active list that is no compaction
 * (the tool pairs an engine mended while compacting nothing), as read.
 */
export interface ActiveListRepair {
  /** The ids of the active rows the repair read, in order (as {@link CompactionInfo.compactedRowIds}). */
  readRowIds: readonly number[];
  /** How many of them lead the repaired list as they are. */
  kept: number;
  /** The repaired list after the kept rows (what replaces the other read rows). */
  messages: readonly ChatMessage[];
}

/** Options of {@link SessionStore.listSessions}. */
export interface ListSessionsOptions {
  /** At most this many (default 20, at most 500). */
  limit?: number;
  /** Skip this many of the most recent first (paging). */
  offset?: number;
  /** Only these sessions. */
  ids?: readonly string[];
  /** Only sessions of this platform. */
  platform?: string;
  /** Only sessions of this scope (default: every scope — an operator's view; agent tools always pass one). */
  scope?: string;
}

/** A session with what a listing shows about it. */
export interface SessionOverview extends SessionRecord {
  /** Rows stored, active and archived. */
  messageCount: number;
  /** Rows in the active list. */
  activeCount: number;
  /** The highest seq (0 for an empty session). */
  lastSeq: number;
}

/** What `session_search` reads from a store. */
export type SessionSearchStore = Pick<SessionStore, "getSession" | "listSessions" | "messagesBySeq" | "search">;

/** Options of {@link SessionStore.search}. */
export interface SearchOptions {
  /** Only this session (default: every session). */
  sessionId?: string;
  /** Also search archived turns (default true). */
  includeArchived?: boolean;
  /** Only sessions of this scope (default: every scope — an operator's view; agent tools always pass one). */
  scope?: string;
  /** At most this many hits (default 20, at most 500). */
  limit?: number;
}

/** One search hit (FTS5, best match first). */
export interface SearchHit {
  messageId: number;
  sessionId: string;
  seq: number;
  role: string;
  /** The matching passage, matches wrapped in `>>>` and `<<<`. */
  snippet: string;
  active: boolean;
  compacted: boolean;
  /** True when the turn is no longer in the active list (archived by a compaction). */
  archived: boolean;
  compactionId: number | null;
  createdAt: number;
}

/** What {@link SessionStore.undoLastCompaction} did. */
export interface UndoResult {
  /** The compaction that was reversed. */
  undoneCompactionId: number;
  /** The log entry of the undo itself. */
  undoId: number;
  /** Rows brought back into the active list. */
  restored: number;
  /** Rows the compaction had written, now archived. */
  archived: number;
}

/**
 * Per-session engine state kept across restarts (cooldowns, failure streaks): one JSON value per
 * engine name and session id, replaced on every change and cleared when the session ends.
 */
export interface EngineStateStore {
  /** The state saved for `engine` and `sessionId`, or undefined. */
  loadEngineState(engine: string, sessionId: string): unknown;
  /** Saves `state` (a JSON value) for `engine` and `sessionId`, replacing what was there. */
  saveEngineState(engine: string, sessionId: string, state: unknown): void;
  /** Forgets the state of `engine` and `sessionId`. */
  clearEngineState(engine: string, sessionId: string): void;
  /**
   * Reads and forgets the state of `engine` and `sessionId` in one step: of callers taking the same state
   * (workers on one database), exactly one gets it. Undefined when there was none. A store shared by many
   * workers offers it; engines then hand work between workers through it (a `compact_context` request, a
   * summary prepared in the background).
   */
  takeEngineState?(engine: string, sessionId: string): unknown;
  /**
   * Saves `state` for `engine` and `sessionId` only when there is none, or the one there was saved before
   * `staleBefore` (epoch ms; a crashed worker's claim expires): true when this call saved it. Of callers
   * claiming together, one wins.
   */
  claimEngineState?(engine: string, sessionId: string, state: unknown, staleBefore: number): boolean;
  /** Every engine's state saved for `sessionId`, by engine name, with when each was saved: what an operator's view lists. */
  engineStates?(sessionId: string): EngineStateEntry[];
}

/** One engine's state of a session, as {@link EngineStateStore.engineStates} lists it. */
export interface EngineStateEntry {
  engine: string;
  state: unknown;
  /** When it was saved (epoch ms). */
  updatedAt: number;
}

/**
 * The session store every host can be given (`createContextHost({ store })`). The engine-state methods
 * are optional: a store without them simply keeps no engine state across restarts.
 */
export interface SessionStore extends Partial<EngineStateStore> {
  /** Creates a session; throws when the id is taken or the parent is unknown. */
  createSession(session: NewSession): SessionRecord;
  /** The session, or undefined. */
  getSession(sessionId: string): SessionRecord | undefined;
  /** Sessions rotated from `sessionId`, oldest first. */
  childSessions(sessionId: string): SessionRecord[];
  /** Appends `messages` (validated) to the end of the active list; returns their row ids. */
  appendMessages(sessionId: string, messages: readonly ChatMessage[]): number[];
  /** The current message list, in order, each message exactly as stored. */
  activeMessages(sessionId: string): ChatMessage[];
  /** The active rows with their metadata, in order. */
  activeRows(sessionId: string): StoredMessage[];
  /**
   * In one transaction: archives every active row (`active=0, compacted=1`, the new compaction's id),
   * inserts `newActiveMessages` as the active list (followed by the rows appended after
   * `info.compactedRowIds`, when given), and logs the compaction. Deletes nothing.
   */
  archiveAndReplace(sessionId: string, newActiveMessages: readonly ChatMessage[], info?: CompactionInfo): CompactionRecord;
  /**
   * Rotation (`compression.in_place: false`): in one transaction creates a child session of
   * `parentSessionId` holding `messages` (followed by the parent's rows appended after
   * `info.compactedRowIds`, when given), and logs the compaction there. The parent is left as it is.
   */
  rotateSession(parentSessionId: string, messages: readonly ChatMessage[], info?: CompactionInfo & { id?: string; title?: string | null }): { session: SessionRecord; compaction: CompactionRecord };
  /**
   * Logs a compaction that happened elsewhere (the model's server compacted its own thread) as a boundary:
   * no row is archived or written, the active list stays exactly as it is; the session's compression
   * count goes up and its mode becomes in place. Such an entry cannot be undone locally.
   */
  recordCompactionBoundary(sessionId: string, info?: CompactionInfo): CompactionRecord;
  /**
   * Writes a repair of the active list that is no compaction, once, so it is not made again every turn.
   * In one transaction: the active rows after the `kept` leading read rows are archived (neither active
   * nor compacted, of no compaction), and `messages` are written after the kept rows, followed by the
   * rows appended after the read ones. The compaction log, the compression count and undo are left as
   * they are. Returns the ids of the rows written; undefined (nothing written) when a row it would
   * replace was written by a compaction still in effect (an undo of it restores around those rows).
   * Throws {@link CompactionConflictError} when the active list no longer begins with the read rows.
   * Optional: without it, a repair is made again by each compaction attempt that needs it.
   */
  repairActiveList?(sessionId: string, repair: ActiveListRepair): number[] | undefined;
  /** Archived rows of the session (of one compaction when `compactionId` is given), in seq order. */
  archivedMessages(sessionId: string, compactionId?: number): StoredMessage[];
  /** The session's compaction log, oldest first. */
  compactions(sessionId: string): CompactionRecord[];
  /** Sessions, most recently updated first (see {@link ListSessionsOptions}), with their message counts. */
  listSessions(options?: ListSessionsOptions): SessionOverview[];
  /** The session's rows with `fromSeq ≤ seq ≤ toSeq`, active and archived, in seq order. */
  messagesBySeq(sessionId: string, fromSeq: number, toSeq: number): StoredMessage[];
  /** FTS5 search over active and archived turns; any text is accepted (see `planSearchQuery`), an empty query throws {@link SearchQueryError}. */
  search(query: string, options?: SearchOptions): SearchHit[];
  /**
   * Reverses the latest in-place compaction still in effect: its archived rows become active again
   * (followed by messages appended since), and the rows it wrote are archived. Undefined when there is
   * nothing to undo; throws when that compaction was a rotation or an app-server boundary.
   */
  undoLastCompaction(sessionId: string): UndoResult | undefined;
  /** Closes the store. */
  close(): void;
}

/** A value or a promise of it: what a method of a {@link SessionStoreAsync} returns. */
export type Awaitable<T> = T | PromiseLike<T>;

/** `T`'s methods, each returning its value or a promise of it. */
export type AwaitableMethods<T> = { [K in keyof T]: NonNullable<T[K]> extends (...args: infer A) => infer R ? (...args: A) => Awaitable<R> : T[K] };

/**
 * A session store that may answer asynchronously: every {@link SessionStore} method with the same
 * arguments and meaning, each returning its value or a promise of it, so a store over a network
 * database (`@context-engine/postgres`) fits beside the embedded one. {@link SqliteSessionStore} is one
 * as it is (it returns the values); callers await every call ({@link CompactionSessionAsync} does).
 */
export interface SessionStoreAsync extends AwaitableMethods<Omit<SessionStore, keyof EngineStateStore | "repairActiveList">>, Partial<AwaitableMethods<EngineStateStore>> {
  /** {@link SessionStore.repairActiveList}, answering its value or a promise of it. */
  repairActiveList?(sessionId: string, repair: ActiveListRepair): Awaitable<number[] | undefined>;
  /**
   * Claims the compaction of `sessionId` for this caller until the returned release is called: undefined
   * when another caller (another worker, on any machine) holds it. A store shared by many workers offers
   * it so a session is compacted (its summarizer run) by one worker at a time; without it, concurrent
   * compactions are still safe (`compactedRowIds`), only the overtaken one's work is wasted.
   */
  leaseCompaction?(sessionId: string): Awaitable<(() => Awaitable<void>) | undefined>;
}

/** A store operation that cannot proceed (unknown session, taken id, bad argument). */
export class SessionStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionStoreError";
  }
}

/**
 * A compaction written against rows that are no longer the start of the active list: another
 * compaction or an undo finished first. Nothing was written.
 */
export class CompactionConflictError extends SessionStoreError {
  constructor(message: string) {
    super(message);
    this.name = "CompactionConflictError";
  }
}

/** A search query FTS5 cannot parse; the message quotes the query and says how to fix it. */
export class SearchQueryError extends Error {
  constructor(
    readonly query: string,
    readonly reason: string,
  ) {
    super(
      `Invalid search query ${JSON.stringify(query)}: ${reason}. ` +
        `Use words, "quoted phrases", prefix* and AND / OR / NOT; put terms with punctuation (e.g. "foo-bar") in double quotes.`,
    );
    this.name = "SearchQueryError";
  }
}
