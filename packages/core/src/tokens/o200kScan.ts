/**
 * The o200k pre-tokenizer for ASCII text, written out by hand: where a piece and the characters that
 * end it are ASCII, {@link asciiPieceEnd} finds the same piece end as the split regex (checked piece by
 * piece against it in the tests) without creating a match or a substring. Anything else — a non-ASCII
 * character inside a piece or deciding where it ends — is left to the regex.
 *
 * The regex, alternative by alternative, as it behaves on ASCII (first alternative that matches wins):
 * 1. `P? U* L+ C?` and 2. `P? U+ L* C?` — an optional char that is not CR, LF, letter or digit (P), an
 *    uppercase run and a lowercase run (at least one letter), then an optional contraction (C: 's 'd 'm
 *    't 'll 've 're, any case);
 * 3. one to three digits;
 * 4. an optional space, a run of punctuation/symbols, then any CR/LF/slashes;
 * 5. whitespace up to and including its last CR/LF;
 * 6. whitespace not followed by a non-space (a run before a word leaves its last space to the word);
 * 7. whitespace.
 */

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** CR and LF. */
const NEWLINE = 4;
/** The space character (alternative 4 allows one before punctuation). */
const SPACE = 5;
/** Tab, vertical tab, form feed: whitespace other than space and newlines. */
const BLANK = 6;
/** Punctuation, symbols and control characters: not whitespace, letter or digit. */
const OTHER = 7;
/** Not ASCII: the regex decides. */
const UNKNOWN = 0;

/** Class of each ASCII char code. */
const ASCII_CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 0x41 && code <= 0x5a) return UPPER;
  if (code >= 0x61 && code <= 0x7a) return LOWER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  if (code === 0x0a || code === 0x0d) return NEWLINE;
  if (code === 0x20) return SPACE;
  if (code === 0x09 || code === 0x0b || code === 0x0c) return BLANK;
  return OTHER;
});

/** Class of `text[i]`; the end of the text reads as OTHER-free "nothing" (-1). */
function classAt(text: string, i: number): number {
  if (i >= text.length) return -1;
  const code = text.charCodeAt(i);
  return code < 0x80 ? ASCII_CLASS[code]! : UNKNOWN;
}

/** Length of a contraction (`'s`, `'ll`, …, any case) at `i`, else 0. */
function contractionAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return 0; // '
  const a = text.charCodeAt(i + 1) | 0x20; // lowercased (NaN | 0x20 is 0x20: no match)
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return 2; // s d m t
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || ((a === 0x76 || a === 0x72) && b === 0x65)) return 3; // ll ve re
  return 0;
}

/**
 * End (exclusive) of the o200k pre-tokenizer piece starting at `start`, when the piece and every char
 * that decides its end are ASCII; -1 when the regex must decide. The piece is then plain ASCII, so its
 * UTF-8 bytes are its chars.
 */
export function asciiPieceEnd(text: string, start: number): number {
  const first = classAt(text, start);
  if (first === UNKNOWN) return -1;
  // Alternatives 1 and 2: an optional leading non-letter non-digit non-newline, then letters.
  const lettersFrom = first === SPACE || first === BLANK || first === OTHER ? start + 1 : start;
  let at = classAt(text, lettersFrom);
  if (at === UNKNOWN) return -1;
  if (at === UPPER || at === LOWER) {
    let end = lettersFrom;
    while (at === UPPER) at = classAt(text, ++end);
    while (at === LOWER) at = classAt(text, ++end);
    if (at === UNKNOWN) return -1; // a non-ASCII letter or mark could continue the run
    return end + contractionAt(text, end);
  }
  if (first === DIGIT) {
    let end = start + 1;
    for (; end < start + 3; end++) {
      const next = classAt(text, end);
      if (next === UNKNOWN) return -1; // a non-ASCII digit would join
      if (next !== DIGIT) break;
    }
    return end;
  }
  // Alternative 4: an optional space, punctuation, then CR/LF/slashes.
  const symbolsFrom = first === SPACE ? start + 1 : start;
  at = classAt(text, symbolsFrom);
  if (at === UNKNOWN) return -1;
  if (at === OTHER) {
    let end = symbolsFrom;
    while (at === OTHER) at = classAt(text, ++end);
    if (at === UNKNOWN) return -1;
    for (let code = text.charCodeAt(end); code === 0x0a || code === 0x0d || code === 0x2f; code = text.charCodeAt(++end));
    return end;
  }
  // Alternatives 5–7: whitespace (first is SPACE, BLANK or NEWLINE here).
  let end = start;
  let lastNewline = -1;
  at = first;
  while (at === SPACE || at === BLANK || at === NEWLINE) {
    if (at === NEWLINE) lastNewline = end;
    at = classAt(text, ++end);
  }
  if (at === UNKNOWN) return -1; // non-ASCII whitespace would extend the run
  if (lastNewline !== -1) return lastNewline + 1;
  if (end === text.length || end - start < 2) return end;
  return end - 1;
}
