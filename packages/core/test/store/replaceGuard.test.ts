import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { SESSION_STORE_MIGRATIONS, SESSION_STORE_SCHEMA_VERSION } from "../../src/store/schema.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";

const user = (content: string): ChatMessage => ({ role: "user", content });

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "session-store-replace-"));
  path = join(dir, "sessions.db");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A file with one session "s" whose two turns were compacted into one summary. */
function compactedFile(): void {
  const store = openSqliteStore(path);
  store.createSession({ id: "s", platform: "cli" });
  store.appendMessages("s", [user("migrate the flamingo database"), user("then add an index")]);
  store.archiveAndReplace("s", [user("[CONTEXT COMPACTION] moved data")]);
  store.close();
}

/** Runs `sql` on a fresh raw connection (SQLite defaults: recursive_triggers and foreign_keys off). */
function rawRun(sql: string): void {
  const db = new Database(path);
  try {
    db.prepare(sql).run();
  } finally {
    db.close();
  }
}

const MESSAGE_COLUMNS = "(id, session_id, seq, role, message_json, text, tokens, active, compacted, compaction_id, created_at)";

describe("SqliteSessionStore: REPLACE cannot delete what DELETE may not", () => {
  it("refuses INSERT OR REPLACE over an archived turn from a raw connection, keeping the turn and its search entry", () => {
    compactedFile();
    expect(() => rawRun(`INSERT OR REPLACE INTO messages ${MESSAGE_COLUMNS} VALUES (1, 's', 1, 'user', '{}', 'gone', 1, 0, 1, 1, 0)`)).toThrow(/messages: INSERT refused/);
    expect(() => rawRun(`REPLACE INTO messages ${MESSAGE_COLUMNS} VALUES (99, 's', 2, 'user', '{}', 'gone', 1, 0, 1, 1, 0)`)).toThrow(/messages: INSERT refused/);

    const store = openSqliteStore(path);
    try {
      expect(store.archivedMessages("s").map((r) => r.message)).toEqual([user("migrate the flamingo database"), user("then add an index")]);
      expect(store.search("flamingo", { sessionId: "s" })).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it("refuses REPLACE on the compaction log and on sessions, so neither the log nor a session is overwritten", () => {
    compactedFile();
    expect(() => rawRun("INSERT OR REPLACE INTO compactions (id, session_id, kind, at, in_place, messages_before, messages_after) VALUES (1, 's', 'compaction', 0, 1, 0, 0)")).toThrow(
      /compactions: INSERT refused/,
    );
    expect(() => rawRun("INSERT OR REPLACE INTO sessions (id, platform, created_at, updated_at) VALUES ('s', 'other', 0, 0)")).toThrow(/sessions: INSERT refused/);

    const store = openSqliteStore(path);
    try {
      expect(store.compactions("s")).toMatchObject([{ id: 1, messagesBefore: 2, messagesAfter: 1 }]);
      expect(store.getSession("s")).toMatchObject({ platform: "cli", compressionCount: 1, lastCompactionInPlace: true });
    } finally {
      store.close();
    }
  });

  it("refuses a second undo record for the same compaction even with REPLACE", () => {
    const store = openSqliteStore(path);
    store.createSession({ id: "s", platform: "cli" });
    store.appendMessages("s", [user("one"), user("two")]);
    const compaction = store.archiveAndReplace("s", [user("[CONTEXT COMPACTION] both")]);
    const undo = store.undoLastCompaction("s")!;
    store.close();
    expect(() =>
      rawRun(`INSERT OR REPLACE INTO compactions (session_id, kind, at, in_place, messages_before, messages_after, reverts_compaction_id) VALUES ('s', 'undo', 0, 1, 0, 0, ${compaction.id})`),
    ).toThrow(/compactions: INSERT refused/);
    const reopened = openSqliteStore(path);
    try {
      expect(reopened.compactions("s").map((c) => [c.id, c.kind])).toEqual([
        [compaction.id, "compaction"],
        [undo.undoId, "undo"],
      ]);
    } finally {
      reopened.close();
    }
  });

  it("runs its own connection with recursive_triggers on, so a REPLACE deletion would meet the DELETE guard too", () => {
    const store = openSqliteStore(path);
    try {
      expect(store.db.pragma("recursive_triggers", { simple: true })).toBe(1);
    } finally {
      store.close();
    }
  });

  it("upgrades a version-1 file in place: rows kept, REPLACE refused afterwards", () => {
    const v1 = SESSION_STORE_MIGRATIONS.find((m) => m.version === 1)!;
    const db = new Database(path);
    db.exec(v1.sql);
    db.pragma("user_version = 1");
    db.prepare("INSERT INTO sessions (id, platform, created_at, updated_at) VALUES ('old', 'cli', 1, 1)").run();
    db.prepare(`INSERT INTO messages ${MESSAGE_COLUMNS} VALUES (1, 'old', 1, 'user', '{"role":"user","content":"kestrel notes"}', 'kestrel notes', 3, 1, 0, NULL, 1)`).run();
    db.close();

    const store = openSqliteStore(path);
    try {
      expect(store.db.pragma("user_version", { simple: true })).toBe(SESSION_STORE_SCHEMA_VERSION);
      expect(SESSION_STORE_SCHEMA_VERSION).toBeGreaterThan(1);
      expect(store.activeMessages("old")).toEqual([user("kestrel notes")]);
      expect(store.search("kestrel")).toHaveLength(1);
    } finally {
      store.close();
    }
    expect(() => rawRun(`INSERT OR REPLACE INTO messages ${MESSAGE_COLUMNS} VALUES (1, 'old', 1, 'user', '{}', 'x', 1, 1, 0, NULL, 1)`)).toThrow(/messages: INSERT refused/);
  });
});
