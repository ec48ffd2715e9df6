/**
 * compact_context and the notice after a compaction
 * (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see") on the built-in compressor and CompactionSession: a real SQLite store and a loopback
 * OpenAI-compatible summarizer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sectionedSummary } from "../../../../test/support/sectionedSummary.js";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { COMPACT_CONTEXT_TOOL_NAME } from "../../src/engine/compactContextTool.js";
import { validateConversation } from "../../src/messages/validate.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { CompactionSessionAsync } from "../../src/session/CompactionSessionAsync.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import type { CompressionConfig } from "../../src/config/schema.js";
import { agentRounds, roughCounter, system, user } from "../compressor/fixtures.js";

const fixture = useOpenAIFixtureServer();
const MODEL = { model: "test-model", contextLength: 200_000 };
const COMPACT_TOOL = { enabled: true, min_turns_between: 3 };

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-compaction-"));
  store = openSqliteStore(join(dir, "sessions.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function compressor(compression: Partial<CompressionConfig> = { compact_tool: COMPACT_TOOL }): ContextCompressor {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model", timeoutMs: 5_000 });
  return new ContextCompressor({ compression: { protect_first_n: 2, protect_last_n: 4, ...compression }, summarizer, tokenCounter: roughCounter, model: MODEL, store });
}

/** A session of eight rounds (about 16k tokens, far below the 100k trigger). */
function sessionWith(engine: ContextCompressor, extra: { compactionNotice?: boolean } = {}): CompactionSession {
  const session = new CompactionSession({ engine, store, platform: "cli", ...extra });
  session.append([system("You are a coding agent."), ...agentRounds(8)]);
  return session;
}

/** A summary of {@link sessionWith}'s rounds that invents one file. */
const INVENTING_SUMMARY = sectionedSummary("check the round files", ["checked src/round_0.ts and src/round_1.ts", "src/payments/stripe_webhook.ts — created"]);

const ask = async (session: CompactionSession, args: unknown = {}) => JSON.parse(await session.handleToolCall(COMPACT_CONTEXT_TOOL_NAME, args)) as Record<string, unknown>;

describe("compact_context on the built-in compressor", () => {
  it("is offered only when compression.compact_tool.enabled is set", () => {
    expect(compressor({}).getToolSchemas().map((t) => t.function.name)).toEqual(["session_search"]);
    const offered = compressor().getToolSchemas().find((t) => t.function.name === COMPACT_CONTEXT_TOOL_NAME)!;
    expect(offered.function.parameters).toMatchObject({ type: "object", properties: { focus: { type: "string" } }, additionalProperties: false });
  });

  it("accepts a request, and the session compacts at the next boundary below the trigger with the focus in the summarizer's prompt", async () => {
    const engine = compressor();
    const session = sessionWith(engine);
    const answer = await ask(session, { focus: "the failing parser test" });
    expect(answer).toMatchObject({ accepted: true, focus: "the failing parser test" });
    expect(answer.message).toContain("before your next turn");
    expect(answer.message).toContain("session_search");
    expect(fixture.current.requests).toHaveLength(0); // nothing happens until the boundary

    const result = await session.maybeCompress({ promptTokens: 16_000 });
    expect(result.outcome).toBe("compressed");
    expect(fixture.current.requests).toHaveLength(1);
    expect(JSON.stringify(fixture.current.requests[0]!.body.messages)).toContain('Focus: prioritise everything related to \\"the failing parser test\\"');
    expect(validateConversation(session.messages())).toEqual([]);
    // the request was used once: the next boundary below the trigger does nothing
    expect((await session.maybeCompress({ promptTokens: 5_000 })).outcome).toBe("not_needed");
  });

  it("refuses too soon after a compaction, saying how many turns are left, and accepts once they passed", async () => {
    const engine = compressor();
    const session = sessionWith(engine);
    await ask(session);
    expect((await session.maybeCompress()).outcome).toBe("compressed");
    engine.updateFromResponse({ prompt_tokens: 30_000 }, session.sessionId);
    const refused = await ask(session, { focus: "x" });
    expect(refused).toMatchObject({ accepted: false, reason: "too_soon", turns_left: 2 });
    expect(refused.message).toContain("accepts again in 2 turn(s)");
    expect((await session.maybeCompress({ promptTokens: 30_000 })).outcome).toBe("not_needed");
    engine.updateFromResponse({ prompt_tokens: 31_000 }, session.sessionId);
    engine.updateFromResponse({ prompt_tokens: 32_000 }, session.sessionId);
    expect(await ask(session)).toMatchObject({ accepted: true });
  });

  it("refuses when the conversation already fits in what a compaction keeps, and refuses bad arguments naming the tool", async () => {
    const engine = compressor();
    const session = sessionWith(engine);
    engine.updateFromResponse({ prompt_tokens: 300 }, session.sessionId);
    const refused = await ask(session);
    expect(refused).toMatchObject({ accepted: false, reason: "nothing_to_compact" });
    expect(refused.message).toContain("nothing to compact");
    expect(await ask(session, { focus: 42 })).toMatchObject({ code: "invalid_arguments" });
    expect(((await ask(session, { topic: "x" })).error as string).startsWith("compact_context:")).toBe(true);
    expect((await session.maybeCompress({ promptTokens: 300 })).outcome).toBe("not_needed");
  });

  it("judges each session of a shared engine by that session's own last reported usage", async () => {
    const engine = compressor();
    const [a, b] = [sessionWith(engine), sessionWith(engine)];
    for (const session of [a, b]) await engine.onSessionStart(session.sessionId);
    engine.updateFromResponse({ prompt_tokens: 30_000 }, a.sessionId);
    engine.updateFromResponse({ prompt_tokens: 300 }, b.sessionId);
    expect(await ask(a)).toMatchObject({ accepted: true });
    expect(await ask(b)).toMatchObject({ accepted: false, reason: "nothing_to_compact" });
  });
});

describe("the notice after a compaction", () => {
  it("is not added by default", async () => {
    const session = sessionWith(compressor());
    const result = await session.maybeCompress({ force: true });
    expect(result.outcome).toBe("compressed");
    expect(result.compactionNotice).toBeUndefined();
    session.append([user("next ask")]);
    expect(session.messages().at(-1)).toEqual(user("next ask"));
  });

  it("with compaction_notice on, is appended to the next user turn's text, not to a tool result, and says what session_search recovers", async () => {
    const session = sessionWith(compressor({ compact_tool: COMPACT_TOOL, compaction_notice: true }));
    const result = await session.maybeCompress({ force: true });
    expect(result.compactionNotice).toMatch(/^\[Context compacted: 33 messages → \d+, [\d,]+ → [\d,]+ tokens; older turns are summarized, session_search reads them back\.\]$/);
    session.append([{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: "out" }]);
    expect(session.messages().at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "out" });
    session.append([user("next ask")]);
    expect(session.messages().at(-1)).toEqual(user(`next ask\n\n${result.compactionNotice}`));
    session.append([user("later ask")]);
    expect(session.messages().at(-1)).toEqual(user("later ask"));
    expect(validateConversation(session.messages())).toEqual([]);
  });
});

describe("CompactionSessionAsync", () => {
  it("takes the agent's request and appends the notice the same way", async () => {
    const engine = compressor({ compact_tool: COMPACT_TOOL, compaction_notice: true });
    const session = await CompactionSessionAsync.open({ engine, store, platform: "cli" });
    await session.append([system("You are a coding agent."), ...agentRounds(8)]);
    expect(JSON.parse(await session.handleToolCall(COMPACT_CONTEXT_TOOL_NAME, { focus: "round 3" }))).toMatchObject({ accepted: true });
    const result = await session.maybeCompress({ promptTokens: 16_000 });
    expect(result.outcome).toBe("compressed");
    expect(result.compactionNotice).toContain("(focus: round 3)");
    await session.append([user("next ask")]);
    expect((await session.messages()).at(-1)).toEqual(user(`next ask\n\n${result.compactionNotice}`));
  });
});

describe("getStatus().lastCompaction", () => {
  it("is absent before a compaction and reports when, tokens before and after, and no fallback after the summarizer wrote it", async () => {
    const engine = compressor();
    expect(engine.getStatus().lastCompaction).toBeUndefined();
    const session = sessionWith(engine);
    await session.maybeCompress({ force: true, promptTokens: 16_500 });
    const last = engine.getStatus().lastCompaction!;
    expect(last).toMatchObject({ messagesBefore: 33, tokensBefore: 16_500, fallbackUsed: false, inventedFactsRemoved: 0, recoveryTool: "session_search" });
    expect(last.tokensAfter).toBeLessThan(last.tokensBefore);
    expect(Date.now() - Date.parse(last.at)).toBeLessThan(60_000);
  });

  it("says the fallback summarizer was used when the summarizer failed", async () => {
    fixture.current.setDefault({ kind: "status", status: 500 });
    const engine = compressor();
    const session = sessionWith(engine);
    expect((await session.maybeCompress({ force: true })).outcome).toBe("compressed");
    expect(engine.getStatus().lastCompaction).toMatchObject({ fallbackUsed: true });
  });

  it("counts the facts the verbatim guard removed from the summary as invented", async () => {
    fixture.current.script({ kind: "success", content: INVENTING_SUMMARY });
    const engine = compressor();
    const session = sessionWith(engine);
    await session.maybeCompress({ force: true, focusTopic: "round files" });
    expect(engine.getStatus().lastCompaction).toMatchObject({ fallbackUsed: false, inventedFactsRemoved: 1, focus: "round files" });
  });
});
