/**
 * Sessions belong to someone, on PostgreSQL: the scope isolation contract core runs on SQLite, and
 * row-level security underneath it — a raw query through the store's own pool, in a transaction set to
 * one scope, sees no row of another, whatever it asks for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeScopeIsolation, seedTwoScopes } from "../../core/test/store/contract/scopeIsolationContract.js";
import { withScope } from "../src/connection.js";
import { openPostgresStore, type PostgresSessionStore } from "../src/index.js";
import { searchMessages } from "../src/session/search.js";
import { appDatabaseOn } from "./support/appDatabase.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";

let server: TestPostgres;
const appDatabase = () => appDatabaseOn(server);
beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describeScopeIsolation("PostgresSessionStore: sessions belong to someone", {
  open: async () => openPostgresStore({ connectionString: await appDatabase() }),
});

/** The store's own pool (what its queries run on). */
function poolOf(store: PostgresSessionStore) {
  return (store as unknown as { connection: { pool: import("pg").Pool } }).connection.pool;
}

describe("PostgresSessionStore: row-level security", () => {
  it("shows a transaction set to one scope no row of another, even to a query that asks for it", async () => {
    const store = await openPostgresStore({ connectionString: await appDatabase() });
    try {
      const ids = await seedTwoScopes(store);
      // engine state (a compressor's cooldowns and last summary) of one session of each scope
      await store.saveEngineState("compressor", ids.alice[0]!, { summary: "alice's" });
      await store.saveEngineState("compressor", ids.bob[0]!, { summary: "bob's" });
      const client = await poolOf(store).connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT set_config('context_engine.scope', 'alice', true)");
        for (const table of ["sessions", "messages", "compactions"]) {
          const { rows } = await client.query(`SELECT count(*)::int AS n FROM context_engine.${table} WHERE scope = 'bob' OR true`);
          const { rows: all } = await client.query(`SELECT DISTINCT scope FROM context_engine.${table}`);
          expect(all.map((r) => r.scope)).toEqual(["alice"]);
          expect(rows[0].n).toBeGreaterThan(0);
        }
        const bob = await client.query("SELECT text FROM context_engine.messages WHERE session_id = ANY($1)", [ids.bob]);
        expect(bob.rows).toEqual([]);
        const state = await client.query("SELECT session_id FROM context_engine.engine_state");
        expect(state.rows).toEqual([{ session_id: ids.alice[0] }]);
        // nor can it write into the other scope
        await expect(client.query("INSERT INTO context_engine.sessions (id, platform, created_at, updated_at, scope) VALUES ('x', 'p', 1, 1, 'bob')")).rejects.toThrow(/row-level security/);
        await client.query("ROLLBACK");
        const operator = await client.query("SELECT DISTINCT scope FROM context_engine.sessions ORDER BY scope");
        expect(operator.rows.map((r) => r.scope)).toEqual(["alice", "bob"]);
      } finally {
        client.release();
      }
    } finally {
      await store.close();
    }
  });

  it("holds when the store's own query forgets the scope: its search, run unscoped in a transaction set to one scope, finds only that scope's turns", async () => {
    const store = await openPostgresStore({ connectionString: await appDatabase() });
    try {
      const ids = await seedTwoScopes(store);
      const unscoped = await searchMessages(poolOf(store), '"context_engine"', "flamingo", { limit: 100 });
      expect(unscoped.some((hit) => ids.bob.includes(hit.sessionId))).toBe(true);
      const hits = await withScope(poolOf(store), "alice", (client) => searchMessages(client, '"context_engine"', "flamingo", { limit: 100 }));
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((hit) => ids.alice.includes(hit.sessionId))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("copies a message's scope from its session and refuses to change any row's scope", async () => {
    const store = await openPostgresStore({ connectionString: await appDatabase() });
    try {
      const ids = await seedTwoScopes(store);
      const pool = poolOf(store);
      const scopes = await pool.query("SELECT DISTINCT scope FROM context_engine.messages WHERE session_id = $1", [ids.bob[1]]);
      expect(scopes.rows).toEqual([{ scope: "bob" }]);
      await expect(pool.query("UPDATE context_engine.sessions SET scope = 'alice' WHERE id = $1", [ids.bob[1]])).rejects.toThrow(/scope of a row is fixed/);
      await expect(pool.query("UPDATE context_engine.messages SET scope = 'alice' WHERE session_id = $1", [ids.bob[1]])).rejects.toThrow(/scope of a row is fixed/);
    } finally {
      await store.close();
    }
  });
});
