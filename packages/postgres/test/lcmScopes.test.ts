/**
 * lcm sessions belong to someone, on PostgreSQL: the scope isolation contract lcm's tools run on SQLite,
 * and row-level security underneath it — a raw query through the store's own pool, in a transaction set
 * to one scope, sees no lcm row of another, whatever it asks for.
 */
import { describe, expect, it } from "vitest";
import { describeLcmScopeIsolation, SCOPE_SESSIONS, seedTwoScopes, type SeededScopes } from "../../../plugins/lcm/test/scopeIsolationContract.js";
import { newMessage } from "../../../plugins/lcm/test/storeContract.js";
import { connect } from "../src/connection.js";
import { openPostgresLcmStore, type PostgresLcmStore } from "../src/index.js";
import { PG_LCM_MIGRATIONS } from "../src/lcm/schema.js";
import { migrate } from "../src/migrate.js";
import { appDatabaseOn } from "./support/appDatabase.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();

describeLcmScopeIsolation("PostgresLcmStore: lcm sessions belong to someone", {
  open: async () => openPostgresLcmStore({ connectionString: await appDatabaseOn(server()) }),
});

/** The store's own pool (what its queries run on). */
function poolOf(store: PostgresLcmStore) {
  return (store as unknown as { connection: { pool: import("pg").Pool } }).connection.pool;
}

/** Runs `body` on a new store (reached as a role without superuser rights) holding both scopes' conversations. */
async function withSeededStore(body: (store: PostgresLcmStore, seeded: SeededScopes) => Promise<void>): Promise<void> {
  const store = await openPostgresLcmStore({ connectionString: await appDatabaseOn(server()) });
  try {
    await body(store, await seedTwoScopes(store));
  } finally {
    await store.close();
  }
}

const LCM_TABLES = ["lcm_sessions", "lcm_messages", "lcm_summaries", "lcm_summary_sources", "lcm_context_items", "lcm_compactions"];

describe("PostgresLcmStore: row-level security", () => {
  it("shows a transaction set to one scope no lcm row of another, even to a query that asks for it, and lets it write none", async () => {
    await withSeededStore(async (store) => {
      const client = await poolOf(store).connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT set_config('context_engine.scope', 'alice', true)");
        for (const table of LCM_TABLES) {
          const { rows } = await client.query(`SELECT DISTINCT scope FROM context_engine.${table} WHERE scope = 'bob' OR true`);
          expect(rows.map((r) => r.scope), table).toEqual(["alice"]);
        }
        const bob = await client.query("SELECT search_text FROM context_engine.lcm_messages WHERE session = ANY($1)", [[...SCOPE_SESSIONS.bob]]);
        expect(bob.rows).toEqual([]);
        await expect(client.query("INSERT INTO context_engine.lcm_sessions (session, scope) VALUES ('x', 'bob')")).rejects.toThrow(/row-level security/);
        await client.query("ROLLBACK");
        const operator = await client.query("SELECT DISTINCT scope FROM context_engine.lcm_messages ORDER BY scope");
        expect(operator.rows.map((r) => r.scope)).toEqual(["alice", "bob"]);
      } finally {
        client.release();
      }
    });
  });

  it("holds when the store's own read forgets the scope: read in a transaction set to one scope, it finds only that scope's sessions and records", async () => {
    await withSeededStore(async (store, seeded) => {
      expect((await store.searchMessagesFullText("all", "flamingo", { limit: 500 })).hits.some((m) => m.session === "bob-1")).toBe(true);
      await store.readInScope("alice", async (alice) => {
        expect(await alice.sessions()).toEqual(["alice-1", "team"]);
        expect(await alice.getMessage(seeded.bobMessages[0]!)).toBeUndefined();
        expect(await alice.getSummary(seeded.bobSummaries[0]!)).toBeUndefined();
        expect(await alice.getMessages(seeded.bobMessages)).toEqual([]);
        const hits = await (alice as PostgresLcmStore).searchMessagesFullText("all", "flamingo", { limit: 500 });
        expect(hits.hits.length).toBeGreaterThan(0);
        expect(hits.hits.every((m) => m.session === "alice-1" || m.session === "team")).toBe(true);
      });
    });
  });

  it("copies every lcm row's scope from its session and refuses to change a scope", async () => {
    await withSeededStore(async (store, seeded) => {
      const pool = poolOf(store);
      const sources = await pool.query("SELECT DISTINCT scope FROM context_engine.lcm_summary_sources WHERE summary_id = ANY($1)", [seeded.bobSummaries]);
      expect(sources.rows).toEqual([{ scope: "bob" }]);
      const items = await pool.query("SELECT DISTINCT scope FROM context_engine.lcm_context_items WHERE session = 'team~1'");
      expect(items.rows).toEqual([{ scope: "bob" }]);
      await expect(pool.query("UPDATE context_engine.lcm_sessions SET scope = 'alice' WHERE session = 'team~1'")).rejects.toThrow(/scope of a row is fixed/);
      await expect(pool.query("UPDATE context_engine.lcm_context_items SET scope = 'alice' WHERE session = 'team~1'")).rejects.toThrow(/scope of a row is fixed/);
    });
  });

  it("records the sessions of a database written before scopes in the default scope", async () => {
    const url = await appDatabaseOn(server());
    const connection = connect({ connectionString: url }, "test");
    try {
      await migrate(connection, "lcm", PG_LCM_MIGRATIONS.slice(0, 1));
      await connection.pool.query(
        "INSERT INTO context_engine.lcm_messages (session, seq, role, message_json, search_text, tokens, identity, created_at) VALUES ('old', 1, 'user', '{}', 'hello', 1, '\\x00', 1)",
      );
    } finally {
      await connection.pool.end();
    }
    const store = await openPostgresLcmStore({ connectionString: url });
    try {
      expect(await store.sessions("default")).toEqual(["old"]);
      expect(await store.sessionScope("old")).toBe("default");
      await store.appendMessages("old", [newMessage({ role: "user", content: "again" })], 2);
      expect((await poolOf(store).query("SELECT DISTINCT scope FROM context_engine.lcm_messages")).rows).toEqual([{ scope: "default" }]);
    } finally {
      await store.close();
    }
  });
});
