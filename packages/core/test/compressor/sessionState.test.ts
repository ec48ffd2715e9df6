import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS, type SummaryRequest, type Summarizer } from "../../src/summarizers/types.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../../test/support/openaiFixtureServer.js";
import { agentRounds, roughCounter, system, user } from "./fixtures.js";

const COMPRESSION = { protect_last_n: 4, threshold_tokens: 15_000, target_ratio: 0.1 };
/** A template summary whose every item carries `word`, so a leak shows up as that word. */
const summaryMentioning = (word: string) => SUMMARY_SECTIONS.map((h) => `${h}\n- ${word}`).join("\n");

let server: FixtureServer;
let clock: number;
let dir: string;

beforeAll(async () => {
  server = await startOpenAIFixtureServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.setDefault({ kind: "success", content: summaryMentioning("nothing-special") });
  clock = 9_000_000;
  dir = mkdtempSync(join(tmpdir(), "compressor-sessions-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function engine(options: { store?: ReturnType<typeof openSqliteStore> } = {}): ContextCompressor {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
  return new ContextCompressor({ compression: COMPRESSION, summarizer, tokenCounter: roughCounter, now: () => clock, ...options });
}

/** One user's conversation, every turn naming `who`. */
function conversationOf(who: string, rounds = 12): ChatMessage[] {
  return [system("You are a coding agent."), user(`I am ${who}; set up the ${who} project.`), ...agentRounds(rounds, 3_000, who)];
}

/** The prompt text of the summarizer requests the server received from `from` on. */
function promptsSince(from: number): string {
  return server.requests
    .slice(from)
    .map((r) => JSON.stringify(r.body?.messages ?? []))
    .join("\n");
}

describe("per-session compressor state", () => {
  it("never hands one session's summary to another session interleaved on the same engine", async () => {
    const e = engine();
    await e.onSessionStart("alice");
    await e.onSessionStart("bob");
    server.script({ kind: "success", content: summaryMentioning("alice-secret-417") });
    const aliceOut = await e.compress(conversationOf("alice"), { sessionId: "alice" });
    expect(e.lastCompression!.aborted).toBe(false);

    const bobStart = server.requests.length;
    server.script({ kind: "success", content: summaryMentioning("bob-secret-929") });
    await e.compress(conversationOf("bob"), { sessionId: "bob" });
    expect(server.requests.length).toBe(bobStart + 1);
    expect(promptsSince(bobStart)).not.toContain("alice-secret-417");
    expect(promptsSince(bobStart)).not.toContain("PREVIOUS SUMMARY");

    // alice's next compaction still updates alice's own summary (it is in her list)
    const aliceNext = server.requests.length;
    await e.compress([...aliceOut, ...agentRounds(12, 3_000, "alice-later")], { sessionId: "alice" });
    expect(promptsSince(aliceNext)).toContain("alice-secret-417");
    expect(promptsSince(aliceNext)).not.toContain("bob-secret-929");
  });

  it("does not reuse a summary for a list without one when the calls carry no session id", async () => {
    const e = engine();
    server.script({ kind: "success", content: summaryMentioning("alice-secret-417") });
    await e.compress(conversationOf("alice"));
    const bobStart = server.requests.length;
    await e.compress(conversationOf("bob"));
    expect(server.requests.length).toBe(bobStart + 1);
    expect(promptsSince(bobStart)).not.toContain("alice-secret-417");
  });

  it("reuses a session's own summary for its list that no longer holds the summary message", async () => {
    const e = engine();
    await e.onSessionStart("alice");
    server.script({ kind: "success", content: summaryMentioning("alice-secret-417") });
    await e.compress(conversationOf("alice"), { sessionId: "alice" });
    const next = server.requests.length;
    await e.compress(conversationOf("alice-again"), { sessionId: "alice" });
    expect(promptsSince(next)).toContain("alice-secret-417");
  });

  it("forgets a session's summary, cooldown and streaks at onSessionEnd", async () => {
    const e = engine();
    await e.onSessionStart("s");
    server.script({ kind: "success", content: summaryMentioning("first-life-311") });
    const out = await e.compress(conversationOf("carol"), { sessionId: "s" });
    server.script({ kind: "status", status: 500 });
    await e.compress([...out, ...agentRounds(12, 3_000, "carol-later")], { sessionId: "s" });
    expect(e.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 60 });
    expect(e.shouldCompressInfo(50_000, "s").reason).toBe("cooldown");

    await e.onSessionEnd("s", out);
    expect(e.shouldCompressInfo(50_000, "s")).toMatchObject({ reason: "ok", cooldownRemainingMs: 0 });
    await e.onSessionStart("s");
    const next = server.requests.length;
    await e.compress(conversationOf("dave"), { sessionId: "s" });
    expect(server.requests.length).toBe(next + 1);
    expect(promptsSince(next)).not.toContain("first-life-311");
  });

  it("keeps a session's cooldown and fallback streak across a restart on the same SQLite file", async () => {
    const path = join(dir, "sessions.db");
    const first = openSqliteStore(path);
    const e1 = engine({ store: first });
    await e1.onSessionStart("s");
    server.script({ kind: "status", status: 500 });
    await e1.compress(conversationOf("erin"), { sessionId: "s" });
    expect(e1.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 60 });
    first.close();

    clock += 10_000;
    const second = openSqliteStore(path);
    try {
      const e2 = engine({ store: second });
      await e2.onSessionStart("s");
      const info = e2.shouldCompressInfo(50_000);
      expect(info.reason).toBe("cooldown");
      expect(info.cooldownRemainingMs).toBe(50_000);
      // the streak survived too: one more fallback summary pauses automatic compaction
      clock += 60_000;
      server.script({ kind: "status", status: 500 });
      await e2.compress(conversationOf("erin"), { sessionId: "s" });
      expect(e2.lastCompression).toMatchObject({ fallbackUsed: true });
      expect(e2.shouldCompressInfo(50_000, "s").pausedBy).toBe("fallback");
      // another session on the same file starts clean
      expect(e2.shouldCompressInfo(50_000, "other")).toMatchObject({ reason: "ok", pausedBy: null });

      await e2.onSessionEnd("s", []);
      const e3 = engine({ store: second });
      expect(e3.shouldCompressInfo(50_000, "s")).toMatchObject({ reason: "ok", pausedBy: null, cooldownRemainingMs: 0 });
    } finally {
      second.close();
    }
  });

  it("keeps each CompactionSession's cooldown apart on one host, and across a host restart with the same store", async () => {
    const path = join(dir, "host.db");
    const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
    const model = { model: "test-model", contextLength: 200_000 };
    const startHost = (store: ReturnType<typeof openSqliteStore>) => createContextHost({ config: { compression: COMPRESSION } as never, rootDir: dir, summarizer, tokenCounter: roughCounter, model, store });
    const first = openSqliteStore(path);
    const host = await startHost(first);
    const alice = new CompactionSession({ host, store: first, platform: "cli", sessionId: "alice" });
    const bob = new CompactionSession({ host, store: first, platform: "cli", sessionId: "bob" });
    alice.append(conversationOf("alice"));
    bob.append(conversationOf("bob"));

    server.script({ kind: "status", status: 500 });
    const aliceResult = await alice.maybeCompress({ promptTokens: 50_000 });
    expect(aliceResult.report).toMatchObject({ fallbackUsed: true, cooldownSeconds: 60 });
    // alice's summarizer failure does not hold bob back
    const bobResult = await bob.maybeCompress({ promptTokens: 50_000 });
    expect(bobResult.outcome).toBe("compressed");
    expect(bobResult.report).toMatchObject({ fallbackUsed: false, summarizer: "openai:summary-model" });
    first.close();

    const second = openSqliteStore(path);
    try {
      const restarted = await startHost(second);
      const engine = restarted.engine as ContextCompressor;
      expect(engine.shouldCompressInfo(50_000, "alice")).toMatchObject({ reason: "cooldown", pausedBy: null });
      // bob is in no cooldown: it just compacted, so an estimate waits for the provider's real usage
      expect(engine.shouldCompressInfo(50_000, "bob").reason).toBe("awaiting_usage");
      engine.updateFromResponse({ prompt_tokens: 50_000, completion_tokens: 10 }, "bob");
      expect(engine.shouldCompressInfo(50_000, "bob").reason).toBe("ok");
    } finally {
      second.close();
    }
  });

  it("remembers a session's first summary across a restart on the same SQLite file, and hands it to later summaries as sessionStart", async () => {
    const path = join(dir, "sessions.db");
    const requests: SummaryRequest[] = [];
    const recording = (store: ReturnType<typeof openSqliteStore>) => {
      const inner = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });
      const summarizer: Summarizer = { name: "recording", summarize: (request, signal) => (requests.push(request), inner.summarize(request, signal)) };
      return new ContextCompressor({ compression: COMPRESSION, summarizer, tokenCounter: roughCounter, now: () => clock, store });
    };
    const first = openSqliteStore(path);
    const e1 = recording(first);
    await e1.onSessionStart("s");
    server.script({ kind: "success", content: summaryMentioning("setup-first-42") });
    await e1.compress(conversationOf("fay"), { sessionId: "s" });
    expect(requests[0]!.sessionStart).toBeUndefined();
    first.close();

    const second = openSqliteStore(path);
    try {
      const e2 = recording(second);
      await e2.onSessionStart("s");
      await e2.compress(conversationOf("fay", 16), { sessionId: "s" });
      expect(requests).toHaveLength(2);
      expect(requests[1]!.sessionStart).toContain("setup-first-42");
    } finally {
      second.close();
    }
  });
});
