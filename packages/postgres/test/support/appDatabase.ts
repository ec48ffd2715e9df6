/** A test database that a store reaches as a role without superuser rights, so row-level security applies to it. */
import pg from "pg";
import type { TestPostgres } from "./postgresServer.js";

/**
 * A new database owned by a role that is no superuser (superusers bypass row-level security), as a
 * store's connection role should be; returns the connection string that logs in as that role.
 */
export async function appDatabaseOn(server: TestPostgres): Promise<string> {
  const url = await server.createDatabase();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_roles WHERE rolname = 'context_engine_app'");
    if (exists.rowCount === 0) await admin.query("CREATE ROLE context_engine_app LOGIN NOSUPERUSER NOBYPASSRLS").catch(() => undefined);
    await admin.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    const database = new URL(url).pathname.slice(1);
    await admin.query(`ALTER DATABASE "${database}" OWNER TO context_engine_app`);
    await admin.query("GRANT ALL ON SCHEMA public TO context_engine_app");
  } finally {
    await admin.end();
  }
  const app = new URL(url);
  app.username = "context_engine_app";
  return app.toString();
}
