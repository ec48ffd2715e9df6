/** `lcm_grep`: search the stored history (compacted turns included) of this session, its conversation or all sessions. */
import { queryCutNote } from "../core.js";
import type { z } from "../deps.js";
import { searchableText, snippetAround } from "../messageText.js";
import { asQueryTerms, parseGrepQuery, termNeedle } from "../store/grepQuery.js";
import type { StoredMessage, SummaryRecord } from "../store/LcmStore.js";
import { historySearchOf } from "../store/historySearch.js";
import { SearchError, type MatchedBy } from "../store/search.js";
import { ContextCoverage } from "./coverage.js";
import { parseTime } from "./result.js";
import type { GrepArgsSchema } from "./schemas.js";
import { resolveSessions } from "./sessionScope.js";
import type { ToolContext } from "./types.js";

/** One `lcm_grep` match. */
export interface GrepMatch {
  id: string;
  type: "message" | "summary";
  /** The session the record belongs to (only when the search reached beyond the current session). */
  session?: string;
  role: string | null;
  seq: number | null;
  covers: [number, number] | null;
  created_at: string;
  snippet: string;
  /** The summary in its session's current context that holds this record; null when it is itself in context. */
  coveredBy: string | null;
}

function regexSnippet(text: string, pattern: string): string {
  const match = new RegExp(pattern, "iu").exec(text);
  return match ? snippetAround(text, [match[0]]) : snippetAround(text, []);
}

/** Runs `lcm_grep` with validated arguments. */
export async function runGrep(ctx: ToolContext, args: z.output<typeof GrepArgsSchema>): Promise<Record<string, unknown>> {
  const window = { since: parseTime(args.since, "since"), before: parseTime(args.before, "before"), limit: args.limit };
  const kinds = { messages: args.scope !== "summaries", summaries: args.scope !== "messages" };
  const sessions = await resolveSessions(ctx, args.sessions);
  const search = historySearchOf(ctx.store);
  let found: { messages: StoredMessage[]; summaries: SummaryRecord[]; truncated: boolean };
  let matchedBy: MatchedBy | undefined;
  const query = args.mode === "regex" ? undefined : parseGrepQuery(args.pattern);
  if (query === undefined) {
    found = await search.regex(sessions, args.pattern, window, ctx.regexBudgetMs, kinds);
  } else {
    if (query.terms.length === 0) throw new SearchError("invalid_pattern", `pattern ${JSON.stringify(args.pattern)} has no words to search for`);
    const result = await search.fullText({ pattern: args.pattern, query, sessions, window, kinds, sort: args.sort, budgetMs: ctx.regexBudgetMs });
    ({ matchedBy, ...found } = result);
  }
  // the context of each session a record was found in, read once
  const sessionsFound = new Set([...found.messages.map((m) => m.session), ...found.summaries.map((s) => s.session)]);
  const coverages = new Map(await Promise.all([...sessionsFound].map(async (session) => [session, await ContextCoverage.load(ctx.store, session)] as const)));
  const coverage = (session: string) => coverages.get(session)!;
  const needles = query ? query.terms.map(termNeedle) : [];
  const snippet = (text: string) => (query ? snippetAround(text, needles) : regexSnippet(text, args.pattern));
  const beyond = args.sessions !== "current";
  const matches: (GrepMatch & { at: number })[] = [
    ...found.messages.map((m) => ({
      id: m.id,
      type: "message" as const,
      ...(beyond ? { session: m.session } : {}),
      role: m.role,
      seq: m.seq,
      covers: null,
      created_at: new Date(m.createdAt).toISOString(),
      snippet: snippet(searchableText(m.message)),
      coveredBy: coverage(m.session).coveredBy(m.id, m.seq),
      at: m.createdAt,
    })),
    ...found.summaries.map((s) => ({
      id: s.id,
      type: "summary" as const,
      ...(beyond ? { session: s.session } : {}),
      role: null,
      seq: null,
      covers: [s.seqStart, s.seqEnd] as [number, number],
      created_at: new Date(s.createdAt).toISOString(),
      snippet: snippet(s.content),
      coveredBy: coverage(s.session).coveredBy(s.id, s.seqStart, s.seqEnd),
      at: s.createdAt,
    })),
  ];
  // relevance: the two ranked lists interleaved, best of each first; recency: newest first
  const ordered = args.sort === "relevance" && query ? interleave(matches.filter((m) => m.type === "message"), matches.filter((m) => m.type === "summary")) : matches.sort((a, b) => b.at - a.at || (b.seq ?? b.covers![1]) - (a.seq ?? a.covers![1]));
  const kept = ordered.slice(0, args.limit).map(({ at: _at, ...rest }) => rest);
  const note = query ? queryCutNote(asQueryTerms(query)) : undefined;
  const cut = note === undefined || !query ? {} : { query_cut: { words_given: query.given, words_searched: query.terms.length, note } };
  return {
    pattern: args.pattern,
    mode: args.mode,
    scope: args.scope,
    sessions: args.sessions,
    sort: args.sort,
    ...(matchedBy ? { matched_by: matchedBy } : {}),
    count: kept.length,
    truncated: found.truncated,
    ...cut,
    matches: kept,
  };
}

/** `a` and `b` taken in turns, each in its own order. */
function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]!);
    if (i < b.length) out.push(b[i]!);
  }
  return out;
}
