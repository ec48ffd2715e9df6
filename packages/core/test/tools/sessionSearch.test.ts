/**
 * session_search over a real SQLite session store: discovery across sessions (archived turns included,
 * each hit with its neighbours and its session's first and last turns), scrolling around a message,
 * browsing recent sessions; offered by the built-in compressor only when a store is attached.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { COMPACT_CONTEXT_TOOL_NAME } from "../../src/engine/compactContextTool.js";
import { runSessionSearch, SESSION_SEARCH_TOOL_NAME } from "../../src/tools/sessionSearch.js";

const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });

let dir: string;
let store: SqliteSessionStore;
let clock: number;
let older: string;
let newer: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "session-search-"));
  clock = 1_700_000_000_000;
  store = openSqliteStore(join(dir, "sessions.db"), { now: () => (clock += 1_000) });
  older = store.createSession({ platform: "telegram", title: "flaky CI" }).id;
  store.appendMessages(older, [
    user("Why does the nightly build fail on arm64?"),
    assistant("The linker runs out of memory in cargo-llvm-cov."),
    user("Then cap the jobs at two."),
    assistant("Capped; the nightly build is green again."),
  ]);
  // The first three turns are compacted away; they must stay findable.
  store.archiveAndReplace(older, [user("[summary] arm64 nightly fixed by capping jobs"), assistant("Capped; the nightly build is green again.")]);
  newer = store.createSession({ platform: "cli", title: "parser port" }).id;
  store.appendMessages(newer, [user("Port the parser to Rust."), assistant("Started with the lexer.")]);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (args: unknown) => JSON.parse(await runSessionSearch(store, args)) as Record<string, any>;

describe("session_search", () => {
  it("finds a compacted turn of another session with the turns around it and that session's first and last turns", async () => {
    const result = await call({ query: "linker memory", window: 1 });
    expect(result.mode).toBe("search");
    expect(result.sessions).toHaveLength(1);
    const [session] = result.sessions;
    expect(session.session_id).toBe(older);
    expect(session.title).toBe("flaky CI");
    const [hit] = session.hits;
    expect(hit.seq).toBe(2);
    expect(hit.archived).toBe(true);
    expect(hit.around.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3]);
    expect(hit.around.every((m: { active: boolean }) => m.active === false)).toBe(true);
    expect(session.first.text).toContain("nightly build fail on arm64");
    expect(session.last.text).toContain("green again");
  });

  it("accepts any user text as a query, punctuation included", async () => {
    expect((await call({ query: "cargo-llvm-cov" })).sessions[0].hits[0].seq).toBe(2);
    expect((await call({ query: "a|b (((" })).sessions).toEqual([]);
  });

  it("scrolls around one message of a session, archived turns included", async () => {
    const result = await call({ session_id: older, around_seq: 3, window: 1 });
    expect(result.mode).toBe("scroll");
    expect(result.messages.map((m: { seq: number; active: boolean }) => [m.seq, m.active])).toEqual([[2, false], [3, false], [4, false]]);
  });

  it("browses the most recently updated sessions first, each with its first ask", async () => {
    const result = await call({ limit: 5 });
    expect(result.mode).toBe("recent");
    expect(result.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([newer, older]);
    expect(result.sessions[0]).toMatchObject({ title: "parser port", platform: "cli", messages: 2 });
    expect(result.sessions[0].first.text).toBe("Port the parser to Rust.");
    expect(result.sessions[1].messages).toBe(6);
  });

  it("answers bad arguments with an error naming the field, never a throw", async () => {
    expect(await call({ limit: 0 })).toMatchObject({ code: "invalid_arguments" });
    expect((await call({ limit: 0 })).error).toContain("limit");
    expect(await call({ around_seq: 3 })).toMatchObject({ code: "invalid_arguments", error: "session_search: around_seq needs session_id" });
    expect(await call({ session_id: "nope", around_seq: 1 })).toMatchObject({ code: "not_found" });
    expect(await call({ query: "x", colour: "red" })).toMatchObject({ code: "invalid_arguments" });
  });
});

describe("the built-in compressor and session_search", () => {
  it("offers session_search when a session store is attached and runs it", async () => {
    const engine = new ContextCompressor({ store });
    expect(engine.getToolSchemas().map((t) => t.function.name)).toEqual([SESSION_SEARCH_TOOL_NAME]);
    const result = JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "lexer" })) as { sessions: { session_id: string }[] };
    expect(result.sessions.map((s) => s.session_id)).toEqual([newer]);
  });

  it("offers no tool without a store", () => {
    expect(new ContextCompressor().getToolSchemas()).toEqual([]);
  });

  it("marks session_search read-only when it offers it, and compact_context not", () => {
    const engine = new ContextCompressor({ store, compression: { compact_tool: { enabled: true, min_turns_between: 1 } } });
    expect(engine.getToolSchemas().map((t) => [t.function.name, engine.toolTraits(t.function.name).readOnly === true])).toEqual([
      [SESSION_SEARCH_TOOL_NAME, true],
      [COMPACT_CONTEXT_TOOL_NAME, false],
    ]);
    expect(new ContextCompressor().toolTraits(SESSION_SEARCH_TOOL_NAME)).toEqual({});
  });
});

describe("SqliteSessionStore listing and ranged reads", () => {
  it("lists sessions with their counts, filtered by id or platform, and refuses a bad limit naming it", () => {
    expect(store.listSessions({ ids: [older] }).map((s) => [s.id, s.messageCount, s.activeCount, s.lastSeq])).toEqual([[older, 6, 2, 6]]);
    expect(store.listSessions({ platform: "cli" }).map((s) => s.id)).toEqual([newer]);
    expect(store.listSessions({ limit: 1, offset: 1 }).map((s) => s.id)).toEqual([older]);
    expect(() => store.listSessions({ limit: 0 })).toThrow(/limit must be at least 1/);
  });

  it("reads a seq range of active and archived rows and names an unknown session", () => {
    expect(store.messagesBySeq(older, 4, 9).map((m) => [m.seq, m.active])).toEqual([[4, false], [5, true], [6, true]]);
    expect(() => store.messagesBySeq("missing", 1, 2)).toThrow(/missing/);
  });
});
