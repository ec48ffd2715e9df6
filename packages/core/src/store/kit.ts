/**
 * What every session store implementation shares, so the SQLite store and others (the PostgreSQL one
 * of `@context-engine/postgres`) check input, count tokens and word their errors the same way. Public
 * as `@context-engine/core/store`, for store implementations; hosts use the stores themselves.
 */
import { z } from "zod";
import { lazy } from "../lazy.js";
import type { ChatMessage } from "../messages/schema.js";
import { MemoizedTokenCounter, MESSAGE_COUNTING_VERSION } from "../tokens/counter.js";
import { estimateMessageTokensRough } from "../tokens/rough.js";
import type { TokenCounter } from "../tokens/types.js";
import { CompactionConflictError, DEFAULT_SESSION_SCOPE, SearchQueryError, SessionStoreError, type ActiveListRepair, type ListSessionsOptions, type NewSession, type SearchOptions } from "./types.js";

export { reportJson, sessionRowCodec, SQLITE_COLUMNS } from "./rows.js";
export type { ColumnDecoder, ColumnTypes, SqliteColumnTypes, SessionRow, MessageRow, CompactionRow, SessionRowCodec } from "./rows.js";
export { searchableMessageText } from "./messageText.js";

/** Hits returned when `limit` is not given. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** The largest `limit` accepted. */
export const MAX_SEARCH_LIMIT = 500;

/** A scope: a tenant or user id. */
const scopeSchema = lazy(() => z.string({ error: "must be a scope (string)" }).trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" }));

const newSessionSchema = lazy(() => z.object({
  scope: scopeSchema().optional(),
  id: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" }).optional(),
  platform: z.string({ error: "must be a platform name (string)" }).min(1, { error: "must not be empty" }),
  title: z.string({ error: "must be a string or null" }).nullable().optional(),
  parentSessionId: z.string({ error: "must be a session id or null" }).nullable().optional(),
}));

const listSessionsOptionsSchema = lazy(() => z.object({
  limit: z.number({ error: "limit must be a whole number" }).int({ error: "limit must be a whole number" }).min(1, { error: "limit must be at least 1" }).max(500, { error: "limit must be at most 500" }).default(20),
  offset: z.number({ error: "offset must be a whole number" }).int({ error: "offset must be a whole number" }).min(0, { error: "offset must be 0 or more" }).default(0),
  ids: z.array(z.string({ error: "ids must be session ids (strings)" })).optional(),
  platform: z.string({ error: "platform must be a string" }).optional(),
  scope: scopeSchema().optional(),
}));

const searchOptionsSchema = lazy(() => z.object({
  sessionId: z.string({ error: "must be a session id (string)" }).min(1, { error: "must not be empty" }).optional(),
  includeArchived: z.boolean({ error: "must be true or false" }).default(true),
  scope: scopeSchema().optional(),
  limit: z
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_SEARCH_LIMIT, { error: `must be at most ${MAX_SEARCH_LIMIT}` })
    .default(DEFAULT_SEARCH_LIMIT),
}));

/** `session` checked (a {@link SessionStoreError} naming the bad field otherwise), with its defaults filled in. */
export function parseNewSession(session: NewSession): { id: string | undefined; platform: string; scope: string | undefined; title: string | null; parentSessionId: string | null } {
  const parsed = newSessionSchema().safeParse(session);
  if (!parsed.success) throw new SessionStoreError(`createSession: invalid session:\n${z.prettifyError(parsed.error)}`);
  const { id, platform, scope, title = null, parentSessionId = null } = parsed.data;
  return { id, platform, scope, title, parentSessionId };
}

/** `options` of `listSessions` checked, with their defaults filled in. */
export function parseListSessionsOptions(options: ListSessionsOptions): { limit: number; offset: number; ids?: string[] | undefined; platform?: string | undefined; scope?: string | undefined } {
  const parsed = listSessionsOptionsSchema().safeParse(options);
  if (!parsed.success) throw new SessionStoreError(`listSessions: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A search's query and options checked: an empty query is a {@link SearchQueryError}, bad options a {@link SessionStoreError}. */
export function parseSearchRequest(query: string, options: SearchOptions): { sessionId?: string | undefined; includeArchived: boolean; limit: number; scope?: string | undefined } {
  if (typeof query !== "string" || query.trim() === "") throw new SearchQueryError(String(query), "the query is empty");
  const parsed = searchOptionsSchema().safeParse(options);
  if (!parsed.success) throw new SessionStoreError(`Invalid search options:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * The scope a new session gets: the one given, else its parent's, else {@link DEFAULT_SESSION_SCOPE}. A
 * child in another scope than its parent is refused: a rotation never moves a conversation to someone else.
 */
export function sessionScope(scope: string | undefined, parent: { id: string; scope: string } | undefined): string {
  if (parent !== undefined && scope !== undefined && scope !== parent.scope) {
    throw new SessionStoreError(`createSession: scope '${scope}' differs from the scope of parent session '${parent.id}' ('${parent.scope}')`);
  }
  return scope ?? parent?.scope ?? DEFAULT_SESSION_SCOPE;
}

/** Throws unless `fromSeq` and `toSeq` are whole numbers (`messagesBySeq`). */
export function checkSeqRange(fromSeq: number, toSeq: number): void {
  if (!Number.isInteger(fromSeq) || !Number.isInteger(toSeq)) throw new SessionStoreError(`messagesBySeq: fromSeq and toSeq must be whole numbers, got ${fromSeq} and ${toSeq}`);
}

/** Throws when a compaction would leave no message (`archiveAndReplace`, `rotateSession`). */
export function checkCompactedList(messages: readonly ChatMessage[], where: string): void {
  if (messages.length === 0) throw new SessionStoreError(`${where}: the new message list is empty; a compaction must keep at least one message`);
}

/** The error of a compaction of a session with no active row. */
export function nothingToCompactError(where: string): SessionStoreError {
  return new SessionStoreError(`${where}: the session has no active messages to compact`);
}

/** The error of an unknown session id. */
export function unknownSessionError(sessionId: unknown, where: string): SessionStoreError {
  return new SessionStoreError(`${where}: unknown session ${JSON.stringify(sessionId)}`);
}

/** The error of `createSession` with a taken id. */
export function sessionExistsError(id: string): SessionStoreError {
  return new SessionStoreError(`createSession: session '${id}' already exists`);
}

/**
 * How many of the session's active rows (ids in order) follow `compactedRowIds` and are carried behind
 * the compacted list (0 when `compactedRowIds` is not given: every active row is replaced). Throws
 * {@link CompactionConflictError} when the active list no longer begins with exactly those rows.
 */
export function rowsAppendedAfter(activeIds: readonly number[], compactedRowIds: readonly number[] | undefined, where: string): number {
  if (compactedRowIds === undefined) return 0;
  const intact = activeIds.length >= compactedRowIds.length && compactedRowIds.every((id, i) => activeIds[i] === id);
  if (!intact) {
    throw new CompactionConflictError(
      `${where}: the active list no longer begins with the ${compactedRowIds.length} rows this compaction read (another compaction or an undo finished first); nothing was written`,
    );
  }
  return activeIds.length - compactedRowIds.length;
}

/**
 * Checks `repair` against the session's active row ids read in its transaction: the ids of the rows it
 * replaces (the read rows after the kept ones, then those appended after the read ones). Throws
 * {@link CompactionConflictError} when the active list no longer begins with the read rows, and
 * {@link SessionStoreError} for a `kept` that is no count of them.
 */
export function repairedRowIds(activeIds: readonly number[], repair: ActiveListRepair, where: string): number[] {
  const read = repair.readRowIds.length;
  if (!Number.isInteger(repair.kept) || repair.kept < 0 || repair.kept > read) throw new SessionStoreError(`${where}: kept must be a whole number from 0 to ${read} (the rows read), got ${String(repair.kept)}`);
  rowsAppendedAfter(activeIds, repair.readRowIds, where);
  return activeIds.slice(repair.kept);
}

/** Why the latest compaction in effect cannot be undone here, or undefined when it can. */
export function undoRefusal(last: { id: number; inPlace: boolean; transcriptRewritten: boolean }, parentSessionId: string | null, where: string): SessionStoreError | undefined {
  if (!last.inPlace) {
    return new SessionStoreError(
      `${where}: the session was created by rotation from '${parentSessionId ?? "?"}'; there is no in-place compaction to undo (continue the parent session for the earlier turns)`,
    );
  }
  if (!last.transcriptRewritten) {
    return new SessionStoreError(
      `${where}: compaction ${last.id} was done by the model's server on its own thread; the local transcript was never rewritten, so there is nothing to undo here`,
    );
  }
  return undefined;
}

/** The state JSON of `saveEngineState`; throws when `state` is not a JSON value. */
export function engineStateJson(engine: string, sessionId: string, state: unknown): string {
  const json = JSON.stringify(state);
  if (json === undefined) throw new SessionStoreError(`saveEngineState('${engine}', '${sessionId}'): the state is not a JSON value`);
  return json;
}

/** The state `loadEngineState` read back; throws when the stored text is not JSON. */
export function parseEngineState(engine: string, sessionId: string, json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new SessionStoreError(`loadEngineState('${engine}', '${sessionId}'): stored state is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Messages estimated above this many tokens are stored with their rough estimate instead of an exact
 * count: counting a megabyte of base64 exactly takes a third of a second, and no decision needs it (a
 * compaction recognises such a message from its pre-tokenizer pieces, or counts it if it ever must).
 */
export const EXACT_STORED_COUNT_MAX_TOKENS = 50_000;

/** A message's stored count and the counting that produced it (null: not to be reused). */
export interface StoredCount {
  tokens: number;
  by: string | null;
}

/** How a store counts the tokens of the messages it stores, and remembers stored counts of messages it reads back. */
export interface StoredTokenCounting {
  /**
   * The tokens of one message with the store's counter, and that counter's id; a message estimated
   * above {@link EXACT_STORED_COUNT_MAX_TOKENS} gets its rough estimate and the rough counting's id.
   */
  count(message: ChatMessage): StoredCount;
  /** `message` after the counter (a {@link MemoizedTokenCounter}) has remembered its stored count, when counted the same way. */
  remembered(message: ChatMessage, tokens: number, tokensBy: string | null): ChatMessage;
}

/** The counting of a store given `counter` (default: the rough estimate). */
export function storedTokenCounting(counter: TokenCounter | undefined): StoredTokenCounting {
  const memo = counter instanceof MemoizedTokenCounter && counter.countingId !== undefined ? counter : undefined;
  return {
    count(message) {
      const rough = estimateMessageTokensRough(message);
      if (counter === undefined || rough > EXACT_STORED_COUNT_MAX_TOKENS) return { tokens: rough, by: MESSAGE_COUNTING_VERSION.rough };
      return { tokens: counter.countMessages([message]), by: memo?.countingId ?? null };
    },
    remembered(message, tokens, tokensBy) {
      if (memo !== undefined && tokensBy === memo.countingId) memo.remember(message, tokens);
      return message;
    },
  };
}
