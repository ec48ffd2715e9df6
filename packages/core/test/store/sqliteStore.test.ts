import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { conversation, describeSessionStoreContract } from "./contract/sessionStoreContract.js";
import { SESSION_STORE_SCHEMA_VERSION } from "../../src/store/schema.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";

let contractDir: string;
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

describeSessionStoreContract("SqliteSessionStore: the session store contract", {
  open: () => {
    contractDir = mkdtempSync(join(tmpdir(), "session-store-contract-"));
    return openSqliteStore(join(contractDir, "sessions.db"));
  },
  reopen: (opened) => {
    opened.close();
    return openSqliteStore(opened.path);
  },
  second: (opened) => openSqliteStore(opened.path),
  storedRowCount: (opened) => (opened.db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n,
  cleanup: () => rmSync(contractDir, { recursive: true, force: true }),
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

describe("SqliteSessionStore: the file", () => {
  it("is a WAL file at the current schema version", () => {
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
