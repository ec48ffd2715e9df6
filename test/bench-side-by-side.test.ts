/** The bench's side-by-side ratio: one pair of medians, or the median of paired rounds with their range. */
import { describe, expect, it } from "vitest";
import { median, ratioCell, type SideBySideRow } from "../bench/sideBySide.js";

const row = (oursMs: number, upstreamMs: number | undefined | null, pairedRatios?: number[]): SideBySideRow => ({
  kind: "warm",
  measure: "compress(), fresh data",
  data: "t",
  oursMs,
  upstreamMs,
  ...(pairedRatios ? { pairedRatios } : {}),
});

describe("the bench's ratio cell", () => {
  it("divides upstream's median by ours when there are no paired rounds", () => {
    expect(ratioCell(row(5, 20))).toBe("4.0x");
    expect(ratioCell(row(20, 5))).toBe("0.3x (slower)");
  });

  it("shows the median of paired rounds' ratios and their range, not the ratio of the medians", () => {
    // medians 5 and 20 would say 4.0x; the rounds paired say 3.0x, 3.5x and 6.0x
    expect(ratioCell(row(5, 20, [6, 3, 3.5]))).toBe("3.5x (3.0–6.0x over 3 rounds)");
  });

  it("says why there is no ratio", () => {
    expect(ratioCell(row(5, undefined))).toBe("– (anchor unavailable)");
    expect(ratioCell(row(5, null))).toBe("– (no upstream counterpart)");
  });

  it("takes the middle value, or the mean of the two middle ones", () => {
    expect([median([3, 1, 2]), median([4, 1, 3, 2])]).toEqual([2, 2.5]);
  });
});
