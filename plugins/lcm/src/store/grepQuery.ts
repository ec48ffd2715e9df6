/**
 * The full-text query language of `lcm_grep`: words (all of them must match), `"exact phrases"`, a
 * trailing `*` for a prefix, and `|` between terms to match any of them. `AND`, `OR`, `NOT` and `NEAR`
 * are plain words, as in hermes-lcm (`alpha OR beta` needs all three words). Parsing never fails; a
 * query without a letter or digit has no terms. At most {@link MAX_QUERY_TERMS} distinct terms are kept.
 */
import { literalFtsQuery, MAX_QUERY_TERMS, type QueryTerms } from "../core.js";

/** One term of a query. */
export interface GrepTerm {
  /** The term as searched: a word (with its trailing `*` for a prefix) or a phrase's words. */
  text: string;
  /** True for a double-quoted phrase: its words must appear side by side. */
  phrase: boolean;
}

/** A parsed query. */
export interface GrepQuery {
  /** The distinct terms in the order given, at most {@link MAX_QUERY_TERMS}. */
  terms: GrepTerm[];
  /** True when `|` joined terms: any of them matches instead of all. */
  anyOf: boolean;
  /** Distinct terms the text held (more than `terms.length` when some were cut). */
  given: number;
}

const WORDY = /[\p{L}\p{N}]/u;
/** A quoted phrase, a `|`, or a run of other non-space characters. */
const TOKENS = /"([^"]*)"|(\|)|([^\s"|]+)/g;

/** Parses an `lcm_grep` full-text pattern (see the module comment); every lcm store reads its patterns with it. */
export function parseGrepQuery(pattern: string): GrepQuery {
  const seen = new Set<string>();
  const terms: GrepTerm[] = [];
  let anyOf = false;
  const add = (text: string, phrase: boolean) => {
    if (!WORDY.test(text)) return;
    const key = `${phrase ? "p" : "w"}:${text.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (terms.length < MAX_QUERY_TERMS) terms.push({ text, phrase });
  };
  for (const match of pattern.matchAll(TOKENS)) {
    const [, quoted, bar, word] = match;
    if (bar !== undefined) anyOf = true;
    else if (quoted !== undefined) add(quoted.trim().replace(/\s+/g, " "), true);
    else if (word !== undefined) add(word, false);
  }
  return { terms, anyOf, given: seen.size };
}

/** The query in core's shape, for its helpers (the FTS5 expression, the note about cut terms). */
export function asQueryTerms(query: GrepQuery): QueryTerms {
  return { terms: query.terms.map((t) => t.text), given: query.given, anyOf: query.anyOf };
}

/**
 * The FTS5 expression of `query` over the word index: each term a quoted phrase (a word's trailing `*`
 * kept as prefix search; a phrase's words side by side), joined by OR or side by side (all required).
 */
export function wordIndexQuery(query: GrepQuery): string {
  return literalFtsQuery(asQueryTerms(query));
}

/** A term's text without a prefix star, lower-cased: what a substring search looks for. */
export function termNeedle(term: GrepTerm): string {
  return (term.phrase ? term.text : term.text.replace(/\*+$/, "")).toLowerCase();
}
