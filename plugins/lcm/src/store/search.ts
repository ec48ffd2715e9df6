/**
 * Search over the lcm store, in one session, several, or all of them. Full text goes through the word
 * index (FTS5 unicode61); a query in a script written without spaces (CJK, kana, Hangul, Thai) goes
 * through the trigram index as substrings, or, for terms shorter than a trigram, through a scan. The
 * regex scan is guarded: a pattern length cap and a time budget enforced by matching in a vm context
 * with a timeout, so even a catastrophic pattern cannot hang the host.
 */
import { runInNewContext } from "node:vm";
import type { SqliteStatement } from "../deps.js";
import { searchableText } from "../messageText.js";
import { termNeedle, wordIndexQuery, type GrepQuery } from "./grepQuery.js";
import type { LcmStore, StoredMessage, SummaryRecord } from "./LcmStore.js";
import { sessionKey } from "./LcmStore.js";
import { rankByRelevance } from "./relevance.js";
import { hasUnspacedScript, TRIGRAM_MIN_CHARS } from "./unspaced.js";

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

/** Full-text matches looked at when ranking by relevance (the newest ones). */
export const RELEVANCE_CANDIDATES = 500;

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

/** The sessions a search covers: a list, or every session in the store. */
export type SessionScope = readonly string[] | "all";

/** Which records a search looks at. */
export interface SearchKinds {
  messages: boolean;
  summaries: boolean;
}

/** How the records were matched: the word index, the trigram (substring) index, or a scan of the texts. */
export type MatchedBy = "words" | "substring" | "scan";

/** What a search found; `truncated` when a scan's time budget ran out before the whole history was scanned. */
export interface SearchResult {
  messages: StoredMessage[];
  summaries: SummaryRecord[];
  truncated: boolean;
}

/** What a full-text search found, and how. */
export interface FullTextResult extends SearchResult {
  matchedBy: MatchedBy;
}

/** A full-text search (its query has at least one term). */
export interface FullTextRequest {
  /** The pattern as the agent wrote it (a store with its own full-text search parses it itself). */
  pattern: string;
  query: GrepQuery;
  sessions: SessionScope;
  window: SearchWindow;
  kinds: SearchKinds;
  sort: "recency" | "relevance";
  /** Time budget of a scan (short CJK terms). */
  budgetMs: number;
}

function wordIndexMatch(query: GrepQuery, sessions: SessionScope): string {
  const text = `text : (${wordIndexQuery(query)})`;
  if (sessions === "all") return text;
  return `${text} AND skey : (${sessions.map(sessionKey).join(" OR ")})`;
}

/** The trigram expression of `query`: each term's text as a quoted substring. */
function trigramMatch(query: GrepQuery): string {
  return query.terms.map((t) => `"${termNeedle(t).replace(/"/g, '""')}"`).join(query.anyOf ? " OR " : " ");
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

/** A time after every record (the open end of a search window). */
export const FAR_FUTURE = 8.64e15;

/** SQL condition and parameters restricting `alias.session` to the scope. */
function sessionFilter(alias: string, sessions: SessionScope): { sql: string; params: unknown[] } {
  return sessions === "all" ? { sql: "1", params: [] } : { sql: `${alias}.session IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(sessions)] };
}

/** How a query is matched: words for spaced scripts, substrings or a scan for unspaced ones. */
export function matchingFor(query: GrepQuery): MatchedBy {
  if (!query.terms.some((t) => hasUnspacedScript(t.text))) return "words";
  return query.terms.every((t) => [...termNeedle(t)].length >= TRIGRAM_MIN_CHARS) ? "substring" : "scan";
}

/** Full-text search (see the module comment); newest first, or the most relevant first. */
export function searchFullText(store: LcmStore, request: FullTextRequest): FullTextResult {
  const query = request.query;
  const matchedBy = matchingFor(query);
  const { window, kinds } = request;
  const wanted = candidatesWanted(request);
  let result: SearchResult;
  if (matchedBy === "scan") {
    result = scanTexts(store, scanPattern(query), request.sessions, { ...window, limit: wanted }, request.budgetMs, kinds);
  } else {
    const byIndex = matchedBy === "words" ? indexedRows.words : indexedRows.substring;
    result = {
      messages: kinds.messages ? byIndex.messages(store, query, request.sessions, window, wanted) : [],
      summaries: kinds.summaries ? byIndex.summaries(store, query, request.sessions, window, wanted) : [],
      truncated: false,
    };
  }
  return { ...ranked(result, request), matchedBy };
}

/** How many records a full-text search asks for: more than the limit when they are ranked by relevance. */
export function candidatesWanted(request: FullTextRequest): number {
  return request.sort === "relevance" ? Math.max(request.window.limit, RELEVANCE_CANDIDATES) : request.window.limit;
}

/** `result` with its lists ranked by relevance and cut to the limit, when the request sorts by relevance. */
export function ranked(result: SearchResult, request: FullTextRequest): SearchResult {
  if (request.sort !== "relevance") return result;
  const { query, window } = request;
  return {
    ...result,
    messages: rankByRelevance(result.messages, (m) => searchableText(m.message), query).slice(0, window.limit),
    summaries: rankByRelevance(result.summaries, (s) => s.content, query).slice(0, window.limit),
  };
}

type RowFinder<T> = (store: LcmStore, query: GrepQuery, sessions: SessionScope, window: SearchWindow, limit: number) => T[];

/** Newest matching rows of the word index and of the trigram index, messages and summaries. */
const indexedRows: Record<"words" | "substring", { messages: RowFinder<StoredMessage>; summaries: RowFinder<SummaryRecord> }> = {
  words: {
    messages: (store, query, sessions, window, limit) => {
      const statement = prepared(
        store,
        `SELECT m.id FROM lcm_messages_fts f JOIN lcm_messages m ON m.id = f.rowid
           WHERE lcm_messages_fts MATCH ? AND m.created_at >= ? AND m.created_at < ? ORDER BY f.rowid DESC LIMIT ?`,
      );
      const rows = matchRows<{ id: number }>(statement, [wordIndexMatch(query, sessions), window.since ?? 0, window.before ?? FAR_FUTURE, limit]);
      return store.getMessages(rows.map((r) => `msg_${r.id}`)).sort((a, b) => b.rowId - a.rowId);
    },
    summaries: (store, query, sessions, window, limit) => {
      const statement = prepared(
        store,
        `SELECT s.id FROM lcm_summaries_fts f JOIN lcm_summaries s ON s.rowid = f.rowid
           WHERE lcm_summaries_fts MATCH ? AND s.created_at >= ? AND s.created_at < ? ORDER BY f.rowid DESC LIMIT ?`,
      );
      const rows = matchRows<{ id: string }>(statement, [wordIndexMatch(query, sessions), window.since ?? 0, window.before ?? FAR_FUTURE, limit]);
      return rows.map((r) => store.getSummary(r.id)!).filter(Boolean);
    },
  },
  substring: {
    messages: (store, query, sessions, window, limit) => {
      const filter = sessionFilter("m", sessions);
      const statement = prepared(
        store,
        `SELECT m.id FROM lcm_messages_tri t JOIN lcm_messages m ON m.id = t.rowid
           WHERE lcm_messages_tri MATCH ? AND ${filter.sql} AND m.created_at >= ? AND m.created_at < ? ORDER BY t.rowid DESC LIMIT ?`,
      );
      const rows = matchRows<{ id: number }>(statement, [trigramMatch(query), ...filter.params, window.since ?? 0, window.before ?? FAR_FUTURE, limit]);
      return store.getMessages(rows.map((r) => `msg_${r.id}`)).sort((a, b) => b.rowId - a.rowId);
    },
    summaries: (store, query, sessions, window, limit) => {
      const filter = sessionFilter("s", sessions);
      const statement = prepared(
        store,
        `SELECT s.id FROM lcm_summaries_tri t JOIN lcm_summaries s ON s.rowid = t.rowid
           WHERE lcm_summaries_tri MATCH ? AND ${filter.sql} AND s.created_at >= ? AND s.created_at < ? ORDER BY t.rowid DESC LIMIT ?`,
      );
      const rows = matchRows<{ id: string }>(statement, [trigramMatch(query), ...filter.params, window.since ?? 0, window.before ?? FAR_FUTURE, limit]);
      return rows.map((r) => store.getSummary(r.id)!).filter(Boolean);
    },
  },
};

/** A regex source that matches a text holding the query's terms as substrings (all, or any with `|`/OR). */
export function scanPattern(query: GrepQuery): string {
  const needles = query.terms.map((t) => termNeedle(t).replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
  return query.anyOf ? needles.join("|") : `^${needles.map((n) => `(?=[\\s\\S]*?${n})`).join("")}`;
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
export function matchInSandbox(pattern: string, texts: string[], limit: number, timeoutMs: number): number[] | "timeout" {
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

/** Records read per step of a scan. */
export const SCAN_BATCH = 2_000;

/**
 * Regex scan of the sessions' messages and/or summaries, newest first, within `budgetMs`. Returns what
 * was found when the budget runs out, with `truncated: true`.
 */
export function searchRegex(store: LcmStore, sessions: SessionScope, pattern: string, window: SearchWindow, budgetMs: number, kinds: SearchKinds): SearchResult {
  compileRegex(pattern);
  return scanTexts(store, pattern, sessions, window, budgetMs, kinds);
}

/** The scan behind {@link searchRegex}, for an already checked (or internally built) pattern. */
function scanTexts(store: LcmStore, pattern: string, sessions: SessionScope, window: SearchWindow, budgetMs: number, kinds: SearchKinds): SearchResult {
  const deadline = Date.now() + budgetMs;
  const since = window.since ?? 0;
  const before = window.before ?? FAR_FUTURE;
  const out: SearchResult = { messages: [], summaries: [], truncated: false };
  if (kinds.summaries) {
    const filter = sessionFilter("s", sessions);
    const rows = prepared(store, `SELECT s.id FROM lcm_summaries s WHERE ${filter.sql} AND s.created_at >= ? AND s.created_at < ? ORDER BY s.rowid DESC`).all(...filter.params, since, before) as { id: string }[];
    const all = rows.map((r) => store.getSummary(r.id)!);
    const found = matchInSandbox(pattern, all.map((s) => s.content), window.limit, deadline - Date.now());
    if (found === "timeout") return { ...out, truncated: true };
    out.summaries = found.map((i) => all[i]!);
  }
  if (!kinds.messages) return out;
  const filter = sessionFilter("m", sessions);
  const page = prepared(store, `SELECT m.id FROM lcm_messages m WHERE ${filter.sql} AND m.id < ? AND m.created_at >= ? AND m.created_at < ? ORDER BY m.id DESC LIMIT ?`);
  let cursor = Number.MAX_SAFE_INTEGER;
  while (out.messages.length < window.limit) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { ...out, truncated: true };
    const ids = (page.all(...filter.params, cursor, since, before, SCAN_BATCH) as { id: number }[]).map((r) => r.id);
    if (ids.length === 0) break;
    cursor = ids[ids.length - 1]!;
    const batch = store.getMessages(ids.map((id) => `msg_${id}`)).sort((a, b) => b.rowId - a.rowId);
    const found = matchInSandbox(pattern, batch.map((m) => searchableText(m.message)), window.limit - out.messages.length, remaining);
    if (found === "timeout") return { ...out, truncated: true };
    out.messages.push(...found.map((i) => batch[i]!));
  }
  return out;
}
