/**
 * Relevance ranking of search hits, computed on their texts: BM25 over the query's terms counted as
 * case-insensitive substrings (so it ranks word, phrase and CJK matches alike), the hits themselves
 * serving as the collection. A pure function; ties keep the input order (newest first).
 */
import { termNeedle, type GrepQuery } from "./grepQuery.js";

const K1 = 1.2;
const B = 0.75;

/** Non-overlapping occurrences of `needle` in `haystack` (both lower-cased). */
function occurrences(haystack: string, needle: string): number {
  if (needle === "") return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** `hits` ordered by BM25 relevance of `textOf(hit)` to `query`, most relevant first. */
export function rankByRelevance<T>(hits: readonly T[], textOf: (hit: T) => string, query: GrepQuery): T[] {
  if (hits.length < 2) return [...hits];
  const needles = query.terms.map(termNeedle);
  const texts = hits.map((hit) => textOf(hit).toLowerCase());
  const counts = texts.map((text) => needles.map((needle) => occurrences(text, needle)));
  const averageLength = texts.reduce((n, t) => n + t.length, 0) / texts.length || 1;
  const idf = needles.map((_, j) => {
    const holding = counts.filter((row) => row[j]! > 0).length;
    return Math.log(1 + (texts.length - holding + 0.5) / (holding + 0.5));
  });
  const scores = texts.map((text, i) =>
    needles.reduce((sum, _, j) => {
      const tf = counts[i]![j]!;
      return sum + (idf[j]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * text.length) / averageLength));
    }, 0),
  );
  return hits.map((hit, i) => ({ hit, i })).sort((a, b) => scores[b.i]! - scores[a.i]! || a.i - b.i).map((x) => x.hit);
}
