import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appServerThread, type AppServerRpcClient } from "../../src/codex/appServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { createHostHooks, type SessionCompressEvent } from "../../src/host/hooks.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";
import { agentRounds, system } from "../compressor/fixtures.js";

const APP_SERVER_MODEL = { model: "gpt-5.5", contextLength: 272_000, provider: "openai-codex", apiMode: "codex_app_server" };

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "app-server-session-"));
  store = openSqliteStore(join(dir, "sessions.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An in-process app-server JSON-RPC endpoint: each thread/compact/start finishes when `finish()` is called. */
function appServer() {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const waiting: Array<() => void> = [];
  const client: AppServerRpcClient = {
    request(method, params) {
      calls.push([method, params]);
      return new Promise((resolve) => waiting.push(() => resolve({})));
    },
  };
  return { client, calls, finishAll: () => waiting.splice(0).forEach((finish) => finish()) };
}

function session(mode: "native" | "hermes" | "off", server = appServer(), events: SessionCompressEvent[] = []) {
  const hooks = createHostHooks();
  hooks.sessionCompress.tap("test", (event) => void events.push(event));
  const engine = new ContextCompressor({
    compression: { codex_app_server_auto: mode, protect_last_n: 4 },
    model: APP_SERVER_MODEL,
    tokenCounter: new RoughTokenCounter(),
    summarizer: new ExtractiveSummarizer(),
  });
  const s = new CompactionSession({ engine, store, platform: "cli", hooks, appServerThread: appServerThread(server.client, "thr_7") });
  s.append([system("You are codex."), ...agentRounds(8, 2_000)]);
  return { s, server, events };
}

describe("CompactionSession on a Codex app-server thread", () => {
  it("delegates a manual /compress to the app-server, waits for it, and leaves the local transcript intact", async () => {
    const { s, server, events } = session("native");
    const transcript = s.messages();

    const running = s.maybeCompress({ force: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.calls).toEqual([["thread/compact/start", { threadId: "thr_7" }]]);
    expect(events).toEqual([]);
    server.finishAll();
    const outcome = await running;

    expect(outcome).toMatchObject({ outcome: "compressed", inPlace: true, oldSessionId: "", compressionCount: 1, messagesBefore: 33, messagesAfter: 33 });
    expect(s.messages()).toEqual(transcript);
    expect(store.archivedMessages(s.sessionId)).toEqual([]);
    expect(store.compactions(s.sessionId)).toMatchObject([{ kind: "compaction", inPlace: true, messagesBefore: 33, messagesAfter: 33, transcriptRewritten: false }]);
    expect(events).toEqual([{ platform: "cli", session_id: s.sessionId, old_session_id: "", in_place: true, compression_count: 1 }]);
    expect(s.lastCompactionInPlace).toBe(true);
  });

  it("in native mode starts nothing itself and records the compactions the app-server reports", async () => {
    const { s, server, events } = session("native");
    const transcript = s.messages();
    expect(await s.maybeCompress({ promptTokens: 260_000 })).toMatchObject({ outcome: "not_needed", compressionCount: 0 });
    expect(server.calls).toEqual([]);

    s.recordAppServerCompaction();
    const second = s.recordAppServerCompaction();

    expect(second).toMatchObject({ outcome: "compressed", compressionCount: 2, warning: "Session compressed 2 times — accuracy may degrade." });
    expect(events.map((e) => e.compression_count)).toEqual([1, 2]);
    expect(s.messages()).toEqual(transcript);
  });

  it("in hermes mode starts app-server compaction once the host's threshold is reached, never below it", async () => {
    const { s, server } = session("hermes");
    expect(await s.maybeCompress({ promptTokens: 100_000 })).toMatchObject({ outcome: "not_needed" });
    expect(server.calls).toEqual([]);

    const running = s.maybeCompress({ promptTokens: 240_000 });
    await new Promise((resolve) => setImmediate(resolve));
    server.finishAll();
    expect(await running).toMatchObject({ outcome: "compressed", compressionCount: 1 });
    expect(server.calls).toHaveLength(1);
  });

  it("in off mode starts no automatic compaction, while a manual /compress still delegates", async () => {
    const { s, server } = session("off");
    expect(await s.maybeCompress({ promptTokens: 270_000 })).toMatchObject({ outcome: "not_needed" });
    expect(server.calls).toEqual([]);
    const running = s.maybeCompress({ force: true });
    await new Promise((resolve) => setImmediate(resolve));
    server.finishAll();
    expect((await running).outcome).toBe("compressed");
  });

  it("records nothing when the app-server compaction fails", async () => {
    const failing: AppServerRpcClient = { request: () => Promise.reject(new Error("thread busy")) };
    const { s, events } = session("native", { client: failing, calls: [], finishAll: () => {} });
    await expect(s.maybeCompress({ force: true })).rejects.toThrow("thread busy");
    expect(store.compactions(s.sessionId)).toEqual([]);
    expect(events).toEqual([]);
  });

  it("refuses to undo an app-server compaction, since the local transcript was never rewritten", async () => {
    const { s } = session("native");
    s.recordAppServerCompaction();
    expect(() => s.undoLastCompaction()).toThrow(/done by the model's server on its own thread/);
    expect(store.getSession(s.sessionId)!.compressionCount).toBe(1);
  });

  it("says which option is missing when an app-server session has no thread to delegate to", async () => {
    const engine = new ContextCompressor({ model: APP_SERVER_MODEL, summarizer: new ExtractiveSummarizer() });
    const s = new CompactionSession({ engine, store, platform: "cli" });
    s.append([system("sys"), ...agentRounds(2)]);
    await expect(s.maybeCompress({ force: true })).rejects.toThrow(/api_mode: codex_app_server.*appServerThread/);
    expect(store.compactions(s.sessionId)).toEqual([]);
  });
});
