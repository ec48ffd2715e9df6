import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { encodeO200kRanks, O200K_RANKS_URL, O200kRanks, o200kRanks } from "../../src/tokens/o200kRanks.js";

const vocabulary = (createRequire(import.meta.url)("gpt-tokenizer/bpeRanks/o200k_base") as { default: (string | number[])[] }).default;
const tokenBytes = vocabulary.map((token) => (typeof token === "string" ? Buffer.from(token, "utf8") : Buffer.from(token)));

describe("the compact o200k rank file", () => {
  it("is exactly what gpt-tokenizer's o200k_base vocabulary encodes to", () => {
    expect(Buffer.compare(readFileSync(O200K_RANKS_URL), encodeO200kRanks(tokenBytes))).toBe(0);
  });

  it("gives every vocabulary token its rank and no rank to bytes that are not a token", () => {
    const ranks = o200kRanks();
    expect(ranks.size).toBe(vocabulary.length);
    tokenBytes.forEach((bytes, rank) => {
      const text = bytes.toString("latin1");
      if (ranks.rank(`<${text}>`, 1, text.length + 1) !== rank) expect.fail(`token ${rank} (${JSON.stringify(text)}) looked up as ${ranks.rank(text, 0, text.length)}`);
    });
    expect(ranks.rank("zzqxjzzqxj", 0, 10)).toBe(-1);
    expect(ranks.pairRank("zzqxjzzqxj", 0, 10)).toBe(Infinity);
  });

  it("refuses a file without its header or of the wrong length, naming the file", () => {
    expect(() => new O200kRanks(Buffer.from("not a rank file"))).toThrow(/o200k_base\.ranks: not an o200k rank file/);
    const truncated = readFileSync(O200K_RANKS_URL).subarray(0, readFileSync(O200K_RANKS_URL).length - 1000);
    expect(() => new O200kRanks(truncated)).toThrow(/o200k_base\.ranks: [0-9]+ bytes, expected/);
  });
});
