/**
 * User text as an FTS5 query that always parses and stays bounded: whitespace-separated words become
 * quoted phrases (a trailing `*` keeps prefix search), duplicates go, and at most
 * {@link MAX_QUERY_TERMS} distinct words are used. Words written `OR` (upper case) join the rest as
 * alternatives; `AND`, `NOT` and `NEAR` are read as operators and left out of the words.
 */

/** Most distinct words one search uses; the rest are dropped and the caller is told so. */
export const MAX_QUERY_TERMS = 64;

const OPERATORS = new Set(["AND", "OR", "NOT", "NEAR"]);
const WORDY = /[\p{L}\p{N}]/u;

/** The words of a user query, as searched. */
export interface QueryTerms {
  /** Distinct words in the order given (a trailing `*` kept), at most {@link MAX_QUERY_TERMS}. */
  terms: string[];
  /** Distinct words the text held. */
  given: number;
  /** True when the text used `OR`: any word matches instead of all of them. */
  anyOf: boolean;
}

/** The distinct searchable words of `text` (chunks holding a letter or digit), capped at {@link MAX_QUERY_TERMS}. */
export function queryTerms(text: string): QueryTerms {
  const seen = new Set<string>();
  const terms: string[] = [];
  let anyOf = false;
  for (const chunk of text.split(/\s+/)) {
    if (OPERATORS.has(chunk)) {
      anyOf ||= chunk === "OR";
      continue;
    }
    if (!WORDY.test(chunk)) continue;
    const key = chunk.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (terms.length < MAX_QUERY_TERMS) terms.push(chunk);
  }
  return { terms, given: seen.size, anyOf };
}

/** One word as an FTS5 phrase: double quotes doubled inside, a trailing `*` kept as prefix search. */
export function ftsPhrase(term: string): string {
  const prefix = term.endsWith("*");
  const body = (prefix ? term.replace(/\*+$/, "") : term).replace(/"/g, '""');
  return `"${body}"${prefix ? "*" : ""}`;
}

/** The FTS5 expression of `q`: its phrases joined by OR (any of them) or side by side (all of them). */
export function literalFtsQuery(q: QueryTerms): string {
  return q.terms.map(ftsPhrase).join(q.anyOf ? " OR " : " ");
}

/** A sentence for the user when `q` dropped words, or undefined when every word was searched. */
export function queryCutNote(q: QueryTerms): string | undefined {
  if (q.given <= q.terms.length) return undefined;
  return `the query has ${q.given} distinct words; only the first ${q.terms.length} were searched (at most ${MAX_QUERY_TERMS})`;
}
