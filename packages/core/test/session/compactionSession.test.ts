import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { createHostHooks, type SessionCompressEvent } from "../../src/host/hooks.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";
import { STUB_TOOL_RESULT } from "../../src/messages/toolPairs.js";
import { validateConversation } from "../../src/messages/validate.js";
import { agentRounds, assistant, call, system, user } from "../compressor/fixtures.js";

/** Small budgets so a few rounds of tool output are worth compressing. */
const COMPRESSION = { protect_last_n: 4, threshold_tokens: 4_000 };
const MODEL = { model: "test-model", contextLength: 200_000 };

let dir: string;
let path: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "compaction-session-"));
  path = join(dir, "sessions.db");
  store = openSqliteStore(path);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function compressor(extra: Partial<ConstructorParameters<typeof ContextCompressor>[0]> = {}): ContextCompressor {
  return new ContextCompressor({ compression: COMPRESSION, tokenCounter: new RoughTokenCounter(), model: MODEL, summarizer: new ExtractiveSummarizer(), ...extra });
}

function rowCount(): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("CompactionSession: in place", () => {
  it("keeps one session id across 3 compactions and emits the exact session:compress payloads", async () => {
    const hooks = createHostHooks();
    const events: SessionCompressEvent[] = [];
    hooks.sessionCompress.tap("test", (event) => void events.push(event));
    const session = new CompactionSession({ engine: compressor(), store, platform: "cli", hooks });
    const id = session.sessionId;
    session.append([system("You are a coding agent."), ...agentRounds(8, 2_000, "first")]);

    const results = [];
    for (let i = 0; i < 3; i++) {
      const result = await session.maybeCompress({ force: true });
      results.push(result);
      session.append(agentRounds(6, 2_000, `after${i}`));
    }

    expect(results.map((r) => r.outcome)).toEqual(["compressed", "compressed", "compressed"]);
    expect(results.map((r) => r.sessionId)).toEqual([id, id, id]);
    expect(session.sessionId).toBe(id);
    expect(events).toEqual([1, 2, 3].map((n) => ({ platform: "cli", session_id: id, old_session_id: "", in_place: true, compression_count: n })));
    expect(results.map((r) => r.warning)).toEqual([undefined, "Session compressed 2 times — accuracy may degrade.", "Session compressed 3 times — accuracy may degrade."]);
    expect(session.lastCompactionInPlace).toBe(true);
    expect(store.childSessions(id)).toEqual([]);
    expect(store.getSession(id)).toMatchObject({ compressionCount: 3, lastCompactionInPlace: true, parentSessionId: null });
    const log = store.compactions(id);
    expect(log.map((c) => c.inPlace)).toEqual([true, true, true]);
    expect(log[0]!.summary).toEqual(expect.stringContaining("first"));
    expect(log[0]!.report).toMatchObject({ aborted: false, compressionNumber: 1 });
    // every turn ever appended is still stored: the first compaction archived all 33 originals
    expect(store.archivedMessages(id, log[0]!.id)).toHaveLength(1 + 8 * 4);
    const archivedHits = store.search('"first 3"', { sessionId: id }).filter((h) => h.archived);
    expect(archivedHits.some((h) => h.seq <= 33 && h.compactionId === log[0]!.id)).toBe(true);
  });

  it("undoes the last compaction back to the exact list it replaced", async () => {
    const session = new CompactionSession({ engine: compressor(), store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(8, 2_000)]);
    const before = session.messages();
    const result = await session.maybeCompress({ force: true });
    expect(result.messagesAfter).toBeLessThan(before.length);
    expect(session.undoLastCompaction()).toMatchObject({ restored: before.length });
    expect(session.messages()).toEqual(before);
    expect(session.lastCompactionInPlace).toBeNull();
  });

  it("resumes a session from the reopened file with the same list and mode", async () => {
    const session = new CompactionSession({ engine: compressor(), store, platform: "cli", sessionId: "chat-42" });
    session.append([system("sys"), ...agentRounds(8, 2_000)]);
    await session.maybeCompress({ force: true });
    const active = session.messages();
    store.close();

    store = openSqliteStore(path);
    const resumed = new CompactionSession({ engine: compressor(), store, platform: "cli", sessionId: "chat-42" });
    expect(resumed.sessionId).toBe("chat-42");
    expect(resumed.messages()).toEqual(active);
    expect(resumed.lastCompactionInPlace).toBe(true);
  });

  it("does nothing below the threshold unless forced", async () => {
    const session = new CompactionSession({ engine: compressor(), store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(8, 2_000)]);
    const result = await session.maybeCompress({ promptTokens: 100 });
    expect(result).toMatchObject({ outcome: "not_needed", compressionCount: 0, messagesAfter: 33 });
    expect(store.compactions(session.sessionId)).toEqual([]);
  });
});

describe("CompactionSession: rotation (compression.in_place: false)", () => {
  it("creates a new session per compaction, linked by parent ids, with old_session_id in the event", async () => {
    const yaml = "compression:\n  in_place: false\n  protect_last_n: 4\n  threshold_tokens: 4000\n";
    const host = await createContextHost({ config: yaml, rootDir: dir, summarizer: new ExtractiveSummarizer(), tokenCounter: new RoughTokenCounter(), model: MODEL });
    const events: SessionCompressEvent[] = [];
    host.hooks.sessionCompress.tap("test", (event) => void events.push(event));
    const session = new CompactionSession({ host, store, platform: "telegram" });
    expect(session.inPlace).toBe(false);
    const root = session.sessionId;
    const original = [system("sys"), ...agentRounds(8, 2_000)];
    session.append(original);

    const first = await session.maybeCompress({ force: true });
    session.append(agentRounds(6, 2_000, "more"));
    const second = await session.maybeCompress({ force: true });

    const child = first.sessionId;
    const grandchild = second.sessionId;
    expect(new Set([root, child, grandchild]).size).toBe(3);
    expect(events).toEqual([
      { platform: "telegram", session_id: child, old_session_id: root, in_place: false, compression_count: 1 },
      { platform: "telegram", session_id: grandchild, old_session_id: child, in_place: false, compression_count: 2 },
    ]);
    expect(store.getSession(child)!.parentSessionId).toBe(root);
    expect(store.getSession(grandchild)!.parentSessionId).toBe(child);
    expect(store.getSession(grandchild)).toMatchObject({ compressionCount: 2, lastCompactionInPlace: false });
    expect(second.warning).toBe("Session compressed 2 times — accuracy may degrade.");
    expect(session.lastCompactionInPlace).toBe(false);
    expect(session.sessionId).toBe(grandchild);
    expect(store.activeMessages(root)).toEqual(original);
    expect(store.archivedMessages(root)).toEqual([]);
  });
});

describe("CompactionSession: aborted compaction", () => {
  it("writes nothing and says no messages were dropped when the summarizer fails with abort_on_summary_failure", async () => {
    const failing: Summarizer = {
      name: "down",
      async summarize(): Promise<string> {
        throw new Error("401 Unauthorized");
      },
    };
    const events: SessionCompressEvent[] = [];
    const hooks = createHostHooks();
    hooks.sessionCompress.tap("test", (event) => void events.push(event));
    const engine = compressor({ summarizer: failing, compression: { ...COMPRESSION, abort_on_summary_failure: true } });
    const session = new CompactionSession({ engine, store, platform: "cli", hooks });
    const original: ChatMessage[] = [system("sys"), ...agentRounds(8, 2_000)];
    session.append(original);
    const rows = rowCount();

    const result = await session.maybeCompress({ force: true });
    expect(result.outcome).toBe("aborted");
    expect(result.notice).toBe("No messages were dropped — conversation is unchanged");
    expect(result.reason).toEqual(expect.any(String));
    expect(result.compressionCount).toBe(0);
    expect(events).toEqual([]);
    expect(rowCount()).toBe(rows);
    expect(store.compactions(session.sessionId)).toEqual([]);
    expect(session.messages()).toEqual(original);
    expect(session.lastCompactionInPlace).toBeNull();
  });

  it("writes nothing when an engine hands back the same list", async () => {
    class KeepEverything extends ContextEngine {
      readonly name = "keep";
      shouldCompress(): boolean {
        return true;
      }
      async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        return messages.map((m) => ({ ...m }));
      }
    }
    const session = new CompactionSession({ engine: new KeepEverything(), store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(2)]);
    const rows = rowCount();
    const result = await session.maybeCompress();
    expect(result).toMatchObject({ outcome: "aborted", notice: "No messages were dropped — conversation is unchanged" });
    expect(rowCount()).toBe(rows);
    expect(store.compactions(session.sessionId)).toEqual([]);
  });

  describe("an engine that hands back an invalid list", () => {
    /** A plugin-style engine whose compress() returns `output` whatever it is given. */
    function engineReturning(output: unknown): ContextEngine {
      return new (class extends ContextEngine {
        readonly name = "sloppy-plugin";
        shouldCompress(): boolean {
          return true;
        }
        async compress(): Promise<ChatMessage[]> {
          return output as ChatMessage[];
        }
      })();
    }

    async function compactWith(output: unknown) {
      const session = new CompactionSession({ engine: engineReturning(output), store, platform: "cli" });
      const original: ChatMessage[] = [system("sys"), ...agentRounds(3)];
      session.append(original);
      const rows = rowCount();
      const result = await session.maybeCompress({ force: true });
      expect(session.messages()).toEqual(original);
      expect(rowCount()).toBe(rows);
      expect(store.compactions(session.sessionId)).toEqual([]);
      return result;
    }

    it("keeps the conversation when the list breaks a provider rule, naming the engine and the problem", async () => {
      const orphan: ChatMessage = { role: "tool", tool_call_id: "call_nowhere", content: "output of a call that is not there" };
      const result = await compactWith([system("sys"), { role: "user", content: "[CONTEXT COMPACTION] summary" }, orphan]);
      expect(result).toMatchObject({ outcome: "aborted", notice: "No messages were dropped — conversation is unchanged", compressionCount: 0 });
      expect(result.reason).toMatch(/engine 'sloppy-plugin'/);
      expect(result.reason).toMatch(/messages\[2\] \(tool, tool_call_id "call_nowhere"\)/);
    });

    it("keeps the conversation when the list is not even chat messages, naming the engine and the field", async () => {
      const result = await compactWith([{ role: "robot", content: "beep" }]);
      expect(result.outcome).toBe("aborted");
      expect(result.reason).toMatch(/engine 'sloppy-plugin'/);
      expect(result.reason).toMatch(/messages\[0\]\.role/);
    });

    it("keeps the conversation when compress() returns something that is not a list", async () => {
      const result = await compactWith({ messages: [] });
      expect(result.outcome).toBe("aborted");
      expect(result.reason).toMatch(/engine 'sloppy-plugin'.*not a list/);
    });
  });
});

/** A short conversation (nothing to compact) with a call whose result is gone and a result whose call is gone. */
const orphan: ChatMessage = { role: "tool", tool_call_id: "call_gone", content: "stray output" };
const withOrphans = (): ChatMessage[] => [system("s"), user("list the files"), call("terminal", { command: "ls" }, "call_lost"), assistant("Here they are."), orphan, user("thanks")];

describe("CompactionSession: tool pairs repaired while nothing was compacted", () => {
  it("writes the repair once, logging no compaction, so the next attempt does no repair", async () => {
    const engine = new ContextCompressor({ tokenCounter: new RoughTokenCounter(), model: { model: "test-model", contextLength: 200_000 } });
    const session = new CompactionSession({ engine, store, platform: "cli" });
    session.append(withOrphans());

    const first = await session.maybeCompress({ force: true });
    expect(first).toMatchObject({ outcome: "aborted", compressionCount: 0, repairedToolPairs: 2, messagesBefore: 6, messagesAfter: 6 });
    expect(engine.lastCompression).toMatchObject({ failureKind: "nothing_to_compress", repairedToolPairs: 2 });
    const stored = session.messages();
    expect(validateConversation(stored)).toEqual([]);
    expect(stored.find((m) => m.tool_call_id === "call_lost")?.content).toBe(STUB_TOOL_RESULT);
    expect(store.compactions(session.sessionId)).toEqual([]);
    // nothing deleted: the orphan stays, archived
    expect(store.archivedMessages(session.sessionId).map((r) => r.message)).toContainEqual(orphan);

    session.append([assistant("You're welcome.")]);
    const second = await session.maybeCompress({ force: true });
    expect(second.outcome).toBe("aborted");
    expect(second.repairedToolPairs).toBeUndefined();
    expect(engine.lastCompression!.repairedToolPairs).toBe(0);
    expect(session.messages()).toEqual([...stored, assistant("You're welcome.")]);
  });
});
