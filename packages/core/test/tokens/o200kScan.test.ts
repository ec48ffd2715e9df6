/**
 * The hand-written ASCII pre-tokenizer finds exactly the pieces of o200k's split regex: wherever it
 * answers, its piece end is the regex's; it leaves non-ASCII decisions to the regex, and answers for
 * every piece of ASCII text. The short-piece table keeps every short ASCII string apart.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { o200kTables } from "../../src/tokens/o200k.js";
import { asciiPieceEnd } from "../../src/tokens/o200kScan.js";
import { ShortPieceTable } from "../../src/tokens/shortPieceTable.js";

/** [start, end) of every piece of `text` under the split regex. */
function regexPieces(text: string): [number, number][] {
  const split = new RegExp(o200kTables().split.source, "gu");
  return [...text.matchAll(split)].map((m) => [m.index, m.index + m[0].length]);
}

/** Pieces where the scanner answered with an end different from the regex's. */
function disagreements(text: string): string[] {
  return regexPieces(text)
    .map(([start, end]) => ({ start, end, scanned: asciiPieceEnd(text, start) }))
    .filter(({ end, scanned }) => scanned !== -1 && scanned !== end)
    .map(({ start, end, scanned }) => `${JSON.stringify(text)} at ${start}: regex ${end}, scan ${scanned}`);
}

const EDGE_CASES = [
  "don't DON'T I'LL we've They'Re it'x a'",
  "HTTPServer parseJSON2 getURLs aB Ab ABC",
  "  foo\t\tbar \n\n  baz\r\n\r\n\tqux   ",
  "x  \n  y \n\t z",
  " 1 12 123 1234 12345 a1b22c333",
  "a+b/c//d\n/e ((x)) ' '' \"q\" ;; ->",
  "\u0000\u0001\u001f\u007f ctrl\u0008chars",
  "end with spaces   ",
  " ",
  "\n",
  "'s",
  "path/to/file.ts:12:3: error TS2322",
];

describe("asciiPieceEnd (o200k pre-tokenizer for ASCII)", () => {
  it.each(EDGE_CASES)("ends every piece of %j where the split regex does", (text) => {
    expect(disagreements(text)).toEqual([]);
  });

  it("answers for every piece of ASCII text (the fast path is taken)", () => {
    for (const text of EDGE_CASES) {
      for (const [start] of regexPieces(text)) expect(asciiPieceEnd(text, start)).not.toBe(-1);
    }
  });

  it("leaves a piece to the regex when a non-ASCII char could continue or start it", () => {
    expect(asciiPieceEnd("café", 0)).toBe(-1); // é is a letter
    expect(asciiPieceEnd("12\u0663", 0)).toBe(-1); // Arabic-Indic digit three
    expect(asciiPieceEnd("  \u00a0x", 0)).toBe(-1); // no-break space is whitespace
    expect(asciiPieceEnd("中文", 0)).toBe(-1);
    expect(asciiPieceEnd("a\u0301", 0)).toBe(-1); // combining mark
  });

  it("agrees with the split regex on random text of ASCII edge chars and non-ASCII neighbours", () => {
    const alphabet = fc.constantFrom(
      ..."aZqQ09 _-+/=\n\r\t\u000b\f.,;'\"()<>|sStTdDmMlLvVeErR".split(""),
      "é", "É", "中", "\u0301", "\u00a0", "\u2028", "\u0663", "²", "🎉", "\u0000", "\u007f", "'ll", "'VE", "  ", "\r\n",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }), (chars) => {
        expect(disagreements(chars.join(""))).toEqual([]);
      }),
      { numRuns: 3_000 },
    );
  });

  it("agrees with the split regex on random printable ASCII", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 200 }), (text) => {
        expect(disagreements(text)).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("ShortPieceTable", () => {
  it("keeps strings that differ only by NUL chars or order apart", () => {
    const table = new ShortPieceTable();
    const pieces = ["a", "a\u0000", "\u0000a", "ab", "ba", "\u0000", "\u0000\u0000", "abcdefg", "abcdefh"];
    pieces.forEach((piece, i) => table.set(piece, 0, piece.length, i + 1));
    for (const [i, piece] of pieces.entries()) expect(table.get(piece, 0, piece.length)).toBe(i + 1);
    expect(table.get("abc", 0, 3)).toBe(-1);
    expect(table.size).toBe(pieces.length);
  });

  it("reads a key from the middle of a longer text", () => {
    const table = new ShortPieceTable();
    table.set("word", 0, 4, 1);
    expect(table.get("a word here", 2, 6)).toBe(1);
    expect(table.get("a words here", 2, 7)).toBe(-1);
  });
});
