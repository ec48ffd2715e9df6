import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LcmEngine } from "../src/engine.js";
import { makeEngine, parseResult, tempDir } from "./support.js";

describe("lcm_grep full text: any user text, bounded", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  beforeEach(async () => {
    dir = tempDir();
    engine = makeEngine(dir.dir, { contextLength: 1_000_000 });
    await engine.ingest([
      { role: "user", content: "run cargo-llvm-cov over the crate" },
      { role: "assistant", content: "pick a|b from the menu" },
      { role: "user", content: "pg_dump flamingo: done (nightly)" },
      { role: "assistant", content: 'she said "hello" to the *star* - twice' },
    ]);
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });

  const grep = async (pattern: string) => parseResult(await engine.handleToolCall("lcm_grep", { pattern, scope: "messages" }));
  const seqs = (result: { matches: { seq: number }[] }) => result.matches.map((m) => m.seq).sort();

  it("accepts punctuation, quotes, operators and parentheses without an FTS5 error", async () => {
    const inputs = ["cargo-llvm-cov", "a|b", '"unclosed phrase', '"hello"', "flamingo AND", "(flamingo", "pg_dump:", "*star*", "- twice", "NEAR(flamingo", "col:flamingo", "a OR", 'x"y*', "ʰ"];
    for (const pattern of inputs) {
      const result = await grep(pattern);
      expect(result.error, pattern).toBeUndefined();
      expect(result.count, pattern).toBeTypeOf("number");
    }
    expect(seqs(await grep("cargo-llvm-cov"))).toEqual([1]);
    expect(seqs(await grep("a|b"))).toEqual([2]);
    expect(seqs(await grep("(flamingo"))).toEqual([3]);
    expect(seqs(await grep('"hello"'))).toEqual([4]);
  });

  it("matches any word when the words are joined by |, all of them otherwise", async () => {
    expect(seqs(await grep("flamingo | menu"))).toEqual([2, 3]);
    expect(seqs(await grep("flamingo menu"))).toEqual([]);
  });

  it("reads AND, OR and NOT as plain words that must match too, not as operators", async () => {
    await engine.ingest([
      { role: "user", content: "alpha only here" },
      { role: "user", content: "alpha or zzz, either is fine" },
      { role: "user", content: "alpha and not beta" },
    ]);
    expect(seqs(await grep("alpha OR zzz"))).toEqual([6]);
    expect(seqs(await grep("alpha NOT beta"))).toEqual([7]);
    expect(seqs(await grep("alpha AND beta"))).toEqual([7]);
    expect(seqs(await grep("alpha | zzz"))).toEqual([5, 6, 7]);
  });

  it("searches an 800-word | query as its first 64 distinct words and says so in the result", async () => {
    const words = Array.from({ length: 800 }, (_, i) => `filler${i}`);
    words[3] = "flamingo";
    words[700] = "menu";
    const result = await grep([...words, ...words].join(" | "));
    expect(result.error).toBeUndefined();
    expect(result.query_cut).toMatchObject({ words_given: 800, words_searched: 64 });
    expect(result.query_cut.note).toMatch(/only the first 64 were searched/);
    // word 4 is searched, word 701 was cut
    expect(seqs(result)).toEqual([3]);
  });

  it("says nothing about cutting a query of few words", async () => {
    expect((await grep("flamingo flamingo")).query_cut).toBeUndefined();
  });
});
