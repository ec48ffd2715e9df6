import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { MAX_QUERY_TERMS } from "../../src/store/ftsQuery.js";
import { planSearchQuery } from "../../src/store/search.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";

const user = (content: string): ChatMessage => ({ role: "user", content });

let dir: string;
let store: SqliteSessionStore;
let sessionId: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-search-"));
  store = openSqliteStore(join(dir, "sessions.db"));
  sessionId = store.createSession({ platform: "cli" }).id;
  store.appendMessages(sessionId, [
    user("run cargo-llvm-cov over the crate"),
    user("pick a|b from the menu"),
    user("pg_dump flamingo: done (nightly)"),
    user('she said "hello" to the *star* - twice'),
  ]);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteSessionStore.search: any user text", () => {
  it("accepts text FTS5 cannot parse and finds it as words", () => {
    const inputs = ["cargo-llvm-cov", "a|b", '"unclosed phrase', '"hello', "flamingo AND", "(flamingo", "pg_dump:", "*star*", "- twice", "flamingo)", "NOT", "NEAR(", "col:flamingo", "*", "--", "\"\"", "a OR"];
    for (const input of inputs) expect(() => store.search(input), input).not.toThrow();
    expect(store.search("cargo-llvm-cov").map((h) => h.seq)).toEqual([1]);
    expect(store.search("a|b").map((h) => h.seq)).toEqual([2]);
    expect(store.search("(flamingo").map((h) => h.seq)).toEqual([3]);
    expect(store.search('"hello').map((h) => h.seq)).toEqual([4]);
    expect(store.search("*")).toEqual([]);
  });

  it("still honours FTS5 syntax when the query parses", () => {
    expect(store.search('"cargo llvm"').map((h) => h.seq)).toEqual([1]);
    expect(store.search("flamin*").map((h) => h.seq)).toEqual([3]);
    expect(store.search("flamingo OR menu").map((h) => h.seq).sort()).toEqual([2, 3]);
  });
});

describe("SqliteSessionStore.search: many terms", () => {
  it("searches an 800-word OR query as its first 64 distinct words and says so", () => {
    const words = Array.from({ length: 800 }, (_, i) => `filler${i}`);
    words[3] = "flamingo";
    words[700] = "menu";
    const query = [...words, ...words].join(" OR ");
    const plan = planSearchQuery(query);
    expect(plan).toMatchObject({ raw: undefined, termsGiven: 800, termsUsed: MAX_QUERY_TERMS });
    expect(plan.note).toMatch(/800 distinct words; only the first 64 were searched/);
    // word 4 is searched, word 701 was cut
    expect(store.search(query).map((h) => h.seq)).toEqual([3]);
  });

  it("runs a query of at most 64 words as written", () => {
    const plan = planSearchQuery("flamingo OR menu flamingo");
    expect(plan).toMatchObject({ raw: "flamingo OR menu flamingo", termsGiven: 2, termsUsed: 2, note: undefined });
  });
});
