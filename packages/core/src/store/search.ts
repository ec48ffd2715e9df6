/**
 * `session_search` over the store: FTS5 over active AND archived turns (archived ones say so), best
 * match first, with a snippet. The query uses FTS5 syntax; one FTS5 cannot parse becomes a
 * {@link SearchQueryError} that quotes it and says how to fix it.
 */
import type BetterSqlite3 from "better-sqlite3";
import { z } from "zod";
import { SearchQueryError, SessionStoreError, type SearchHit, type SearchOptions } from "./types.js";

/** Hits returned when `limit` is not given. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** The largest `limit` accepted. */
export const MAX_SEARCH_LIMIT = 500;

const SearchOptionsSchema = z.object({
  sessionId: z.string({ error: "must be a session id (string)" }).min(1, { error: "must not be empty" }).optional(),
  includeArchived: z.boolean({ error: "must be true or false" }).default(true),
  limit: z
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_SEARCH_LIMIT, { error: `must be at most ${MAX_SEARCH_LIMIT}` })
    .default(DEFAULT_SEARCH_LIMIT),
});

interface HitRow {
  id: number;
  session_id: string;
  seq: number;
  role: string;
  active: number;
  compacted: number;
  compaction_id: number | null;
  created_at: number;
  snippet: string;
}

const SEARCH_SQL = `
SELECT m.id, m.session_id, m.seq, m.role, m.active, m.compacted, m.compaction_id, m.created_at,
       snippet(messages_fts, 0, '>>>', '<<<', '…', 24) AS snippet
FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
WHERE messages_fts MATCH @query
  AND (@sessionId IS NULL OR m.session_id = @sessionId)
  AND (@includeArchived = 1 OR m.active = 1)
ORDER BY bm25(messages_fts), m.id DESC
LIMIT @limit`;

/** True for the errors SQLite raises while parsing an FTS5 query (syntax, unknown column, bad string). */
function isQueryError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_ERROR" && /fts5|syntax error|no such column|unterminated|unknown special query/i.test(error.message);
}

/** SQLite's FTS5 parse error, said in the words of someone who typed the query. */
export function explainFtsError(message: string): string {
  const column = /no such column: (\S+)/.exec(message);
  if (column) return `FTS5 read "${column[1]}" as a column name (a "-" or ":" outside double quotes is an operator)`;
  if (/syntax error near ""/.test(message)) return "FTS5 syntax error at the end of the query (an unfinished AND / OR / NOT, NEAR or parenthesis)";
  const near = /syntax error near "(.*)"/.exec(message);
  if (near) return `FTS5 syntax error near "${near[1]}"`;
  if (/unterminated string/.test(message)) return "a double-quoted phrase is not closed";
  if (/unknown special query/.test(message)) return "the query has no search term (a lone * is not one)";
  return message;
}

/** Prepares the search statement once; the returned function runs one search. */
export function prepareSearch(db: BetterSqlite3.Database): (query: string, options?: SearchOptions) => SearchHit[] {
  const statement = db.prepare(SEARCH_SQL);
  return (query, options = {}) => {
    if (typeof query !== "string" || query.trim() === "") throw new SearchQueryError(String(query), "the query is empty");
    const parsed = SearchOptionsSchema.safeParse(options);
    if (!parsed.success) throw new SessionStoreError(`Invalid search options:\n${z.prettifyError(parsed.error)}`);
    const { sessionId, includeArchived, limit } = parsed.data;
    let rows: HitRow[];
    try {
      rows = statement.all({ query, sessionId: sessionId ?? null, includeArchived: includeArchived ? 1 : 0, limit }) as HitRow[];
    } catch (error) {
      if (isQueryError(error)) throw new SearchQueryError(query, explainFtsError(error.message));
      throw error;
    }
    return rows.map((r) => ({
      messageId: r.id,
      sessionId: r.session_id,
      seq: r.seq,
      role: r.role,
      snippet: r.snippet,
      active: r.active === 1,
      compacted: r.compacted === 1,
      archived: r.active === 0,
      compactionId: r.compaction_id,
      createdAt: r.created_at,
    }));
  };
}
