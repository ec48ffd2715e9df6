import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { appendInProcess } from "./support/appendProcess.js";

let dir: string;
let path: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-processes-"));
  path = join(dir, "sessions.db");
  store = openSqliteStore(path);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteSessionStore: several processes on one file", () => {
  it("loses no append when two processes append to one session at the same time", async () => {
    const session = store.createSession({ id: "shared", platform: "cli" });
    const turns = 400;

    const startAt = Date.now() + 3_000;
    const [a, b] = await Promise.all([appendInProcess(path, session.id, turns, "A", startAt), appendInProcess(path, session.id, turns, "B", startAt)]);

    expect(a.failures.slice(0, 3)).toEqual([]);
    expect(b.failures.slice(0, 3)).toEqual([]);
    const texts = store.activeMessages(session.id).map((m) => m.content as string);
    expect(texts).toHaveLength(2 * turns);
    expect(new Set(texts).size).toBe(2 * turns);
    for (const tag of ["A", "B"]) {
      // each process's turns are all there, once, in the order it appended them
      expect(texts.filter((t) => t.startsWith(tag))).toEqual(Array.from({ length: turns }, (_, i) => `${tag} turn ${i}`));
    }
  }, 180_000);

  it("lets two processes open a new store file at the same time, both migrating it without an error", async () => {
    store.close();
    rmSync(path, { force: true });
    const turns = 50;

    const startAt = Date.now() + 3_000;
    const [a, b] = await Promise.all([appendInProcess(path, "a", turns, "A", startAt), appendInProcess(path, "b", turns, "B", startAt)]);

    expect([a.appended, b.appended]).toEqual([turns, turns]);
    store = openSqliteStore(path);
    expect(store.activeMessages("a")).toHaveLength(turns);
    expect(store.activeMessages("b")).toHaveLength(turns);
  }, 180_000);
});
