/**
 * Many substrings looked for in one long text at once: one pass over the text finds every needle that
 * occurs in it, where a `includes()` per needle would read the whole text once per missing needle (a
 * summary's few hundred facts against the megabytes of turns it compacts). Pure.
 */

/** Bits of the two-character prefilter: positions whose first two characters no needle starts with are skipped. */
const PREFILTER_BITS = 16;
const PREFILTER_MASK = (1 << PREFILTER_BITS) - 1;

/** A hash of the two characters at `text[i]`, `text[i + 1]` into the prefilter's range. */
function pairHash(text: string, i: number): number {
  return (Math.imul(text.charCodeAt(i), 0x9e3779b1) ^ text.charCodeAt(i + 1)) & PREFILTER_MASK;
}

/** The needles that occur in `haystack` (exactly those for which `haystack.includes(needle)` is true). */
export function occurringNeedles(haystack: string, needles: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const byPair = new Map<number, string[]>();
  const prefilter = new Uint8Array(1 << PREFILTER_BITS);
  let waiting = 0;
  for (const needle of new Set(needles)) {
    if (needle.length < 2) {
      if (haystack.includes(needle)) found.add(needle);
      continue;
    }
    const hash = pairHash(needle, 0);
    prefilter[hash] = 1;
    const bucket = byPair.get(hash);
    if (bucket === undefined) byPair.set(hash, [needle]);
    else bucket.push(needle);
    waiting += 1;
  }
  for (let i = 0; waiting > 0 && i < haystack.length - 1; i++) {
    const hash = pairHash(haystack, i);
    if (prefilter[hash] === 0) continue;
    const bucket = byPair.get(hash)!;
    for (let j = bucket.length - 1; j >= 0; j--) {
      const needle = bucket[j]!;
      if (!haystack.startsWith(needle, i)) continue;
      found.add(needle);
      bucket[j] = bucket[bucket.length - 1]!; // found once is enough: no longer looked for
      bucket.pop();
      waiting -= 1;
    }
    if (bucket.length === 0) prefilter[hash] = 0;
  }
  return found;
}
