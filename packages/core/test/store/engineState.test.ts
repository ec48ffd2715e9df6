import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SESSION_STORE_MIGRATIONS } from "../../src/store/schema.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engine-state-"));
  path = join(dir, "sessions.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Saving, replacing and clearing states is part of the store contract (contract/sessionStoreContract.ts).
describe("engine state in the SQLite session store", () => {
  it("adds the engine_state table to a version-3 file without touching its sessions", () => {
    const db = new Database(path);
    for (const step of SESSION_STORE_MIGRATIONS.filter((m) => m.version <= 3)) db.exec(step.sql);
    db.pragma("user_version = 3");
    db.prepare("INSERT INTO sessions (id, platform, created_at, updated_at) VALUES ('old', 'cli', 1, 1)").run();
    db.close();

    const store = openSqliteStore(path);
    try {
      expect(store.getSession("old")?.platform).toBe("cli");
      store.saveEngineState("compressor", "old", { fallbackStreak: 1 });
      expect(store.loadEngineState("compressor", "old")).toEqual({ fallbackStreak: 1 });
    } finally {
      store.close();
    }
  });
});
