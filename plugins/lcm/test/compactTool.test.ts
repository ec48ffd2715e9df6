/** compact_context and getStatus().lastCompaction on lcm, driven by core's CompactionSession, summarizing through a loopback OpenAI server. */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer, validateConversation } from "@context-engine/core";
import { COMPACT_CONTEXT_TOOL_NAME } from "@context-engine/core/compressor";
import { CompactionSession } from "@context-engine/core/session";
import { openSqliteStore } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import type { LcmEngine } from "../src/engine.js";
import { createLcmEngine } from "../src/index.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const server = useOpenAIFixtureServer({ kind: "success", content: "## Goal\n- fixture summary" });
let dir: string;
let cleanup: () => void;
let store: ReturnType<typeof openSqliteStore>;
const engines: LcmEngine[] = [];
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  store = openSqliteStore(join(dir, "sessions.db"));
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  store.close();
  cleanup();
});

const COMPACT_TOOL = { enabled: true, min_turns_between: 2 };

function lcm(compactTool: { enabled: boolean; min_turns_between: number } | undefined = COMPACT_TOOL): LcmEngine {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.current.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
  const engine = makeEngine(dir, { summarizer, compactTool, contextLength: 4_000, warn: () => {} });
  engines.push(engine);
  return engine;
}

/** A session over `engine` holding `turns` turns (4 messages each, after the system prompt). */
function sessionOf(lcmEngine: LcmEngine, turns: number, compactionNotice = false): CompactionSession {
  const session = new CompactionSession({ engine: lcmEngine, store, platform: "cli", compactionNotice });
  session.append(conversation(turns));
  return session;
}

const ask = async (session: CompactionSession, args: unknown = {}) => JSON.parse(await session.handleToolCall(COMPACT_CONTEXT_TOOL_NAME, args)) as Record<string, unknown>;

describe("compact_context on lcm", () => {
  it("is offered only with compression.compact_tool.enabled", () => {
    expect(lcm({ enabled: false, min_turns_between: 2 }).getToolSchemas().map((t) => t.function.name)).not.toContain(COMPACT_CONTEXT_TOOL_NAME);
    expect(lcm().getToolSchemas().map((t) => t.function.name)).toContain(COMPACT_CONTEXT_TOOL_NAME);
  });

  it("takes the setting from the host's compression.compact_tool", async () => {
    const made = await createLcmEngine({ config: { compression: { compact_tool: { enabled: true, min_turns_between: 4 } }, lcm: { db_path: ":memory:" } }, rootDir: dir, warn: () => {} } as never);
    engines.push(made as never);
    expect(made.getToolSchemas().map((t) => t.function.name)).toContain(COMPACT_CONTEXT_TOOL_NAME);
    expect(made.agentRequests?.settings.min_turns_between).toBe(4);
  });

  it("refuses while every stored message is in the fresh tail, naming lcm.fresh_tail", async () => {
    const lcmEngine = lcm();
    const session = sessionOf(lcmEngine, 1);
    await lcmEngine.ingest(session.messages(), session.sessionId);
    const refused = await ask(session);
    expect(refused).toMatchObject({ accepted: false, reason: "nothing_to_compact" });
    expect(refused.message).toContain("lcm.fresh_tail: 8");
    // a context within lcm's target (threshold × target_ratio: 1,500 tokens here) has nothing to compact either
    const other = lcm();
    const longer = sessionOf(other, 10);
    await other.ingest(longer.messages(), longer.sessionId);
    other.updateFromResponse({ prompt_tokens: 1_200 }, longer.sessionId);
    expect((await ask(longer)).message).toContain("within the target lcm compacts to (1500 tokens)");
  });

  it("accepts a request; the session compacts below the trigger with the focus sent to the summarizer, and lcm_expand is named for recovery", async () => {
    const lcmEngine = lcm();
    const session = sessionOf(lcmEngine, 10, true);
    await lcmEngine.ingest(session.messages(), session.sessionId);
    const answer = await ask(session, { focus: "the zeta3 invariant" });
    expect(answer).toMatchObject({ accepted: true, focus: "the zeta3 invariant" });
    expect(answer.message).toContain("lcm_expand");

    const result = await session.maybeCompress({ promptTokens: 2_000 });
    expect(result.outcome).toBe("compressed");
    expect(server.current.requests.length).toBeGreaterThan(0);
    expect(server.current.requests.every((r) => r.rawBody.includes("the zeta3 invariant"))).toBe(true);
    expect(validateConversation(session.messages())).toEqual([]);
    const last = lcmEngine.getStatus().lastCompaction!;
    expect(last).toMatchObject({ messagesBefore: 41, fallbackUsed: false, inventedFactsRemoved: null, focus: "the zeta3 invariant", recoveryTool: "lcm_expand" });
    expect(last.tokensAfter).toBeLessThan(last.tokensBefore);
    expect(result.compactionNotice).toContain("lcm_expand reads them back");

    // too soon now; two model responses later it accepts again
    expect(await ask(session)).toMatchObject({ accepted: false, reason: "too_soon", turns_left: 2 });
    lcmEngine.updateFromResponse({ prompt_tokens: 2_500 }, session.sessionId);
    lcmEngine.updateFromResponse({ prompt_tokens: 2_600 }, session.sessionId);
    session.append(conversation(6, { system: false, from: 10 }));
    await lcmEngine.ingest(session.messages(), session.sessionId);
    expect(await ask(session)).toMatchObject({ accepted: true });
  });

  it("reports the fallback summaries in getStatus().lastCompaction when the summarizer failed", async () => {
    server.current.setDefault({ kind: "status", status: 500 });
    const lcmEngine = lcm();
    const session = sessionOf(lcmEngine, 10);
    expect((await session.maybeCompress({ force: true })).outcome).toBe("compressed");
    expect(lcmEngine.getStatus().lastCompaction).toMatchObject({ fallbackUsed: true, inventedFactsRemoved: null });
  });
});
