import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidMessagesError, type ChatMessage } from "../../src/messages/schema.js";
import { SESSION_STORE_SCHEMA_VERSION } from "../../src/store/schema.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { SearchQueryError, SessionStoreError } from "../../src/store/types.js";

const system: ChatMessage = { role: "system", content: "You are a coding agent." };
const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
const summary = (text: string): ChatMessage => ({ role: "user", content: `[CONTEXT COMPACTION] ${text}` });

/** A conversation whose early turns mention a term the later ones do not. */
function conversation(): ChatMessage[] {
  return [
    system,
    user("Please migrate the flamingo database to Postgres"),
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "terminal", arguments: '{"command":"pg_dump flamingo"}' } }] },
    { role: "tool", tool_call_id: "call_1", content: "dump written to flamingo.sql" },
    assistant("The dump is ready."),
    user("Now add an index on users.email"),
    assistant("Added the index."),
  ];
}

let dir: string;
let path: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "session-store-"));
  path = join(dir, "sessions.db");
  store = openSqliteStore(path);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function rawCount(sql: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("SqliteSessionStore: messages", () => {
  it("returns the active list in order with every message exactly as appended, unknown fields included", () => {
    const session = store.createSession({ platform: "cli", title: "migration" });
    const odd: ChatMessage = { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:x" } }], vendor_extra: { a: [1, 2] } };
    const ids = store.appendMessages(session.id, [...conversation(), odd]);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(store.activeMessages(session.id)).toEqual([...conversation(), odd]);
    expect(store.activeRows(session.id).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(store.getSession(session.id)).toMatchObject({ platform: "cli", title: "migration", parentSessionId: null, compressionCount: 0, lastCompactionInPlace: null });
  });

  it("rejects an invalid message naming its index, and stores none of the batch", () => {
    const session = store.createSession({ platform: "cli" });
    const bad = [user("fine"), { role: "robot", content: "?" }] as unknown as ChatMessage[];
    expect(() => store.appendMessages(session.id, bad)).toThrow(InvalidMessagesError);
    expect(() => store.appendMessages(session.id, bad)).toThrow(/messages\[1\]\.role/);
    expect(store.activeMessages(session.id)).toEqual([]);
  });

  it("names the unknown session and refuses a taken session id", () => {
    expect(() => store.appendMessages("nope", [user("hi")])).toThrow(/appendMessages\('nope'\): unknown session "nope"/);
    store.createSession({ id: "s1", platform: "cli" });
    expect(() => store.createSession({ id: "s1", platform: "cli" })).toThrow(SessionStoreError);
    expect(() => store.createSession({ id: "s1", platform: "cli" })).toThrow(/session 's1' already exists/);
  });
});

describe("SqliteSessionStore: archiveAndReplace", () => {
  it("archives every original row under the compaction id and makes the new list active", () => {
    const session = store.createSession({ platform: "cli" });
    const original = conversation();
    store.appendMessages(session.id, original);
    const compacted = [system, summary("migrated a database; added an index"), assistant("Added the index.")];
    const compaction = store.archiveAndReplace(session.id, compacted, { summary: "migrated a database", report: { droppedMessages: 5 } });

    const archived = store.archivedMessages(session.id, compaction.id);
    expect(archived).toHaveLength(original.length);
    expect(archived.map((r) => r.message)).toEqual(original);
    expect(archived.every((r) => !r.active && r.compacted && r.compactionId === compaction.id)).toBe(true);
    expect(store.activeMessages(session.id)).toEqual(compacted);
    expect(rawCount("SELECT COUNT(*) AS n FROM messages")).toBe(original.length + compacted.length);
    expect(compaction).toMatchObject({ kind: "compaction", inPlace: true, messagesBefore: 7, messagesAfter: 3, summary: "migrated a database", report: { droppedMessages: 5 }, undoneByCompactionId: null });
    expect(store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
  });

  it("changes nothing when the new list is invalid (one transaction)", () => {
    const session = store.createSession({ platform: "cli" });
    store.appendMessages(session.id, conversation());
    expect(() => store.archiveAndReplace(session.id, [{ role: "user" } as unknown as ChatMessage])).toThrow(/archiveAndReplace\('.*'\).*messages\[0\]\.content/s);
    expect(() => store.archiveAndReplace(session.id, [])).toThrow(/new message list is empty/);
    expect(store.activeMessages(session.id)).toEqual(conversation());
    expect(store.compactions(session.id)).toEqual([]);
  });
});

describe("SqliteSessionStore: nothing is ever deleted", () => {
  it("has the database itself refuse DELETE on messages, and UPDATE of anything but the flags", () => {
    const session = store.createSession({ platform: "cli" });
    store.appendMessages(session.id, conversation());
    const db = new Database(path);
    try {
      expect(() => db.prepare("DELETE FROM messages").run()).toThrow(/messages: DELETE refused/);
      expect(() => db.prepare("DELETE FROM sessions").run()).toThrow(/sessions: DELETE refused/);
      expect(() => db.prepare("UPDATE messages SET message_json = '{}' WHERE seq = 1").run()).toThrow(/only active, compacted and compaction_id may change/);
      expect(db.prepare("UPDATE messages SET active = 0, compacted = 1 WHERE seq = 1").run().changes).toBe(1);
    } finally {
      db.close();
    }
    expect(rawCount("SELECT COUNT(*) AS n FROM messages")).toBe(7);
  });
});

describe("SqliteSessionStore: search", () => {
  it("finds a term that exists only in archived turns and says the hit is archived", () => {
    const session = store.createSession({ platform: "cli" });
    store.appendMessages(session.id, conversation());
    const compaction = store.archiveAndReplace(session.id, [system, summary("moved the data"), assistant("Added the index.")]);

    const hits = store.search("flamingo", { sessionId: session.id });
    expect(hits.length).toBe(3); // the user ask, the tool call arguments and the tool result
    for (const hit of hits) {
      expect(hit).toMatchObject({ sessionId: session.id, archived: true, active: false, compacted: true, compactionId: compaction.id });
      expect(hit.snippet).toContain(">>>flamingo<<<");
    }
    expect(hits.map((h) => h.seq).sort()).toEqual([2, 3, 4]);
    expect(store.search("flamingo", { sessionId: session.id, includeArchived: false })).toEqual([]);
    const index = store.search("index", { sessionId: session.id });
    expect(index.some((h) => h.active && !h.archived)).toBe(true);
    expect(index.some((h) => h.archived)).toBe(true);
  });

  it("searches every session unless one is named, and honours limit", () => {
    const a = store.createSession({ platform: "cli" });
    const b = store.createSession({ platform: "telegram" });
    store.appendMessages(a.id, [user("deploy the kestrel service")]);
    store.appendMessages(b.id, [user("kestrel logs look fine"), user("kestrel restarted")]);
    expect(store.search("kestrel").map((h) => h.sessionId).sort()).toEqual([a.id, b.id, b.id].sort());
    expect(store.search("kestrel", { sessionId: a.id })).toHaveLength(1);
    expect(store.search("kestrel", { limit: 1 })).toHaveLength(1);
    expect(store.search('"kestrel restarted"')).toHaveLength(1);
    expect(store.search("kest*")).toHaveLength(3);
  });

  it("refuses an empty query and bad options with readable errors", () => {
    expect(() => store.search("   ")).toThrow(SearchQueryError);
    expect(() => store.search("   ")).toThrow(/the query is empty/);
    expect(() => store.search("flamingo", { limit: 0 })).toThrow(/at least 1[\s\S]*at limit/);
  });
});

describe("SqliteSessionStore: undo", () => {
  it("restores the exact previous list, keeps later turns after it, and still deletes nothing", () => {
    const session = store.createSession({ platform: "cli" });
    const original = conversation();
    store.appendMessages(session.id, original);
    const compaction = store.archiveAndReplace(session.id, [system, summary("all of it"), assistant("Added the index.")]);
    const later = [user("And a unique constraint too"), assistant("Done.")];
    store.appendMessages(session.id, later);
    const rowsBefore = rawCount("SELECT COUNT(*) AS n FROM messages");

    const undo = store.undoLastCompaction(session.id);
    expect(undo).toMatchObject({ undoneCompactionId: compaction.id, restored: 7, archived: 3 });
    expect(store.activeMessages(session.id)).toEqual([...original, ...later]);
    expect(rawCount("SELECT COUNT(*) AS n FROM messages")).toBe(rowsBefore);
    expect(store.archivedMessages(session.id, undo!.undoId).map((r) => r.message)).toEqual([system, summary("all of it"), assistant("Added the index.")]);
    expect(store.getSession(session.id)).toMatchObject({ compressionCount: 0, lastCompactionInPlace: null });
    expect(store.compactions(session.id).map((c) => [c.kind, c.undoneByCompactionId, c.revertsCompactionId])).toEqual([
      ["compaction", undo!.undoId, null],
      ["undo", null, compaction.id],
    ]);
    expect(store.undoLastCompaction(session.id)).toBeUndefined();
  });

  it("undoes two stacked compactions one at a time, back to the original list", () => {
    const session = store.createSession({ platform: "cli" });
    const original = conversation();
    store.appendMessages(session.id, original);
    const first = [system, summary("first"), assistant("Added the index.")];
    store.archiveAndReplace(session.id, first);
    store.appendMessages(session.id, [user("more work")]);
    const afterFirst = store.activeMessages(session.id);
    store.archiveAndReplace(session.id, [system, summary("second")]);

    store.undoLastCompaction(session.id);
    expect(store.activeMessages(session.id)).toEqual(afterFirst);
    expect(store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
    store.undoLastCompaction(session.id);
    expect(store.activeMessages(session.id)).toEqual([...original, user("more work")]);
  });
});

describe("SqliteSessionStore: rotation", () => {
  it("creates a child session linked by parent_session_id and leaves the parent as it was", () => {
    const parent = store.createSession({ platform: "cli", title: "work" });
    store.appendMessages(parent.id, conversation());
    const { session: child, compaction } = store.rotateSession(parent.id, [system, summary("rotated")], { summary: "rotated" });
    expect(child).toMatchObject({ parentSessionId: parent.id, platform: "cli", title: "work", compressionCount: 1, lastCompactionInPlace: false });
    expect(compaction).toMatchObject({ sessionId: child.id, inPlace: false, messagesBefore: 7, messagesAfter: 2 });
    expect(store.activeMessages(parent.id)).toEqual(conversation());
    expect(store.activeMessages(child.id)).toEqual([system, summary("rotated")]);
    expect(store.childSessions(parent.id).map((s) => s.id)).toEqual([child.id]);
    expect(() => store.undoLastCompaction(child.id)).toThrow(/created by rotation from/);
  });
});

describe("SqliteSessionStore: the file", () => {
  it("gives the same active list, flags and search after reopening", () => {
    const session = store.createSession({ platform: "cli" });
    store.appendMessages(session.id, conversation());
    store.archiveAndReplace(session.id, [system, summary("kept")]);
    const active = store.activeMessages(session.id);
    store.close();

    store = openSqliteStore(path);
    expect(store.activeMessages(session.id)).toEqual(active);
    expect(store.archivedMessages(session.id)).toHaveLength(7);
    expect(store.search("flamingo", { sessionId: session.id }).every((h) => h.archived)).toBe(true);
    expect(store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
    const db = new Database(path, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(SESSION_STORE_SCHEMA_VERSION);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("refuses a file written by a newer schema, naming the file", () => {
    store.close();
    const db = new Database(path);
    db.pragma(`user_version = ${SESSION_STORE_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteStore(path)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: session store schema version ${SESSION_STORE_SCHEMA_VERSION + 1} is newer`));
    store = openSqliteStore(":memory:");
  });
});
