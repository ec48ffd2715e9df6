/**
 * Schema migrations of the PostgreSQL stores: numbered steps per component (`session_store`, `lcm`)
 * tracked in `<schema>.schema_versions`, applied in one transaction under a database-wide advisory lock,
 * so workers starting together on a new database migrate it once without an error. The stores need the
 * `pg_trgm` extension (trigram indexes for CJK and substring search); it is created when missing.
 * A store opening a schema that is current runs no DDL at all ({@link openSchema}), so an application
 * role that owns nothing opens it; the owner migrates with `migratePostgres` (ownerMigration.ts).
 */
import { SessionStoreError } from "@context-engine/core";
import { withTransaction, type PgConnection, type Queryable } from "./connection.js";

/** PostgreSQL's SQLSTATE for a privilege the role lacks (permission denied, must be owner). */
const INSUFFICIENT_PRIVILEGE = "42501";

/** True when `error` (or the error it wraps) is PostgreSQL's refusal of a privilege the role lacks. */
function lacksPrivilege(error: unknown): boolean {
  const code = (e: unknown) => (typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined);
  return code(error) === INSUFFICIENT_PRIVILEGE || code((error as { cause?: unknown } | null)?.cause) === INSUFFICIENT_PRIVILEGE;
}

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
      const refused = new SessionStoreError(
        `PostgreSQL store: the pg_trgm extension (trigram search) is not installed in this database and could not be created: ${(error as Error).message}. ` +
          "Run CREATE EXTENSION pg_trgm; as a superuser (it ships with PostgreSQL's contrib modules)",
      );
      refused.cause = error;
      throw refused;
    }
    found = await find();
  }
  return `"${found!.replace(/"/g, '""')}"`;
}

/** What one component's migration found and left: its schema version before and after. */
export interface MigrationStep {
  component: string;
  from: number;
  to: number;
}

/** The command that migrates a schema as the tables' owner (named in the errors of a role that may not). */
export const MIGRATE_COMMAND = "context-engine-postgres migrate --url <owner-url> --app-role <app-role>";

function newerSchemaError(connection: PgConnection, component: string, current: number, latest: number): SessionStoreError {
  return new SessionStoreError(
    `PostgreSQL store: schema ${connection.schemaName}: ${component} schema version ${current} is newer than this build supports (${latest}); upgrade @context-engine/postgres`,
  );
}

/** Brings `component`'s tables in the connection's schema to the latest of `migrations`; throws when the database was written by a newer one. */
export async function migrate(connection: PgConnection, component: string, migrations: readonly PgMigration[]): Promise<MigrationStep> {
  const latest = migrations[migrations.length - 1]!.version;
  const s = connection.schema;
  return withTransaction(connection.pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('context-engine:migrate', 0))");
    const trgm = await trigramSchema(client);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
    const row = (await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_versions WHERE component = $1`, [component])).rows[0];
    const current = row?.version ?? 0;
    if (current > latest) throw newerSchemaError(connection, component, current, latest);
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
    return { component, from: current, to: latest };
  });
}

/** `component`'s schema version in the connection's schema, read without DDL: 0 when its tables were never created. */
export async function schemaVersion(client: Queryable, connection: PgConnection, component: string): Promise<number> {
  const table = (await client.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [`${connection.schema}.schema_versions`])).rows[0]?.t;
  if (table === null || table === undefined) return 0;
  const row = (await client.query<{ version: number }>(`SELECT version FROM ${connection.schema}.schema_versions WHERE component = $1`, [component])).rows[0];
  return row?.version ?? 0;
}

/**
 * What a store runs when it opens: nothing but a version check when `component`'s schema is current;
 * otherwise the migration, which a role that owns the tables (a single-role set-up) may run. A role that
 * may not (the application role of an owner set-up) gets an error naming the command to run as the owner.
 */
export async function openSchema(connection: PgConnection, component: string, migrations: readonly PgMigration[], what: string): Promise<void> {
  const latest = migrations[migrations.length - 1]!.version;
  let current: number | undefined;
  try {
    current = await schemaVersion(connection.pool, connection, component);
    if (current === latest) return;
    if (current > latest) throw newerSchemaError(connection, component, current, latest);
    await migrate(connection, component, migrations);
  } catch (error) {
    if (!lacksPrivilege(error)) throw error;
    const state = current === undefined ? "cannot be read" : `${current} is behind this build's ${latest}`;
    throw new SessionStoreError(
      `${what}: schema ${connection.schemaName}: ${component} schema version ${state}, and this role may not ${current === undefined ? "read" : "migrate"} it (${(error as Error).message}). ` +
        `Run \`${MIGRATE_COMMAND}\` as the tables' owner (see README, "Migrations as the owner")`,
    );
  }
}
