import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { LcmEngine } from "../src/engine.js";
import { CountingSummarizer, conversation, makeEngine, parseResult, tempDir, useCompactedEngine } from "./support.js";

describe("the agent tools", () => {
  const input = conversation(40);
  const current = useCompactedEngine(input);
  let engine: LcmEngine;
  beforeEach(() => {
    engine = current();
  });

  const call = async (name: string, args: unknown) => parseResult(await engine.handleToolCall(name, args));

  it("offers lcm_grep, lcm_describe and lcm_expand with JSON schemas (no lcm_expand_query without an LLM)", () => {
    const names = engine.getToolSchemas().map((t) => t.function.name);
    expect(names).toEqual(["lcm_grep", "lcm_describe", "lcm_expand"]);
    const grep = engine.getToolSchemas()[0]!.function.parameters as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(grep.properties)).toEqual(["pattern", "mode", "scope", "sessions", "sort", "since", "before", "limit"]);
    expect(grep.required).toEqual(["pattern"]);
  });

  it("marks lcm_grep, lcm_describe and lcm_expand read-only, and no other name", () => {
    const readOnly = ["lcm_grep", "lcm_describe", "lcm_expand", "lcm_expand_query", "compact_context", "no_such_tool"].filter((name) => engine.toolTraits(name).readOnly === true);
    expect(readOnly).toEqual(["lcm_grep", "lcm_describe", "lcm_expand"]);
  });

  it("lcm_grep finds a term that exists only in compacted messages and reports the summary covering it", async () => {
    // Turn 10 sits in the middle of the first condensed summary's history, which its summary leaves out.
    const visible = JSON.stringify(await engine.assemble([input[0]!]));
    expect(visible).not.toContain("zeta10 ");
    const result = await call("lcm_grep", { pattern: "zeta10 invariant", scope: "messages" });
    expect(result.error).toBeUndefined();
    const seqs = result.matches.map((m: { seq: number }) => m.seq);
    expect(seqs).toEqual([44, 41]);
    for (const m of result.matches) {
      expect(m.type).toBe("message");
      expect(m.coveredBy).toMatch(/^sum_/);
      expect(engine.store.contextItems("default").map((i) => i.id)).toContain(m.coveredBy);
      expect(m.snippet).toContain("zeta10");
      const described = await call("lcm_describe", { id: m.id });
      expect(described.coveredBy).toBe(m.coveredBy);
      expect(described.inContext).toBe(false);
    }
  });

  it("lcm_grep reports null coveredBy for a message still in context, and searches summaries", async () => {
    const result = await call("lcm_grep", { pattern: "zeta39" });
    const message = result.matches.find((m: { type: string }) => m.type === "message");
    expect(message.coveredBy).toBeNull();
    const summaries = await call("lcm_grep", { pattern: "src*", scope: "summaries", limit: 100 });
    expect(summaries.count).toBeGreaterThan(0);
    expect(summaries.matches.every((m: { type: string }) => m.type === "summary")).toBe(true);
  });

  it("lcm_grep regex mode matches, and a bad pattern is an {error, code}", async () => {
    const result = await call("lcm_grep", { pattern: "zeta1[0-2]\\b", mode: "regex", scope: "messages", limit: 100 });
    expect(new Set(result.matches.map((m: { snippet: string }) => m.snippet.match(/zeta1[0-2]/)![0]))).toEqual(new Set(["zeta10", "zeta11", "zeta12"]));
    expect(await call("lcm_grep", { pattern: "(unclosed", mode: "regex" })).toMatchObject({ code: "invalid_pattern" });
    expect(await call("lcm_grep", { pattern: "x".repeat(600), mode: "regex" })).toMatchObject({ code: "invalid_pattern" });
    expect(await call("lcm_grep", { pattern: "--" })).toMatchObject({ code: "invalid_pattern" });
  });

  it("lcm_grep stops a catastrophic regex at its time budget instead of hanging", async () => {
    await engine.ingest([...input, { role: "user", content: "a".repeat(40) + "!" }]);
    const result = await call("lcm_grep", { pattern: "^(a+)+$", mode: "regex", scope: "messages" });
    expect(result.truncated).toBe(true);
  });

  it("lcm_grep filters by time and validates its arguments", async () => {
    const all = await call("lcm_grep", { pattern: "zeta5", scope: "messages" });
    expect(all.count).toBe(2);
    const none = await call("lcm_grep", { pattern: "zeta5", scope: "messages", before: 0 });
    expect(none.count).toBe(0);
    expect(await call("lcm_grep", { pattern: "zeta5", limit: 500 })).toMatchObject({ code: "invalid_arguments" });
    expect(await call("lcm_grep", { pattern: "zeta5", since: "not a date" })).toMatchObject({ code: "invalid_arguments" });
    expect(await call("lcm_grep", '{"pattern": "zeta5"')).toMatchObject({ code: "invalid_arguments" });
  });

  it("lcm_describe gives a summary's lineage and, without id, the session overview", async () => {
    const top = engine.store.contextItems("default").find((i) => i.type === "summary")!;
    const d = await call("lcm_describe", { id: top.id });
    expect(d).toMatchObject({ type: "summary", id: top.id, inContext: true, coveredBy: null, parents: [] });
    expect(d.sources.length).toBeGreaterThan(0);
    const child = await call("lcm_describe", { id: d.sources[0].id });
    expect(child.parents).toContain(top.id);
    const overview = await call("lcm_describe", {});
    expect(overview.messages).toBe(160);
    expect(overview.summaries.total).toBe(engine.store.allSummaries("default").length);
    expect(overview.lastCompaction.passes).toBeGreaterThan(0);
  });

  it("lcm_expand pages with offset, whole sources while they fit", async () => {
    const leaf = engine.store.allSummaries("default").find((s) => s.kind === "leaf")!;
    const sources = engine.store.sourcesOf(leaf.id);
    const largest = Math.max(...engine.store.getMessages(sources.map((s) => s.id)).map((m) => m.tokens));
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await call("lcm_expand", { id: leaf.id, maxTokens: largest + 100, offset });
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.every((i: { cut?: boolean }) => i.cut === undefined)).toBe(true);
      seen.push(...page.items.map((i: { id: string }) => i.id));
      offset = page.nextOffset;
    }
    expect(seen).toEqual(sources.map((s) => s.id));
    const whole = await call("lcm_expand", { id: leaf.id });
    expect(whole.nextOffset).toBeNull();
    expect(whole.items.map((i: { message: unknown }) => i.message)).toEqual(engine.store.getMessages(sources.map((s) => s.id)).map((m) => m.message));
  });

  it("answers unknown ids with not_found and never throws", async () => {
    expect(await call("lcm_expand", { id: "sum_0000000000000000" })).toMatchObject({ code: "not_found" });
    expect(await call("lcm_describe", { id: "msg_999999" })).toMatchObject({ code: "not_found" });
    expect(await call("lcm_describe", { id: "nonsense" })).toMatchObject({ code: "not_found" });
    expect(await call("lcm_expand", {})).toMatchObject({ code: "invalid_arguments" });
    expect(await call("lcm_nope", {})).toEqual({ error: "Unknown context engine tool: lcm_nope" });
  });
});

describe("a tool call after the session ended", () => {
  it("answers {error, code} instead of throwing when the database cannot be reopened", async () => {
    const { dir, cleanup } = tempDir();
    const engine = makeEngine(dir);
    try {
      await engine.ingest(conversation(2));
      await engine.onSessionEnd("default", conversation(2));
      rmSync(join(dir, "lcm.db"), { force: true });
      mkdirSync(join(dir, "lcm.db"));
      expect(parseResult(await engine.handleToolCall("lcm_grep", { pattern: "zeta1" }))).toMatchObject({ code: "internal" });
    } finally {
      cleanup();
    }
  });
});

describe("lcm_expand_query", () => {
  it("is offered only with an LLM summarizer and answers from expanded history", async () => {
    const { dir, cleanup } = tempDir();
    const llm = new CountingSummarizer();
    const engine = makeEngine(dir, { summarizer: llm, llmSummarizer: true });
    try {
      await engine.compress(conversation(40));
      expect(engine.getToolSchemas().map((t) => t.function.name)).toContain("lcm_expand_query");
      const before = llm.calls;
      const result = parseResult(await engine.handleToolCall("lcm_expand_query", { prompt: "What holds for zeta3?", query: "zeta3" }));
      expect(result.error).toBeUndefined();
      expect(result.sources).toBeGreaterThan(0);
      expect(typeof result.answer).toBe("string");
      expect(llm.calls).toBe(before + 1);
      expect(parseResult(await engine.handleToolCall("lcm_expand_query", { prompt: "x" }))).toMatchObject({ code: "invalid_arguments" });
    } finally {
      engine.close();
      cleanup();
    }
  });
});
