import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { parseLcmConfig } from "../src/config.js";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, parseResult, tempDir } from "./support.js";

/** A tool output of about `tokens` tokens (4 characters a token), numbered lines so a cut shows where it is. */
function bigOutput(tokens: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\\n").length < tokens * 4; i++) lines.push(`line ${String(i).padStart(5, "0")}: build step finished without warnings`);
  return lines.join("\\n");
}

describe("lcm_expand keeps to the caller's token budget", () => {
  let dir: { dir: string; cleanup: () => void };
  let engine: LcmEngine;
  const huge = bigOutput(30_000);
  beforeEach(async () => {
    dir = tempDir();
    engine = makeEngine(dir.dir, { contextLength: 40_000, config: { fresh_tail: 4, externalize_tool_output_tokens: 0 } });
    const input: ChatMessage[] = [
      { role: "system", content: "You are a careful coding agent." },
      { role: "user", content: "Build it." },
      { role: "assistant", content: null, tool_calls: [{ id: "b1", type: "function", function: { name: "build", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "b1", content: huge },
      { role: "assistant", content: "The build passed." },
      ...conversation(4, { system: false }),
    ];
    await engine.compress(input, { force: true });
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });
  const call = async (args: unknown) => parseResult(await engine.handleToolCall("lcm_expand", args));
  const tokensOf = (value: unknown) => engine.tokenCounter.count(JSON.stringify(value));

  it("cuts a source larger than maxTokens and says where the rest is", async () => {
    const leaf = engine.store.allSummaries("default").find((s) => s.seqStart === 1)!;
    // the first page holds the small sources before it; the large one opens the next page, cut
    const first = await call({ id: leaf.id, maxTokens: 1_000 });
    expect(first.items.some((i: { cut?: boolean }) => i.cut)).toBe(false);
    const page = await call({ id: leaf.id, maxTokens: 1_000, offset: first.nextOffset });
    expect(page.error).toBeUndefined();
    expect(tokensOf(page)).toBeLessThanOrEqual(1_300);
    expect(page.nextOffset).toBeNull();
    const cut = page.items.find((i: { cut?: boolean }) => i.cut === true);
    expect(cut).toBeDefined();
    expect(cut.total_chars).toBe(huge.length);
    expect(cut.continue).toEqual({ id: cut.id, offset: cut.text.length });
    expect(page.note).toMatch(new RegExp(`lcm_expand with id "${cut.id}" and offset ${cut.text.length}`));
  });

  it("pages through one message by character offset within the budget", async () => {
    const stored = engine.store.getMessagesBySeq("default", 1, 100).find((m) => m.message.content === huge)!;
    let offset: number | null = 0;
    let text = "";
    let pages = 0;
    while (offset !== null && pages < 100) {
      const page = await call({ id: stored.id, maxTokens: 4_000, offset });
      expect(page.error).toBeUndefined();
      expect(tokensOf(page)).toBeLessThanOrEqual(4_300);
      text += page.text;
      offset = page.nextOffset;
      pages++;
    }
    expect(pages).toBeGreaterThan(7);
    expect(text).toContain(huge);
  });

  it("returns a small message whole", async () => {
    const stored = engine.store.getMessagesBySeq("default", 1, 1)[0]!;
    const page = await call({ id: stored.id });
    expect(page.message).toEqual(stored.message);
    expect(page.nextOffset).toBeNull();
  });

  it("holds a page to max_expand_tokens (default 20,000) whatever maxTokens the agent asks for", async () => {
    const stored = engine.store.getMessagesBySeq("default", 1, 100).find((m) => m.message.content === huge)!;
    const page = await call({ id: stored.id, maxTokens: 200_000 });
    expect(page.error).toBeUndefined();
    expect(tokensOf(page)).toBeLessThanOrEqual(20_300);
    expect(page.nextOffset).toBeGreaterThan(0);
    expect(page.capped).toMatch(/lcm\.max_expand_tokens/);
    const leaf = engine.store.allSummaries("default").find((s) => s.seqStart === 1)!;
    const summaryPage = await call({ id: leaf.id, maxTokens: 200_000, offset: 1 });
    expect(tokensOf(summaryPage)).toBeLessThanOrEqual(20_300);
  });
});

describe("lcm.max_expand_tokens", () => {
  it("caps every lcm_expand page at the configured budget", async () => {
    const { dir, cleanup } = tempDir();
    const engine = makeEngine(dir, { contextLength: 40_000, config: { fresh_tail: 4, externalize_tool_output_tokens: 0, max_expand_tokens: 1_000 } });
    const huge = bigOutput(5_000);
    await engine.compress(
      [
        { role: "user", content: "Build it." },
        { role: "assistant", content: null, tool_calls: [{ id: "b1", type: "function", function: { name: "build", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "b1", content: huge },
        ...conversation(4, { system: false }),
      ],
      { force: true },
    );
    const stored = engine.store.getMessagesBySeq("default", 1, 100).find((m) => m.message.content === huge)!;
    const page = parseResult(await engine.handleToolCall("lcm_expand", { id: stored.id, maxTokens: 50_000 }));
    expect(engine.tokenCounter.count(JSON.stringify(page))).toBeLessThanOrEqual(1_300);
    expect(page.nextOffset).toBeGreaterThan(0);
    const small = parseResult(await engine.handleToolCall("lcm_expand", { id: stored.id, maxTokens: 500 }));
    expect(small.capped).toBeUndefined();
    engine.close();
    cleanup();
  });

  it("refuses a budget under 100 tokens, naming the key", () => {
    expect(() => parseLcmConfig({ max_expand_tokens: 10 })).toThrow(/lcm\.max_expand_tokens: must be at least 100/);
  });
});
