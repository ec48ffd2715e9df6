/**
 * Any user text as a PostgreSQL search that always runs: the query is read as the SQLite store's FTS5
 * syntax is (words, "quoted phrases", prefix*, OR between terms, NOT before one, AND and NEAR ignored;
 * text that is not such syntax is its words), capped at `MAX_QUERY_TERMS` distinct terms. A term matches
 * a row whose text holds it as a case-insensitive substring (`ILIKE`, served by the pg_trgm index, so
 * CJK text without spaces is found) or whose `tsvector` holds it as a phrase (so "cargo llvm" finds
 * "cargo-llvm-cov"). Nothing of the user's text is ever put into SQL: every term is a parameter.
 */
import { MAX_QUERY_TERMS } from "@context-engine/core/store";

/** One searched term. */
export interface SearchTerm {
  /** The words as written (quotes and a trailing `*` removed). */
  text: string;
  /** Written after NOT: rows holding it are left out. */
  negated: boolean;
}

/** A user query as terms. */
export interface TermQuery {
  terms: SearchTerm[];
  /** True when the query used `OR`: any positive term matches instead of all of them. */
  anyOf: boolean;
  /** Distinct terms the text held (more than were searched when it held over `MAX_QUERY_TERMS`). */
  given: number;
}

const WORDY = /[\p{L}\p{N}]/u;
const OPERATORS = new Set(["AND", "NEAR"]);

/** Chunks of `query`: "quoted phrases" (an unclosed quote runs to the end) and whitespace-separated words. */
function chunks(query: string): { text: string; quoted: boolean }[] {
  const out: { text: string; quoted: boolean }[] = [];
  const pattern = /"([^"]*)("|$)|[^\s"]+/g;
  for (let m = pattern.exec(query); m !== null; m = pattern.exec(query)) {
    if (m[0].startsWith('"')) out.push({ text: m[1]!, quoted: true });
    else out.push({ text: m[0], quoted: false });
  }
  return out;
}

/** The terms of `query` (see the module comment). */
export function parseTermQuery(query: string): TermQuery {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  let anyOf = false;
  let negateNext = false;
  for (const chunk of chunks(query)) {
    if (!chunk.quoted) {
      if (chunk.text === "OR") {
        anyOf = true;
        continue;
      }
      if (chunk.text === "NOT") {
        negateNext = true;
        continue;
      }
      if (OPERATORS.has(chunk.text)) continue;
    }
    const text = (chunk.quoted ? chunk.text : chunk.text.replace(/^[(]+|[)]+$/g, "").replace(/\*+$/, "")).trim().replace(/\s+/g, " ");
    const negated = negateNext;
    negateNext = false;
    if (!WORDY.test(text)) continue;
    const key = `${negated ? "-" : "+"}${text.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push({ text, negated });
  }
  return { terms: terms.slice(0, MAX_QUERY_TERMS), anyOf, given: terms.length };
}

/**
 * A message's searchable text as PostgreSQL can store it: TEXT cannot hold NUL, so each becomes a space
 * (the message itself is stored as its JSON, where NUL is escaped, and comes back verbatim).
 */
export function storableSearchText(text: string): string {
  return text.includes("\u0000") ? text.replace(/\u0000/g, " ") : text;
}

/** `text` as an ILIKE pattern matching it anywhere (`%`, `_` and `\` escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL condition of `query` over the columns `textColumn` and `tsvColumn`, its parameters numbered
 * from `firstParam`; undefined when no positive term is left (the search finds nothing).
 */
export function termCondition(query: TermQuery, textColumn: string, tsvColumn: string, firstParam: number): { sql: string; params: string[] } | undefined {
  const params: string[] = [];
  const one = (term: SearchTerm) => {
    params.push(containsPattern(term.text), term.text);
    const n = firstParam + params.length - 2;
    return `(${textColumn} ILIKE $${n} OR ${tsvColumn} @@ phraseto_tsquery('simple', $${n + 1}))`;
  };
  const positive = query.terms.filter((t) => !t.negated).map(one);
  if (positive.length === 0) return undefined;
  const negative = query.terms.filter((t) => t.negated).map((t) => `NOT ${one(t)}`);
  const matched = positive.length === 1 ? positive[0]! : `(${positive.join(query.anyOf ? " OR " : " AND ")})`;
  return { sql: [matched, ...negative].join(" AND "), params };
}

/** The text a ranking `tsquery` is made from (`websearch_to_tsquery`, which accepts any text): the positive terms, any of them. */
export function rankingText(query: TermQuery): string {
  return query.terms
    .filter((t) => !t.negated)
    .map((t) => `"${t.text.replace(/"/g, " ")}"`)
    .join(" or ");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A passage of `text` around the first match of a positive term, every match in it wrapped in `>>>`
 * and `<<<`, cut at about `width` characters with `…` where it was cut (the SQLite store's snippet).
 */
export function snippet(text: string, query: TermQuery, width = 160): string {
  const needles = query.terms.filter((t) => !t.negated).flatMap((t) => [t.text, ...t.text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1)]);
  const unique = [...new Set(needles.map((n) => n.toLowerCase()))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return text.slice(0, width);
  const finder = new RegExp(unique.map(escapeRegExp).join("|"), "giu");
  const first = finder.exec(text);
  const at = first?.index ?? 0;
  let start = Math.max(0, at - Math.floor(width / 3));
  let end = Math.min(text.length, start + width);
  if (start > 0) start = Math.max(0, text.lastIndexOf(" ", start) + 1 || start);
  if (end < text.length) end = Math.max(at + (first?.[0].length ?? 0), text.indexOf(" ", end) === -1 ? text.length : text.indexOf(" ", end));
  const passage = text.slice(start, end).replace(finder, (m) => `>>>${m}<<<`);
  return `${start > 0 ? "…" : ""}${passage}${end < text.length ? "…" : ""}`;
}
