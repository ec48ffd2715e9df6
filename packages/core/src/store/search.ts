/**
 * `session_search` over the store: FTS5 over active AND archived turns (archived ones say so), best
 * match first, with a snippet. The query uses FTS5 syntax; text FTS5 cannot parse (`pg-dump`, `a|b`,
 * an unclosed quote) is searched for as its words, and a query with more than `MAX_QUERY_TERMS` (64)
 * words as its first distinct ones, so any text is accepted and the cost stays bounded.
 */
import type BetterSqlite3 from "better-sqlite3";
import { literalFtsQuery, MAX_QUERY_TERMS, queryCutNote, queryTerms } from "./ftsQuery.js";
import { parseSearchRequest } from "./kit.js";
import type { SearchHit, SearchOptions } from "./types.js";

export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "./kit.js";

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
FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
WHERE messages_fts MATCH @query
  AND (@sessionId IS NULL OR m.session_id = @sessionId)
  AND (@scope IS NULL OR s.scope = @scope)
  AND (@includeArchived = 1 OR m.active = 1)
ORDER BY bm25(messages_fts), m.id DESC
LIMIT @limit`;

/** True for the errors SQLite raises while parsing an FTS5 query (syntax, unknown column, bad string). */
function isQueryError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_ERROR" && /fts5|syntax error|no such column|unterminated|unknown special query/i.test(error.message);
}

/** How a user query is run: as FTS5 syntax, or as its words quoted (see {@link queryTerms}). */
export interface SearchQueryPlan {
  /** The query as written (FTS5 syntax), tried first; undefined when it has too many words to run as is. */
  raw: string | undefined;
  /** The words quoted: what runs when `raw` is undefined or FTS5 cannot parse it; undefined without words. */
  literal: string | undefined;
  /** Distinct words the query held, and how many of them the literal form searches. */
  termsGiven: number;
  termsUsed: number;
  /** Set when words were dropped. */
  note: string | undefined;
}

/**
 * The plan for `query`: FTS5 syntax is honoured while the query has at most `MAX_QUERY_TERMS` (64)
 * words, repeats included; a longer one runs as its first distinct words quoted (a word repeated 300
 * times is searched once), so its cost stays bounded.
 */
export function planSearchQuery(query: string): SearchQueryPlan {
  const q = queryTerms(query);
  const literal = q.terms.length > 0 ? literalFtsQuery(q) : undefined;
  const cut = q.given > q.terms.length;
  // Repeated words count too: FTS5 evaluates every term it is sent, so "alpha OR alpha OR …" (300
  // times) ran for seconds; past the cap the query runs as its distinct words.
  const tooLong = cut || wordCount(query) > MAX_QUERY_TERMS;
  return { raw: tooLong ? undefined : query, literal, termsGiven: q.given, termsUsed: q.terms.length, note: queryCutNote(q) };
}

const OPERATORS = new Set(["AND", "OR", "NOT", "NEAR"]);

/** Words of `query` as written, repeats included and operators left out. */
function wordCount(query: string): number {
  return query.split(/\s+/).filter((chunk) => chunk !== "" && !OPERATORS.has(chunk)).length;
}

/** Prepares the search statement once; the returned function runs one search. */
export function prepareSearch(db: BetterSqlite3.Database): (query: string, options?: SearchOptions) => SearchHit[] {
  const statement = db.prepare(SEARCH_SQL);
  return (query, options = {}) => {
    const { sessionId, includeArchived, limit, scope } = parseSearchRequest(query, options);
    const plan = planSearchQuery(query);
    const run = (match: string) => statement.all({ query: match, sessionId: sessionId ?? null, scope: scope ?? null, includeArchived: includeArchived ? 1 : 0, limit }) as HitRow[];
    let rows: HitRow[] = [];
    for (const match of [plan.raw, plan.literal]) {
      if (match === undefined) continue;
      try {
        rows = run(match);
        break;
      } catch (error) {
        // text FTS5 cannot parse is searched for as its words; a query with no words finds nothing
        if (!isQueryError(error)) throw error;
      }
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
