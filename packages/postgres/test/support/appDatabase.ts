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

/** A database of an owner set-up: connection strings of its owner role and of an application role that owns nothing. */
export interface OwnerDatabase {
  /** Logs in as the role that owns the database (and, once migrated, the tables). */
  ownerUrl: string;
  /** Logs in as the application role: no superuser, no BYPASSRLS, no privilege on the database but CONNECT. */
  appUrl: string;
  appRole: string;
  /** Logs in as the server's superuser (for the test's own checks). */
  adminUrl: string;
}

/**
 * A new database with two roles of its own (named after it, as roles are the whole server's): an owner
 * that owns the database and an application role the workers would connect as; pg_trgm installed.
 */
export async function ownerDatabaseOn(server: TestPostgres): Promise<OwnerDatabase> {
  const adminUrl = await server.createDatabase();
  const database = new URL(adminUrl).pathname.slice(1);
  const [owner, app] = [`${database}_owner`, `${database}_app`];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE "${owner}" LOGIN NOSUPERUSER NOBYPASSRLS`);
    await admin.query(`CREATE ROLE "${app}" LOGIN NOSUPERUSER NOBYPASSRLS`);
    await admin.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await admin.query(`ALTER DATABASE "${database}" OWNER TO "${owner}"`);
  } finally {
    await admin.end();
  }
  const as = (role: string) => {
    const url = new URL(adminUrl);
    url.username = role;
    return url.toString();
  };
  return { ownerUrl: as(owner), appUrl: as(app), appRole: app, adminUrl };
}
