/**
 * `search` of the PostgreSQL session store: active and archived turns (archived ones say so), any user
 * text accepted (see search/query.ts), best match first (`ts_rank` over the tsvector, newest first
 * among equals), each hit with a snippet of its text.
 */
import type { SearchHit, SearchOptions } from "@context-engine/core";
import { parseSearchRequest } from "@context-engine/core/store";
import { num, type Queryable } from "../connection.js";
import { parseTermQuery, rankingText, snippet, termCondition } from "../search/query.js";

interface HitRow {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  active: boolean;
  compacted: boolean;
  compaction_id: string | null;
  created_at: string;
  text: string;
}

/** Runs one search over `<schema>.messages`. */
export async function searchMessages(client: Queryable, schema: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
  const { sessionId, includeArchived, limit, scope } = parseSearchRequest(query, options);
  const terms = parseTermQuery(query);
  const condition = termCondition(terms, "m.text", "m.tsv", 5);
  if (condition === undefined) return [];
  const rows = (
    await client.query<HitRow>(
      `SELECT m.id, m.session_id, m.seq, m.role, m.active, m.compacted, m.compaction_id, m.created_at, m.text
       FROM ${schema}.messages m
       WHERE ($1::text IS NULL OR m.session_id = $1) AND ($2 OR m.active) AND ${condition.sql}
         AND ($${5 + condition.params.length}::text IS NULL OR m.scope = $${5 + condition.params.length})
       ORDER BY ts_rank(m.tsv, websearch_to_tsquery('simple', $3)) DESC, m.id DESC
       LIMIT $4`,
      [sessionId ?? null, includeArchived, rankingText(terms), limit, ...condition.params, scope ?? null],
    )
  ).rows;
  return rows.map((r) => ({
    messageId: num(r.id),
    sessionId: r.session_id,
    seq: r.seq,
    role: r.role,
    snippet: snippet(r.text, terms),
    active: r.active,
    compacted: r.compacted,
    archived: !r.active,
    compactionId: num(r.compaction_id),
    createdAt: num(r.created_at),
  }));
}
