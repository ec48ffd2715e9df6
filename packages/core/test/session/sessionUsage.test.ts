import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { AWAITING_REAL_USAGE } from "../../src/engine/ContextEngine.js";
import { SessionPromptTokens, promptTokensOf } from "../../src/engine/sessionUsage.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";

const MODEL = { model: "test-model", contextLength: 100_000 };

/** A 100,000-token window: the trigger is the 64,000-token minimum. */
function engine(): ContextCompressor {
  return new ContextCompressor({ model: MODEL, summarizer: new ExtractiveSummarizer(), compression: { threshold: 0.5 } });
}

function conversation(turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: "user", content: `Task ${t}: fix the parser for case ${t}. ${"detail ".repeat(40)}` });
    messages.push({ role: "assistant", content: `Fixed case ${t} in src/parser_${t}.ts. ${"note ".repeat(40)}` });
  }
  return messages;
}

describe("an engine serving several sessions", () => {
  it("judges each session by the usage reported for it, not by the latest of any", async () => {
    const e = engine();
    await e.onSessionStart("a");
    await e.onSessionStart("b");
    e.updateFromResponse({ prompt_tokens: 80_000, completion_tokens: 10 }, "a");
    e.updateFromResponse({ prompt_tokens: 1_000, completion_tokens: 10 }, "b");
    expect(e.lastPromptTokens).toBe(1_000);
    expect(e.lastPromptTokensOf("a")).toBe(80_000);
    expect(e.shouldCompress(undefined, "a")).toBe(true);
    expect(e.shouldCompress(undefined, "b")).toBe(false);
    // a session that reported nothing yet has no usage: another session's says nothing about it
    e.updateFromResponse({ prompt_tokens: 90_000, completion_tokens: 10 }, "a");
    expect(e.lastPromptTokensOf("c")).toBe(0);
    expect(e.shouldCompress(undefined, "c")).toBe(false);
  });

  it("awaits real usage in the compacted session only", async () => {
    const e = engine();
    await e.onSessionStart("a");
    await e.onSessionStart("b");
    e.updateFromResponse({ prompt_tokens: 70_000, completion_tokens: 10 }, "a");
    e.updateFromResponse({ prompt_tokens: 66_000, completion_tokens: 10 }, "b");
    const out = await e.compress(conversation(30), { sessionId: "a", currentTokens: 70_000 });
    expect(out.length).toBeLessThan(conversation(30).length);
    expect(e.lastPromptTokensOf("a")).toBe(AWAITING_REAL_USAGE);
    expect(e.shouldCompress(undefined, "a")).toBe(false);
    expect(e.lastPromptTokensOf("b")).toBe(66_000);
    expect(e.shouldCompress(undefined, "b")).toBe(true);
  });

  it("reports each session's own status: its usage, its last compaction, its pending request", async () => {
    const e = new ContextCompressor({ model: MODEL, summarizer: new ExtractiveSummarizer(), compression: { threshold: 0.5, compact_tool: { enabled: true, min_turns_between: 1 } } });
    await e.onSessionStart("a");
    await e.onSessionStart("b");
    e.updateFromResponse({ prompt_tokens: 70_000, completion_tokens: 10 }, "a");
    e.updateFromResponse({ prompt_tokens: 66_000, completion_tokens: 10 }, "b");
    await e.compress(conversation(30), { sessionId: "a", currentTokens: 70_000 });
    await e.handleToolCall("compact_context", { focus: "the parser" }, { sessionId: "b" });
    const a = e.getStatus("a");
    const b = e.getStatus("b");
    expect(a.lastPromptTokens).toBe(0); // awaiting the compacted conversation's usage
    expect(a.lastCompaction?.messagesBefore).toBe(conversation(30).length);
    expect(a.pendingCompactionRequest).toBeUndefined();
    expect(b.lastPromptTokens).toBe(66_000);
    expect(b.lastCompaction).toBeUndefined();
    expect(b.pendingCompactionRequest?.focus).toBe("the parser");
    // without a session: the engine's latest of any
    expect(e.getStatus().lastCompaction).toEqual(a.lastCompaction);
    e.onSessionEnd("a", []);
    expect(e.getStatus("a").lastCompaction).toBeUndefined();
  });

  it("keeps the engine-wide usage for a host that names no session, also after a session's compaction", async () => {
    const e = engine();
    await e.onSessionStart("a");
    await e.onSessionStart("b");
    e.updateFromResponse({ prompt_tokens: 80_000, completion_tokens: 10 });
    expect(e.lastPromptTokensOf("a")).toBe(80_000);
    expect(e.shouldCompress(undefined, "b")).toBe(true);
    await e.compress(conversation(30), { sessionId: "a", currentTokens: 80_000 });
    expect(e.shouldCompress(undefined, "a")).toBe(false);
    // the next unnamed report is the engine's usage again, for every session
    e.updateFromResponse({ prompt_tokens: 75_000, completion_tokens: 10 });
    expect(e.lastPromptTokensOf("a")).toBe(75_000);
    expect(e.shouldCompressInfo(undefined, "b")).toMatchObject({ should: true, promptTokens: 75_000 });
  });

  it("attributes an unnamed report to the only open session, and forgets it when the session ends or the model changes", async () => {
    const e = engine();
    await e.onSessionStart("a");
    e.updateFromResponse({ prompt_tokens: 80_000, completion_tokens: 10 });
    await e.onSessionStart("b");
    e.updateFromResponse({ prompt_tokens: 2_000, completion_tokens: 10 }, "b");
    expect(e.lastPromptTokensOf("a")).toBe(80_000);
    e.onSessionEnd("a", []);
    expect(e.lastPromptTokensOf("a")).toBe(0);
    e.updateModel({ model: "other-model", contextLength: 200_000 });
    expect(e.lastPromptTokensOf("b")).toBe(0);
  });
});

describe("promptTokensOf", () => {
  it("reads an engine's per-session usage when it offers it, else its engine-wide usage", () => {
    const tokens = new SessionPromptTokens();
    tokens.record("x", 42);
    expect(promptTokensOf({ lastPromptTokens: 7, lastPromptTokensOf: (id) => tokens.of(id, 7) }, "x")).toBe(42);
    expect(promptTokensOf({ lastPromptTokens: 7, lastPromptTokensOf: (id) => tokens.of(id, 7) }, "y")).toBe(0);
    expect(promptTokensOf({ lastPromptTokens: 7 }, "x")).toBe(7);
    expect(promptTokensOf({ lastPromptTokens: 7, lastPromptTokensOf: () => 42 }, undefined)).toBe(7);
  });
});

describe("CompactionSession over one engine shared by two conversations", () => {
  let dir: string;
  let store: SqliteSessionStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "session-usage-"));
    store = openSqliteStore(join(dir, "sessions.db"));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves a short conversation alone while the other one's usage is past the trigger", async () => {
    const e = engine();
    const long = new CompactionSession({ engine: e, store, sessionId: "long", platform: "cli" });
    const short = new CompactionSession({ engine: e, store, sessionId: "short", platform: "cli" });
    long.append(conversation(30));
    short.append(conversation(30));
    e.updateFromResponse({ prompt_tokens: 5_000, completion_tokens: 10 }, "short");
    e.updateFromResponse({ prompt_tokens: 80_000, completion_tokens: 10 }, "long");
    // the engine's latest report is the long conversation's: the short one is still judged by its own
    expect((await short.maybeCompress()).outcome).toBe("not_needed");
    expect(short.messages()).toHaveLength(conversation(30).length);
    expect((await long.maybeCompress()).outcome).toBe("compressed");
  });
});
