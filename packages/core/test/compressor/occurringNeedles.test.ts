/**
 * The one-pass search of many facts in the turns finds exactly what a search per fact finds, and a
 * verbatim source answers the facts it prepared as it answers those it did not.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { occurringNeedles } from "../../src/compressor/occurringNeedles.js";
import { verbatimSource } from "../../src/compressor/verbatimSource.js";

/** Text over a few characters (non-Latin1 and the separator among them), so needles often occur, overlap and repeat. */
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom("a", "b", "/", " ", "é", "\u4e2d", "\u0000"), maxLength });

describe("occurringNeedles", () => {
  it("finds exactly the needles that includes() finds, empty, one-character, repeated and overlapping ones too", () => {
    fc.assert(
      fc.property(text(200), fc.array(text(6), { maxLength: 30 }), (haystack, needles) => {
        const expected = new Set(needles.filter((needle) => haystack.includes(needle)));
        expect(occurringNeedles(haystack, needles)).toEqual(expected);
      }),
    );
  });

  it("finds needles that share their first two characters and end at the last character", () => {
    expect(occurringNeedles("src/app.py and src/lib.rs", ["src/lib.rs", "src/app.py", "src/none", "rs", "s"])).toEqual(new Set(["src/lib.rs", "src/app.py", "rs", "s"]));
  });
});

describe("verbatimSource", () => {
  it("answers the facts it looked up together as it answers one fact at a time", () => {
    fc.assert(
      fc.property(fc.array(text(40), { maxLength: 5 }), fc.array(text(6), { maxLength: 20 }), (texts, facts) => {
        const prepared = verbatimSource(texts);
        prepared.prepare!(facts);
        const single = verbatimSource(texts);
        for (const fact of facts) expect(prepared.has(fact)).toBe(single.has(fact));
      }),
    );
  });
});
