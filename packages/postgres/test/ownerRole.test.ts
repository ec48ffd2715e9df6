/**
 * Migrations as the owner, on a real server: an owner role creates the tables and grants an application
 * role the rows only. The stores run as that role in two scopes with row-level security holding, open a
 * current schema without any DDL, name the command to run when the schema is behind, and the role can
 * neither lift row-level security nor drop, truncate or create a table.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { describeScopeIsolation, seedTwoScopes } from "../../core/test/store/contract/scopeIsolationContract.js";
import { describeLcmScopeIsolation, seedTwoScopes as seedTwoLcmScopes } from "../../../plugins/lcm/test/scopeIsolationContract.js";
import { connect, withScope } from "../src/connection.js";
import { migratePostgres, openPostgresLcmStore, openPostgresStore } from "../src/index.js";
import { migrate } from "../src/migrate.js";
import { PG_SESSION_STORE_MIGRATIONS } from "../src/session/schema.js";
import { ownerDatabaseOn, type OwnerDatabase } from "./support/appDatabase.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();
const CLI = fileURLToPath(new URL("../bin/context-engine-postgres.js", import.meta.url));
const run = promisify(execFile);

/** Every table of both stores, and those under row-level security. */
const SCOPED_TABLES = ["sessions", "messages", "compactions", "engine_state", "lcm_sessions", "lcm_messages", "lcm_summaries", "lcm_summary_sources", "lcm_context_items", "lcm_compactions"];

/** A database of an owner set-up, migrated by the owner with the application role granted. */
async function migratedDatabase(): Promise<OwnerDatabase> {
  const db = await ownerDatabaseOn(server());
  await migratePostgres({ connectionString: db.ownerUrl, appRole: db.appRole });
  return db;
}

/** Runs `body` on a client logged in at `url`. */
async function asRole<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

describeScopeIsolation("PostgresSessionStore as the application role of an owner set-up: sessions belong to someone", {
  open: async () => openPostgresStore({ connectionString: (await migratedDatabase()).appUrl }),
});

describeLcmScopeIsolation("PostgresLcmStore as the application role of an owner set-up: lcm sessions belong to someone", {
  open: async () => openPostgresLcmStore({ connectionString: (await migratedDatabase()).appUrl }),
});

describe("migrations as the owner", () => {
  it("creates the tables owned by the owner with row-level security forced, and grants the application role the rows only", async () => {
    const db = await ownerDatabaseOn(server());
    const result = await migratePostgres({ connectionString: db.ownerUrl, appRole: db.appRole });
    expect(result.steps).toEqual([
      { component: "session_store", from: 0, to: 2 },
      { component: "lcm", from: 0, to: 2 },
    ]);
    expect(result.warnings).toEqual([]);
    // run again: nothing to migrate, the grants repeated
    expect((await migratePostgres({ connectionString: db.ownerUrl, appRole: db.appRole })).steps.map((s) => [s.from, s.to])).toEqual([
      [2, 2],
      [2, 2],
    ]);
    await asRole(db.adminUrl, async (admin) => {
      const tables = await admin.query<{ table: string; owner: string; rls: boolean; forced: boolean }>(
        `SELECT c.relname AS table, pg_get_userbyid(c.relowner) AS owner, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'context_engine' AND c.relkind = 'r' ORDER BY c.relname`,
      );
      expect(new Set(tables.rows.map((t) => t.owner))).toEqual(new Set([result.owner]));
      for (const table of SCOPED_TABLES) expect(tables.rows.find((t) => t.table === table), table).toMatchObject({ rls: true, forced: true });
      const privileges = await admin.query<{ table: string; privilege: string }>(
        "SELECT table_name AS table, privilege_type AS privilege FROM information_schema.role_table_grants WHERE grantee = $1 AND table_schema = 'context_engine'",
        [db.appRole],
      );
      const granted = (table: string) => privileges.rows.filter((p) => p.table === table).map((p) => p.privilege).sort();
      for (const table of SCOPED_TABLES) expect(granted(table), table).toEqual(["DELETE", "INSERT", "SELECT", "UPDATE"]);
      expect(granted("schema_versions")).toEqual(["SELECT"]);
      const schema = await admin.query("SELECT has_schema_privilege($1, 'context_engine', 'CREATE') AS can_create, has_database_privilege($1, current_database(), 'CREATE') AS db_create", [db.appRole]);
      expect(schema.rows[0]).toEqual({ can_create: false, db_create: false });
    });
  });

  it("runs both stores as the application role in two scopes, each scope's transaction seeing its own rows only", async () => {
    const db = await migratedDatabase();
    const store = await openPostgresStore({ connectionString: db.appUrl });
    const lcm = await openPostgresLcmStore({ connectionString: db.appUrl });
    try {
      const ids = await seedTwoScopes(store);
      expect((await store.activeMessages(ids.alice[0]!)).length).toBeGreaterThan(0);
      await seedTwoLcmScopes(lcm);
      const pool = new pg.Pool({ connectionString: db.appUrl, max: 1 });
      try {
        for (const scope of ["alice", "bob"]) {
          const seen = await withScope(pool, scope, async (client) => {
            const sessions = await client.query<{ scope: string }>("SELECT DISTINCT scope FROM context_engine.sessions");
            const messages = await client.query<{ scope: string }>("SELECT DISTINCT scope FROM context_engine.messages");
            const lcmMessages = await client.query<{ scope: string }>("SELECT DISTINCT scope FROM context_engine.lcm_messages");
            return [...sessions.rows, ...messages.rows, ...lcmMessages.rows].map((r) => r.scope);
          });
          expect(new Set(seen)).toEqual(new Set([scope]));
        }
        expect(await lcm.readInScope("alice", (scoped) => scoped.sessions())).toEqual(["alice-1", "team"]);
      } finally {
        await pool.end();
      }
    } finally {
      await store.close();
      await lcm.close();
    }
  });

  it("refuses the application role NO FORCE and DISABLE ROW LEVEL SECURITY, DROP, TRUNCATE and CREATE TABLE", async () => {
    const db = await migratedDatabase();
    await asRole(db.appUrl, async (app) => {
      for (const table of SCOPED_TABLES) {
        await expect(app.query(`ALTER TABLE context_engine.${table} NO FORCE ROW LEVEL SECURITY`), table).rejects.toThrow(/must be owner/);
        await expect(app.query(`ALTER TABLE context_engine.${table} DISABLE ROW LEVEL SECURITY`), table).rejects.toThrow(/must be owner/);
        await expect(app.query(`DROP POLICY scope_isolation ON context_engine.${table}`), table).rejects.toThrow(/must be owner/);
        await expect(app.query(`DROP TABLE context_engine.${table}`), table).rejects.toThrow(/must be owner/);
        await expect(app.query(`TRUNCATE context_engine.${table}`), table).rejects.toThrow(/permission denied/);
      }
      await expect(app.query("UPDATE context_engine.schema_versions SET version = 1")).rejects.toThrow(/permission denied/);
      await expect(app.query("CREATE TABLE context_engine.mine (x int)")).rejects.toThrow(/permission denied/);
      await expect(app.query("CREATE SCHEMA mine")).rejects.toThrow(/permission denied/);
    });
  });

  it("lets the application role open a current schema, and names the command to run as the owner when it is behind", async () => {
    const db = await ownerDatabaseOn(server());
    await expect(openPostgresStore({ connectionString: db.appUrl })).rejects.toThrow(/session_store schema version 0 is behind this build's 2, and this role may not migrate it .*context-engine-postgres migrate --url <owner-url>/);
    await expect(openPostgresLcmStore({ connectionString: db.appUrl })).rejects.toThrow(/lcm schema version 0 is behind this build's 2.*context-engine-postgres migrate/);
    // the owner at an older build: session_store at v1 only
    const connection = connect({ connectionString: db.ownerUrl }, "test");
    try {
      await migrate(connection, "session_store", PG_SESSION_STORE_MIGRATIONS.slice(0, 1));
      await connection.pool.query(`GRANT USAGE ON SCHEMA context_engine TO "${db.appRole}"; GRANT SELECT ON ALL TABLES IN SCHEMA context_engine TO "${db.appRole}"`);
    } finally {
      await connection.pool.end();
    }
    await expect(openPostgresStore({ connectionString: db.appUrl })).rejects.toThrow(/openPostgresStore: schema context_engine: session_store schema version 1 is behind this build's 2, and this role may not migrate it \(permission denied for database .*context-engine-postgres migrate/);
    await migratePostgres({ connectionString: db.ownerUrl, appRole: db.appRole });
    const store = await openPostgresStore({ connectionString: db.appUrl });
    const lcm = await openPostgresLcmStore({ connectionString: db.appUrl });
    await Promise.all([store.close(), lcm.close()]);
    // migrated without granting the application role: it cannot even read the version
    const ungranted = await ownerDatabaseOn(server());
    await migratePostgres({ connectionString: ungranted.ownerUrl });
    await expect(openPostgresStore({ connectionString: ungranted.appUrl })).rejects.toThrow(/session_store schema version cannot be read, and this role may not read it \(permission denied for schema context_engine\).*--app-role <app-role>/);
  });

  it("refuses to migrate a schema holding a table another role owns, naming the fix, and an application role that is the owner", async () => {
    const db = await ownerDatabaseOn(server());
    await expect(migratePostgres({ connectionString: db.ownerUrl, appRole: "nobody_here" })).rejects.toThrow(/there is no role 'nobody_here'/);
    const owner = new URL(db.ownerUrl).username;
    await expect(migratePostgres({ connectionString: db.ownerUrl, appRole: owner })).rejects.toThrow(/is the role running the migrations/);
    await asRole(db.adminUrl, (admin) => admin.query("CREATE SCHEMA context_engine; CREATE TABLE context_engine.sessions (id text)"));
    await expect(migratePostgres({ connectionString: db.ownerUrl, appRole: db.appRole })).rejects.toThrow(/holds tables '.*_owner' does not own: sessions \(postgres\).*REASSIGN OWNED BY "postgres"/);
  });

  it("migrates and grants from the command line, printing what it did, and exits 2 on a usage error", async () => {
    const db = await ownerDatabaseOn(server());
    const { stdout } = await run(process.execPath, [CLI, "migrate", "--url", db.ownerUrl, "--app-role", db.appRole]);
    expect(stdout).toMatch(/^context_engine: session_store migrated from version 0 to 2 \(owner .*_owner\)\ncontext_engine: lcm migrated from version 0 to 2/);
    expect(stdout).toContain(`granted ${db.appRole} SELECT, INSERT, UPDATE, DELETE on the tables`);
    const again = await run(process.execPath, [CLI, "migrate", "--url", db.ownerUrl, "--app-role", db.appRole, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ schema: "context_engine", appRole: db.appRole, steps: [{ component: "session_store", from: 2, to: 2 }, { component: "lcm", from: 2, to: 2 }] });
    const store = await openPostgresStore({ connectionString: db.appUrl });
    await store.close();
    await expect(run(process.execPath, [CLI, "migrate"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--url <owner-url> is required") });
    await expect(run(process.execPath, [CLI, "migrate", "--url", db.ownerUrl, "--app-role", "nobody_here"])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("there is no role 'nobody_here'") });
  });
});
