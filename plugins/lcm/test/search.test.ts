import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { RoughTokenCounter } from "../src/core.js";
import type { LcmEngine } from "../src/engine.js";
import { LcmStore } from "../src/store/LcmStore.js";
import { LCM_SCHEMA_VERSION } from "../src/store/schema.js";
import { deterministicTruncation } from "../src/summarize.js";
import { makeEngine, parseResult, tempDir } from "./support.js";

describe("lcm_grep queries", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  const history: ChatMessage[] = [
    { role: "user", content: "the zeta report says zeta zeta zeta: zeta everywhere" },
    { role: "assistant", content: "fix the parser first" },
    { role: "user", content: "the lexer broke; the cache layer is fine" },
    { role: "assistant", content: "one layer of the cache, and a zeta mention in a long sentence about other things entirely" },
    { role: "user", content: "我们需要修改缓存模块的代码" },
    { role: "assistant", content: "缓存很重要，先看一下" },
    { role: "user", content: "キャッシュの設定を確認してください" },
    { role: "assistant", content: "zeta" },
  ];
  beforeEach(async () => {
    dir = tempDir();
    engine = makeEngine(dir.dir, { contextLength: 1_000_000 });
    await engine.ingest(history);
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });

  const grep = async (pattern: string, extra: Record<string, unknown> = {}) => parseResult(await engine.handleToolCall("lcm_grep", { pattern, scope: "messages", ...extra }));
  const seqs = (result: { matches: { seq: number }[] }) => result.matches.map((m) => m.seq).sort((a, b) => a - b);

  it("reads | as OR in full-text mode", async () => {
    expect(seqs(await grep("parser|lexer"))).toEqual([2, 3]);
    expect(seqs(await grep("parser | lexer"))).toEqual([2, 3]);
  });

  it("finds an exact phrase in double quotes, words in any order without them", async () => {
    expect(seqs(await grep('"cache layer"'))).toEqual([3]);
    expect(seqs(await grep("cache layer"))).toEqual([3, 4]);
  });

  it("sorts newest first by default, by relevance when asked", async () => {
    expect((await grep("zeta")).matches.map((m: { seq: number }) => m.seq)).toEqual([8, 4, 1]);
    const ranked = await grep("zeta", { sort: "relevance" });
    expect(ranked.sort).toBe("relevance");
    expect(ranked.matches[0].seq).toBe(1);
    expect(ranked.matches.at(-1).seq).toBe(4);
  });

  it("finds CJK words inside unspaced text: indexed substrings of three characters and more, a scan for shorter ones", async () => {
    const long = await grep("缓存模块");
    expect(seqs(long)).toEqual([5]);
    expect(long.matched_by).toBe("substring");
    const short = await grep("缓存");
    expect(seqs(short)).toEqual([5, 6]);
    expect(short.matched_by).toBe("scan");
    expect(seqs(await grep("修改 代码"))).toEqual([5]);
    expect(seqs(await grep("キャッシュ"))).toEqual([7]);
    expect(seqs(await grep("缓存模块|キャッシュ"))).toEqual([5, 7]);
    expect(long.matches[0].snippet).toContain("缓存模块");
  });

  it("finds CJK text stored before the substring index existed (schema v2), once the store is opened again", async () => {
    const path = `${dir.dir}/lcm.db`;
    engine.close();
    const old = new LcmStore(path);
    old.db.exec("DROP TABLE lcm_messages_tri; DROP TABLE lcm_summaries_tri; PRAGMA user_version = 2;");
    old.close();
    engine = makeEngine(dir.dir, { contextLength: 1_000_000 });
    expect(seqs(await grep("缓存模块"))).toEqual([5]);
    expect(engine.store.db.pragma("user_version", { simple: true })).toBe(LCM_SCHEMA_VERSION);
  });
});

describe("CJK token counts", () => {
  it("keeps a deterministic summary of CJK text within its token budget", () => {
    const text = "我们需要修改缓存模块的代码，然后运行测试。".repeat(200);
    const counter = new RoughTokenCounter();
    const cut = deterministicTruncation(text, 200);
    expect(counter.count(cut)).toBeLessThanOrEqual(200);
    expect(counter.count(cut)).toBeGreaterThan(100);
  });
});
