/**
 * Sessions belong to someone, on the SQLite store: the scope isolation contract, the migration of a
 * database written before scopes, and the built-in engine's session_search answering from the calling
 * session's scope.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { createContextHost } from "../../src/host/createContextHost.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { SESSION_STORE_MIGRATIONS } from "../../src/store/schema.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { SESSION_SEARCH_TOOL_NAME } from "../../src/tools/sessionSearch.js";
import { BOB_MARKER, describeScopeIsolation, seedTwoScopes } from "./contract/scopeIsolationContract.js";

let contractDir: string;
describeScopeIsolation("SqliteSessionStore: sessions belong to someone", {
  open: () => {
    contractDir = mkdtempSync(join(tmpdir(), "scopes-contract-"));
    return openSqliteStore(join(contractDir, "sessions.db"));
  },
  cleanup: () => rmSync(contractDir, { recursive: true, force: true }),
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scopes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteSessionStore: scopes in the file", () => {
  it("migrates a database written before scopes: its sessions get the default scope, which is fixed once written", () => {
    const path = join(dir, "old.db");
    const db = new Database(path);
    for (const step of SESSION_STORE_MIGRATIONS.filter((m) => m.version <= 4)) db.exec(step.sql);
    db.pragma("user_version = 4");
    db.prepare("INSERT INTO sessions (id, platform, title, created_at, updated_at) VALUES ('old', 'cli', 'before scopes', 1, 1)").run();
    db.close();
    const store = openSqliteStore(path);
    try {
      expect(store.getSession("old")?.scope).toBe("default");
      expect(store.listSessions({ scope: "default" }).map((s) => s.id)).toEqual(["old"]);
      expect(() => store.db.prepare("UPDATE sessions SET scope = 'bob' WHERE id = 'old'").run()).toThrow(/scope of a session is fixed/);
    } finally {
      store.close();
    }
  });
});

describe("the built-in engine's session_search with scoped sessions", () => {
  let store: SqliteSessionStore;
  let ids: { alice: string[]; bob: string[] };
  beforeEach(async () => {
    store = openSqliteStore(join(dir, "sessions.db"));
    ids = await seedTwoScopes(store);
  });
  afterEach(() => store.close());

  it("answers from the scope of the session the host names, whatever the agent passes", async () => {
    const engine = new ContextCompressor({ store });
    await engine.onSessionStart(ids.alice[1]!, { scope: "alice" });
    await engine.onSessionStart(ids.bob[1]!, { scope: "bob" });
    const asAlice = await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { sessionId: ids.alice[1]! });
    expect(asAlice).toContain("alicenote");
    expect(asAlice).not.toContain(BOB_MARKER);
    const asBob = await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { sessionId: ids.bob[1]! });
    expect(asBob).toContain(BOB_MARKER);
    expect(asBob).not.toContain("alicenote");
    const reachingOver = await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { session_id: ids.bob[0]!, around_seq: 1 }, { sessionId: ids.alice[1]! });
    expect(JSON.parse(reachingOver)).toMatchObject({ code: "not_found" });
    expect(reachingOver).not.toContain(BOB_MARKER);
  });

  it("refuses a call that names no session while sessions of two scopes are open, and uses the only open session's scope otherwise", async () => {
    const engine = new ContextCompressor({ store });
    await engine.onSessionStart(ids.alice[1]!, { scope: "alice" });
    const only = await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" });
    expect(only).toContain("alicenote");
    expect(only).not.toContain(BOB_MARKER);
    await engine.onSessionStart(ids.bob[1]!, { scope: "bob" });
    expect(JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }))).toMatchObject({ code: "no_scope" });
    expect(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { scope: "bob" })).toContain(BOB_MARKER);
  });

  it("refuses a blank scope, which would read as the operator's view of every scope", async () => {
    const engine = new ContextCompressor({ store });
    for (const scope of ["", "  "]) {
      expect(JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { scope }))).toMatchObject({ code: "no_scope" });
    }
    await engine.onSessionStart("blank", { scope: " " });
    expect(JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { sessionId: "blank" }))).toMatchObject({ code: "no_scope" });
  });

  it("reads the scope of a stored session the host names without having started it, and the default scope with no session at all", async () => {
    const engine = new ContextCompressor({ store });
    expect(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" }, { sessionId: ids.bob[1]! })).toContain(BOB_MARKER);
    const unscoped = JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" })) as { sessions: unknown[] };
    expect(unscoped.sessions).toEqual([]);
  });

  it("binds a CompactionSession to its scope: its tool calls read that scope, and resuming another scope's session throws", async () => {
    const engine = new ContextCompressor({ store });
    const session = new CompactionSession({ engine, store, platform: "gateway", scope: "alice" });
    expect(session.session().scope).toBe("alice");
    const answer = await session.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" });
    expect(answer).toContain("alicenote");
    expect(answer).not.toContain(BOB_MARKER);
    expect(() => new CompactionSession({ engine, store, platform: "gateway", scope: "alice", sessionId: ids.bob[0]! })).toThrow(/belongs to scope 'bob', not 'alice'/);
    expect(new CompactionSession({ engine, store, platform: "gateway", scope: "bob", sessionId: ids.bob[0]! }).scope).toBe("bob");
  });

  it("gives a CompactionSession its host's scope when it is given none", async () => {
    const engine = new ContextCompressor({ store });
    const session = new CompactionSession({ host: { engine, scope: "bob" }, store, platform: "gateway" });
    expect(session.scope).toBe("bob");
    const answer = await session.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "flamingo" });
    expect(answer).toContain(BOB_MARKER);
    expect(answer).not.toContain("alicenote");
    expect(new CompactionSession({ host: { engine, scope: "bob" }, store, platform: "gateway", scope: "alice" }).scope).toBe("alice");
  });

  it("builds a host whose sessions get the scope it was given, 'default' when none, and refuses a blank one", async () => {
    const config = "compression:\n  threshold: 0.5\n";
    expect((await createContextHost({ config, rootDir: dir })).scope).toBe("default");
    const host = await createContextHost({ config, rootDir: dir, store, scope: "alice" });
    expect(host.scope).toBe("alice");
    expect(new CompactionSession({ host, store, platform: "gateway" }).session().scope).toBe("alice");
    await expect(createContextHost({ config, rootDir: dir, scope: " " })).rejects.toThrow(/scope must be a non-empty string/);
  });
});
