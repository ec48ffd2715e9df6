/**
 * Search over the lcm store: full text through the FTS5 indexes (newest first, one session), and a
 * guarded regex scan (pattern length cap, a time budget enforced by running the matching in a vm
 * context with a timeout, so even a catastrophic pattern cannot hang the host).
 */
import { runInNewContext } from "node:vm";
import { literalFtsQuery, queryTerms, type QueryTerms } from "../core.js";
import type { SqliteStatement } from "../deps.js";
import { searchableText } from "../messageText.js";
import type { LcmStore, StoredMessage, SummaryRecord } from "./LcmStore.js";
import { sessionKey } from "./LcmStore.js";

/** Prepared search statements per open database, so a tool call does not compile its SQL again. */
const statements = new WeakMap<object, Map<string, SqliteStatement>>();

function prepared(store: LcmStore, sql: string): SqliteStatement {
  const db = store.db;
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare<unknown[]>(sql)));
  return statement;
}

/** Longest regex pattern accepted. */
export const MAX_REGEX_LENGTH = 512;

/** A search problem reported to the agent as `{error, code}`. */
export class SearchError extends Error {
  constructor(
    readonly code: "invalid_pattern",
    message: string,
  ) {
    super(message);
    this.name = "SearchError";
  }
}

/** Time window and size of a search. */
export interface SearchWindow {
  /** Only records created at or after this epoch-ms time. */
  since?: number | undefined;
  /** Only records created before this epoch-ms time. */
  before?: number | undefined;
  limit: number;
}

/** Search results; `truncated` when the regex time budget ran out before the whole history was scanned. */
export interface SearchHits<T> {
  hits: T[];
  truncated: boolean;
}

/**
 * The words of a full-text pattern: distinct whitespace-separated chunks that hold a letter or digit, at
 * most `MAX_QUERY_TERMS` of them; `OR` between them makes any word match (see core's `queryTerms`).
 */
export function fullTextTerms(pattern: string): QueryTerms {
  return queryTerms(pattern);
}

/**
 * An FTS5 query for `pattern` in one session: every word a quoted phrase (a trailing `*` keeps prefix
 * search), all required unless `OR` joins them. Throws {@link SearchError} when nothing searchable is left.
 */
export function buildFtsQuery(pattern: string, session: string): string {
  const terms = fullTextTerms(pattern);
  if (terms.terms.length === 0) throw new SearchError("invalid_pattern", `pattern ${JSON.stringify(pattern)} has no words to search for`);
  return `text : (${literalFtsQuery(terms)}) AND skey : ${sessionKey(session)}`;
}

/** Rows of an FTS5 statement; a query FTS5 still refuses (a word its tokenizer drops entirely) finds nothing. */
function matchRows<R>(statement: SqliteStatement, params: unknown[]): R[] {
  try {
    return statement.all(...params) as R[];
  } catch (error) {
    if ((error as { code?: unknown }).code === "SQLITE_ERROR" && /fts5|syntax error/i.test((error as Error).message)) return [];
    throw error;
  }
}

const FAR_FUTURE = 8.64e15;

/** Full-text search over one session's messages, newest first. */
export function searchMessagesFullText(store: LcmStore, session: string, pattern: string, window: SearchWindow): SearchHits<StoredMessage> {
  const query = buildFtsQuery(pattern, session);
  const statement = prepared(
    store,
    `SELECT m.id FROM lcm_messages_fts f JOIN lcm_messages m ON m.id = f.rowid
       WHERE lcm_messages_fts MATCH ? AND m.created_at >= ? AND m.created_at < ? ORDER BY f.rowid DESC LIMIT ?`,
  );
  const rows = matchRows<{ id: number }>(statement, [query, window.since ?? 0, window.before ?? FAR_FUTURE, window.limit]);
  const hits = store.getMessages(rows.map((r) => `msg_${r.id}`)).reverse();
  return { hits, truncated: false };
}

/** Full-text search over one session's summaries, newest first. */
export function searchSummariesFullText(store: LcmStore, session: string, pattern: string, window: SearchWindow): SearchHits<SummaryRecord> {
  const query = buildFtsQuery(pattern, session);
  const statement = prepared(
    store,
    `SELECT s.id FROM lcm_summaries_fts f JOIN lcm_summaries s ON s.rowid = f.rowid
       WHERE lcm_summaries_fts MATCH ? AND s.created_at >= ? AND s.created_at < ? ORDER BY f.rowid DESC LIMIT ?`,
  );
  const rows = matchRows<{ id: string }>(statement, [query, window.since ?? 0, window.before ?? FAR_FUTURE, window.limit]);
  return { hits: rows.map((r) => store.getSummary(r.id)!).filter(Boolean), truncated: false };
}

/** Compiles a regex pattern (case-insensitive) or throws {@link SearchError} naming the problem. */
export function compileRegex(pattern: string): RegExp {
  if (pattern.length === 0) throw new SearchError("invalid_pattern", "pattern is empty");
  if (pattern.length > MAX_REGEX_LENGTH) throw new SearchError("invalid_pattern", `regex is ${pattern.length} characters long; at most ${MAX_REGEX_LENGTH} are allowed`);
  try {
    return new RegExp(pattern, "iu");
  } catch (error) {
    throw new SearchError("invalid_pattern", `invalid regex: ${(error as Error).message}`);
  }
}

/** Indexes of `texts` the regex matches (at most `limit`), matched in a vm context that stops after `timeoutMs`. */
function matchInSandbox(pattern: string, texts: string[], limit: number, timeoutMs: number): number[] | "timeout" {
  try {
    return runInNewContext(
      `(() => { const re = new RegExp(pattern, "iu"); const out = []; for (let i = 0; i < texts.length && out.length < limit; i++) if (re.test(texts[i])) out.push(i); return out; })()`,
      { pattern, texts, limit },
      { timeout: Math.max(1, Math.floor(timeoutMs)) },
    ) as number[];
  } catch (error) {
    // the error may come from the vm's realm, so it is recognised by its code, not by instanceof
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ERR_SCRIPT_EXECUTION_TIMEOUT" || /timed out/i.test(String((error as { message?: unknown } | null)?.message))) return "timeout";
    throw error;
  }
}

const SCAN_BATCH = 2_000;

/**
 * Regex scan of one session's messages (and/or summaries), newest first, within `budgetMs`. Returns what
 * was found when the budget runs out, with `truncated: true`.
 */
export function searchRegex(
  store: LcmStore,
  session: string,
  pattern: string,
  window: SearchWindow,
  budgetMs: number,
  scope: { messages: boolean; summaries: boolean },
): { messages: StoredMessage[]; summaries: SummaryRecord[]; truncated: boolean } {
  compileRegex(pattern);
  const deadline = Date.now() + budgetMs;
  const since = window.since ?? 0;
  const before = window.before ?? FAR_FUTURE;
  const out = { messages: [] as StoredMessage[], summaries: [] as SummaryRecord[], truncated: false };
  if (scope.summaries) {
    const all = store.allSummaries(session).filter((s) => s.createdAt >= since && s.createdAt < before).reverse();
    const found = matchInSandbox(pattern, all.map((s) => s.content), window.limit, deadline - Date.now());
    if (found === "timeout") return { ...out, truncated: true };
    out.summaries = found.map((i) => all[i]!);
  }
  if (!scope.messages) return out;
  const page = prepared(
    store,
    "SELECT id FROM lcm_messages WHERE session = ? AND id < ? AND created_at >= ? AND created_at < ? ORDER BY id DESC LIMIT ?",
  );
  let cursor = Number.MAX_SAFE_INTEGER;
  while (out.messages.length < window.limit) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { ...out, truncated: true };
    const ids = (page.all(session, cursor, since, before, SCAN_BATCH) as { id: number }[]).map((r) => r.id);
    if (ids.length === 0) break;
    cursor = ids[ids.length - 1]!;
    const batch = store.getMessages(ids.map((id) => `msg_${id}`)).reverse();
    const found = matchInSandbox(pattern, batch.map((m) => searchableText(m.message)), window.limit - out.messages.length, remaining);
    if (found === "timeout") return { ...out, truncated: true };
    out.messages.push(...found.map((i) => batch[i]!));
  }
  return out;
}
