/** `lcm_grep`: search the whole stored history of the session, compacted turns included. */
import { queryCutNote } from "../core.js";
import { searchableText, snippetAround } from "../messageText.js";
import type { StoredMessage, SummaryRecord } from "../store/LcmStore.js";
import { fullTextTerms, searchMessagesFullText, searchRegex, searchSummariesFullText } from "../store/search.js";
import { ContextCoverage } from "./coverage.js";
import { parseTime } from "./result.js";
import type { z } from "../deps.js";
import type { GrepArgsSchema } from "./schemas.js";
import type { ToolContext } from "./types.js";

/** One `lcm_grep` match. */
export interface GrepMatch {
  id: string;
  type: "message" | "summary";
  role: string | null;
  seq: number | null;
  covers: [number, number] | null;
  created_at: string;
  snippet: string;
  /** The summary in the current context that holds this record; null when it is itself in context. */
  coveredBy: string | null;
}

function regexSnippet(text: string, pattern: string): string {
  const match = new RegExp(pattern, "iu").exec(text);
  return match ? snippetAround(text, [match[0]]) : snippetAround(text, []);
}

/** Runs `lcm_grep` with validated arguments. */
export function runGrep(ctx: ToolContext, args: z.output<typeof GrepArgsSchema>): Record<string, unknown> {
  const window = { since: parseTime(args.since, "since"), before: parseTime(args.before, "before"), limit: args.limit };
  const wantMessages = args.scope !== "summaries";
  const wantSummaries = args.scope !== "messages";
  let messages: StoredMessage[] = [];
  let summaries: SummaryRecord[] = [];
  let truncated = false;
  if (args.mode === "regex") {
    ({ messages, summaries, truncated } = searchRegex(ctx.store, ctx.session, args.pattern, window, ctx.regexBudgetMs, { messages: wantMessages, summaries: wantSummaries }));
  } else {
    if (wantMessages) messages = searchMessagesFullText(ctx.store, ctx.session, args.pattern, window).hits;
    if (wantSummaries) summaries = searchSummariesFullText(ctx.store, ctx.session, args.pattern, window).hits;
  }
  const coverage = new ContextCoverage(ctx.store, ctx.session);
  const query = args.mode === "regex" ? undefined : fullTextTerms(args.pattern);
  const terms = query ? query.terms.map((t) => t.replace(/\*+$/, "")) : [];
  const snippet = (text: string) => (args.mode === "regex" ? regexSnippet(text, args.pattern) : snippetAround(text, terms));
  const matches: (GrepMatch & { at: number })[] = [
    ...messages.map((m) => ({
      id: m.id,
      type: "message" as const,
      role: m.role,
      seq: m.seq,
      covers: null,
      created_at: new Date(m.createdAt).toISOString(),
      snippet: snippet(searchableText(m.message)),
      coveredBy: coverage.coveredBy(m.id, m.seq),
      at: m.createdAt,
    })),
    ...summaries.map((s) => ({
      id: s.id,
      type: "summary" as const,
      role: null,
      seq: null,
      covers: [s.seqStart, s.seqEnd] as [number, number],
      created_at: new Date(s.createdAt).toISOString(),
      snippet: snippet(s.content),
      coveredBy: coverage.coveredBy(s.id, s.seqStart, s.seqEnd),
      at: s.createdAt,
    })),
  ];
  matches.sort((a, b) => b.at - a.at || (b.seq ?? b.covers![1]) - (a.seq ?? a.covers![1]));
  const kept = matches.slice(0, args.limit).map(({ at: _at, ...rest }) => rest);
  const note = query ? queryCutNote(query) : undefined;
  const cut = note === undefined || !query ? {} : { query_cut: { words_given: query.given, words_searched: query.terms.length, note } };
  return { pattern: args.pattern, mode: args.mode, scope: args.scope, count: kept.length, truncated, ...cut, matches: kept };
}
