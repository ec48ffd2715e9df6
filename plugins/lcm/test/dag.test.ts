import { beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { validateConversation } from "../src/core.js";
import { LCM_CONTEXT_HEADER } from "../src/assemble.js";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, parseResult, tempDir, useCompactedEngine } from "./support.js";

/** Every original message reachable from the context, expanding summaries through lcm_expand pages. */
async function expandFromContext(engine: LcmEngine): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  const expand = async (id: string): Promise<void> => {
    let offset: number | null = 0;
    while (offset !== null) {
      const page = parseResult(await engine.handleToolCall("lcm_expand", { id, offset, maxTokens: 1_000 }));
      expect(page.error).toBeUndefined();
      for (const item of page.items) {
        if (item.type === "message") out.push(item.message);
        else await expand(item.id);
      }
      offset = page.nextOffset;
    }
  };
  for (const item of engine.store.contextItems(engine.sessionId)) {
    if (item.type === "summary") await expand(item.id);
    else out.push(engine.store.getMessage(item.id)!.message);
  }
  return out;
}

describe("the summary DAG", () => {
  const input = conversation(60);
  const current = useCompactedEngine(input);
  let engine: LcmEngine;
  beforeEach(() => {
    engine = current();
  });

  it("compacts a long conversation to condensed summaries of depth 2 and more", () => {
    const depths = engine.store.allSummaries(engine.sessionId).map((s) => s.depth);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(3);
    expect(engine.store.contextItems(engine.sessionId).some((i) => i.type === "summary")).toBe(true);
  });

  it("expands down from the context to every original message, deep-equal and in order", async () => {
    expect(await expandFromContext(engine)).toEqual(input.slice(1));
  });

  it("keeps context items an exact partition of seq 1..N (no gap, no overlap)", () => {
    const session = engine.sessionId;
    let next = 1;
    for (const item of engine.store.contextItems(session)) {
      if (item.type === "message") {
        expect(engine.store.getMessage(item.id)!.seq).toBe(next);
        next += 1;
      } else {
        const s = engine.store.getSummary(item.id)!;
        expect(s.seqStart).toBe(next);
        next = s.seqEnd + 1;
      }
    }
    expect(next - 1).toBe(engine.store.lastSeq(session));
    expect(next - 1).toBe(input.length - 1);
  });

  it("traces every summary to sources that exist, with depth rules and no cycle", () => {
    const summaries = engine.store.allSummaries(engine.sessionId);
    expect(summaries.length).toBeGreaterThan(0);
    const visiting = new Set<string>();
    const done = new Set<string>();
    const walk = (id: string): void => {
      expect(visiting.has(id)).toBe(false);
      if (done.has(id)) return;
      visiting.add(id);
      const s = engine.store.getSummary(id)!;
      const sources = engine.store.sourcesOf(id);
      expect(sources.length).toBeGreaterThan(0);
      const ranges: [number, number][] = [];
      for (const src of sources) {
        if (s.kind === "leaf") {
          expect(src.type).toBe("message");
          const m = engine.store.getMessage(src.id);
          expect(m).toBeDefined();
          ranges.push([m!.seq, m!.seq]);
        } else {
          expect(src.type).toBe("summary");
          const child = engine.store.getSummary(src.id);
          expect(child).toBeDefined();
          expect(child!.depth).toBe(s.depth - 1);
          ranges.push([child!.seqStart, child!.seqEnd]);
          walk(child!.id);
        }
      }
      if (s.kind === "leaf") expect(s.depth).toBe(1);
      // sources are contiguous and exactly cover the summary's range
      expect(ranges[0]![0]).toBe(s.seqStart);
      expect(ranges[ranges.length - 1]![1]).toBe(s.seqEnd);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1] + 1);
      visiting.delete(id);
      done.add(id);
    };
    for (const s of summaries) walk(s.id);
  });

  it("returns a context that passes validateConversation, with the system prompt untouched", async () => {
    const output = await engine.assemble([input[0]!]);
    expect(output[0]).toBe(input[0]);
    expect(validateConversation(output)).toEqual([]);
    const block = output[1]!;
    expect(typeof block.content === "string" && block.content.startsWith(LCM_CONTEXT_HEADER) && block.content.startsWith("[CONTEXT COMPACTION]")).toBe(true);
    expect(block.content).toMatch(/<summary id="sum_[0-9a-f]{16}" kind="(leaf|condensed)" depth="\d+" messages="\d+-\d+">/);
  });

  it("produces identical output and summary ids for identical input in a fresh store", async () => {
    const other = tempDir();
    const twin = makeEngine(other.dir);
    try {
      const a = await engine.assemble([input[0]!]);
      const b = await twin.compress(input);
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      expect(twin.store.allSummaries(twin.sessionId).map((s) => s.id)).toEqual(engine.store.allSummaries(engine.sessionId).map((s) => s.id));
      expect(JSON.stringify(await engine.assemble([input[0]!]))).toBe(JSON.stringify(a));
    } finally {
      twin.close();
      other.cleanup();
    }
  });
});

describe("the depth cap", () => {
  it("never condenses beyond max_depth: summaries at the cap stay side by side", async () => {
    const { dir, cleanup } = tempDir();
    const engine = makeEngine(dir, { config: { max_depth: 2 } });
    try {
      const output = await engine.compress(conversation(60));
      const depths = engine.store.allSummaries(engine.sessionId).map((s) => s.depth);
      expect(Math.max(...depths)).toBe(2);
      expect(validateConversation(output)).toEqual([]);
    } finally {
      engine.close();
      cleanup();
    }
  });

  it("rejects a max_depth below 1, naming the key", () => {
    const { dir, cleanup } = tempDir();
    try {
      expect(() => makeEngine(dir, { config: { max_depth: 0 } })).toThrow(/lcm\.max_depth/);
    } finally {
      cleanup();
    }
  });
});
