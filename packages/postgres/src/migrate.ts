/**
 * Schema migrations of the PostgreSQL stores: numbered steps per component (`session_store`, `lcm`)
 * tracked in `<schema>.schema_versions`, applied in one transaction under a database-wide advisory lock,
 * so workers starting together on a new database migrate it once without an error. The stores need the
 * `pg_trgm` extension (trigram indexes for CJK and substring search); it is created when missing.
 */
import { SessionStoreError } from "@context-engine/core";
import { withTransaction, type PgConnection, type Queryable } from "./connection.js";

/** One schema step; `sql` gets the quoted schema and the quoted schema of pg_trgm. */
export interface PgMigration {
  version: number;
  sql: (schema: string, trgmSchema: string) => string;
}

/** The schema pg_trgm lives in (quoted), creating the extension when the database lacks it. */
async function trigramSchema(client: Queryable): Promise<string> {
  const find = async () => (await client.query<{ nspname: string }>("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'")).rows[0]?.nspname;
  let found = await find();
  if (found === undefined) {
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    } catch (error) {
      throw new SessionStoreError(
        `PostgreSQL store: the pg_trgm extension (trigram search) is not installed in this database and could not be created: ${(error as Error).message}. ` +
          "Run CREATE EXTENSION pg_trgm; as a superuser (it ships with PostgreSQL's contrib modules)",
      );
    }
    found = await find();
  }
  return `"${found!.replace(/"/g, '""')}"`;
}

/** Brings `component`'s tables in the connection's schema to the latest of `migrations`; throws when the database was written by a newer one. */
export async function migrate(connection: PgConnection, component: string, migrations: readonly PgMigration[]): Promise<void> {
  const latest = migrations[migrations.length - 1]!.version;
  const s = connection.schema;
  await withTransaction(connection.pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('context-engine:migrate', 0))");
    const trgm = await trigramSchema(client);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
    const row = (await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_versions WHERE component = $1`, [component])).rows[0];
    const current = row?.version ?? 0;
    if (current > latest) {
      throw new SessionStoreError(
        `PostgreSQL store: schema ${connection.schemaName}: ${component} schema version ${current} is newer than this build supports (${latest}); upgrade @context-engine/postgres`,
      );
    }
    for (const step of migrations) {
      if (step.version <= current) continue;
      await client.query(step.sql(s, trgm));
    }
    if (current < latest) {
      await client.query(
        `INSERT INTO ${s}.schema_versions (component, version) VALUES ($1, $2) ON CONFLICT (component) DO UPDATE SET version = excluded.version`,
        [component, latest],
      );
    }
  });
}
