/**
 * The PostgreSQL session store against the same contract as the SQLite one (core's
 * test/store/contract), on a real server this file starts, plus what only PostgreSQL has.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateMessageTokensRough, RoughTokenCounter, TiktokenCounter } from "@context-engine/core";
import { conversation, describeSessionStoreContract, expectFailure, user } from "../../core/test/store/contract/sessionStoreContract.js";
import { SessionStoreError } from "@context-engine/core";
import { openPostgresStore, type PostgresSessionStore } from "../src/index.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";

let server: TestPostgres;
const urls = new WeakMap<PostgresSessionStore, string>();

beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

async function openFresh(): Promise<PostgresSessionStore> {
  const url = await server.createDatabase();
  const store = await openPostgresStore({ connectionString: url });
  urls.set(store, url);
  return store;
}

async function sql<R extends object>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describeSessionStoreContract("PostgresSessionStore: the session store contract", {
  open: openFresh,
  reopen: async (store) => {
    const url = urls.get(store)!;
    await store.close();
    const reopened = await openPostgresStore({ connectionString: url });
    urls.set(reopened, url);
    return reopened;
  },
  second: async (store) => openPostgresStore({ connectionString: urls.get(store)! }),
  storedRowCount: async (store) => Number((await sql<{ n: string }>(urls.get(store)!, "SELECT COUNT(*) AS n FROM context_engine.messages"))[0]!.n),
});

describe("PostgresSessionStore: PostgreSQL only", () => {
  it("has the database itself refuse DELETE of turns, sessions and log entries, and UPDATE of anything but the flags", async () => {
    const store = await openFresh();
    const url = urls.get(store)!;
    try {
      const session = await store.createSession({ platform: "cli" });
      await store.appendMessages(session.id, conversation());
      await expect(sql(url, "DELETE FROM context_engine.messages")).rejects.toThrow(/messages: DELETE refused/);
      await expect(sql(url, "DELETE FROM context_engine.sessions")).rejects.toThrow(/sessions: DELETE refused/);
      await expect(sql(url, "TRUNCATE context_engine.messages CASCADE")).rejects.toThrow(/messages: TRUNCATE refused/);
      await expect(sql(url, "UPDATE context_engine.messages SET message_json = '{}' WHERE seq = 1")).rejects.toThrow(/only active, compacted and compaction_id may change/);
      await sql(url, "UPDATE context_engine.messages SET active = FALSE, compacted = TRUE WHERE seq = 1");
      expect((await sql<{ n: string }>(url, "SELECT COUNT(*) AS n FROM context_engine.messages"))[0]!.n).toBe("7");
    } finally {
      await store.close();
    }
  });

  it("stores each turn's counting beside its count: exact, or the rough estimate for a huge turn", async () => {
    const url = await server.createDatabase();
    const counter = new TiktokenCounter();
    const store = await openPostgresStore({ connectionString: url, tokenCounter: counter });
    try {
      const session = await store.createSession({ platform: "cli" });
      const huge = "x1/".repeat(100_000);
      await store.appendMessages(session.id, [user("short ask"), user(huge)]);
      const rows = await sql<{ tokens: number; tokens_by: string }>(url, "SELECT tokens, tokens_by FROM context_engine.messages ORDER BY seq");
      expect(rows.map((r) => r.tokens_by)).toEqual([counter.countingId, new RoughTokenCounter().countingId]);
      expect(rows[0]!.tokens).toBe(counter.countMessages([user("short ask")]));
      expect(rows[1]!.tokens).toBe(estimateMessageTokensRough(user(huge)));
    } finally {
      await store.close();
    }
  });

  it("finds CJK text and substrings through the trigram index, with the match marked in the snippet", async () => {
    const store = await openFresh();
    try {
      const session = await store.createSession({ platform: "cli" });
      await store.appendMessages(session.id, [user("数据库迁移已经完成，索引也建好了"), user("the refactoring of parseHeaders is done"), user("日本語のテキスト")]);
      const hits = await store.search("迁移");
      expect(hits.map((h) => h.seq)).toEqual([1]);
      expect(hits[0]!.snippet).toContain(">>>迁移<<<");
      expect((await store.search("Header")).map((h) => h.seq)).toEqual([2]);
      expect((await store.search("テキスト")).map((h) => h.seq)).toEqual([3]);
      const plan = await sql<{ plan: string }>(urls.get(store)!, "EXPLAIN SELECT id FROM context_engine.messages WHERE text ILIKE '%迁移已经%'");
      expect(plan.map((p) => Object.values(p)[0]).join("\n")).toMatch(/messages_trgm|Seq Scan/);
    } finally {
      await store.close();
    }
  });

  it("lets one worker at a time hold a session's compaction lease, each session its own, until it is released", async () => {
    const url = await server.createDatabase();
    const [one, two] = [await openPostgresStore({ connectionString: url }), await openPostgresStore({ connectionString: url })];
    try {
      const held = await one.leaseCompaction("s");
      expect(held).toBeTypeOf("function");
      expect(await two.leaseCompaction("s")).toBeUndefined();
      const other = await two.leaseCompaction("t");
      expect(other).toBeTypeOf("function");
      await held!();
      const next = await two.leaseCompaction("s");
      expect(next).toBeTypeOf("function");
      await next!();
      await other!();
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("keeps its tables in the schema it is given, apart from another store's in the same database", async () => {
    const url = await server.createDatabase();
    const a = await openPostgresStore({ connectionString: url, schema: "tenant_a" });
    const b = await openPostgresStore({ connectionString: url, schema: "tenant_b" });
    try {
      await a.createSession({ id: "same", platform: "cli" });
      await b.createSession({ id: "same", platform: "cli" });
      await a.appendMessages("same", [user("only in a")]);
      expect(await b.activeMessages("same")).toEqual([]);
      expect((await b.search("only")).length).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses a database written by a newer schema, and names what is missing when it cannot connect", async () => {
    const url = await server.createDatabase();
    const store = await openPostgresStore({ connectionString: url });
    await store.close();
    await sql(url, "UPDATE context_engine.schema_versions SET version = 99 WHERE component = 'session_store'");
    await expectFailure(() => openPostgresStore({ connectionString: url }), SessionStoreError, /session_store schema version 99 is newer than this build supports/);
    await expectFailure(() => openPostgresStore({}), SessionStoreError, /give connectionString/);
    const closed = new URL(url);
    closed.port = "1";
    await expectFailure(() => openPostgresStore({ connectionString: closed.toString() }), SessionStoreError, /cannot open the session store: .*ECONNREFUSED/);
  });
});
