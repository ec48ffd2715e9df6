/**
 * Migrations as the owner (README, "Migrations as the owner"): a role of its own owns the stores' tables
 * and runs their migrations, and the application role the workers connect as owns nothing. It is granted
 * what the stores do with rows only, so it can neither alter a table (`ALTER TABLE … NO FORCE ROW LEVEL
 * SECURITY`, `DISABLE ROW LEVEL SECURITY`: "must be owner") nor drop or truncate one, and the row-level
 * security of the scopes holds whatever it runs.
 */
import { SessionStoreError } from "@context-engine/core";
import { connect, quoteIdent, withTransaction, type PgConnectionOptions, type Queryable } from "./connection.js";
import { migrate, type MigrationStep } from "./migrate.js";
import { PG_LCM_MIGRATIONS } from "./lcm/schema.js";
import { PG_SESSION_STORE_MIGRATIONS } from "./session/schema.js";

/** Options of {@link migratePostgres}: a connection as the owner, and the application role to grant. */
export interface PostgresMigrateOptions extends PgConnectionOptions {
  /**
   * The role the workers connect as. It is granted USAGE on the schema, SELECT, INSERT, UPDATE and DELETE
   * on the stores' tables (SELECT only on `schema_versions`) and USAGE on their sequences; nothing else.
   * Leave it out in a single-role set-up.
   */
  appRole?: string;
}

/** What {@link migratePostgres} did. */
export interface PostgresMigrateResult {
  /** The schema the tables live in. */
  schema: string;
  /** The role that ran the migrations and owns the tables. */
  owner: string;
  /** Each store's schema version before and after (`session_store`, `lcm`). */
  steps: MigrationStep[];
  /** The application role granted, when given. */
  appRole?: string;
  /** Why the set-up is weaker than it looks (an application role that bypasses row-level security). */
  warnings: string[];
}

/** Every component this package migrates, with its steps. */
const COMPONENTS = [
  ["session_store", PG_SESSION_STORE_MIGRATIONS],
  ["lcm", PG_LCM_MIGRATIONS],
] as const;

/** The tables of `schema` the connected role does not own (the tables' owner alone may migrate them). */
async function tablesOwnedByOthers(client: Queryable, schema: string): Promise<{ table: string; owner: string }[]> {
  const { rows } = await client.query<{ table: string; owner: string }>(
    `SELECT c.relname AS table, pg_get_userbyid(c.relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = current_user) ORDER BY c.relname`,
    [schema],
  );
  return rows;
}

/** Checks `appRole` exists and is not the owner; returns warnings when it would bypass row-level security. */
async function checkAppRole(client: Queryable, appRole: string, owner: string): Promise<string[]> {
  if (appRole === owner) {
    throw new SessionStoreError(`migratePostgres: the application role '${appRole}' is the role running the migrations: connect as a separate owner role (or leave appRole out in a single-role set-up)`);
  }
  const role = (await client.query<{ super: boolean; bypass: boolean }>("SELECT rolsuper AS super, rolbypassrls AS bypass FROM pg_roles WHERE rolname = $1", [appRole])).rows[0];
  if (role === undefined) throw new SessionStoreError(`migratePostgres: there is no role '${appRole}' (CREATE ROLE ${quoteIdent(appRole)} LOGIN PASSWORD '…'; as an administrator first)`);
  const warnings: string[] = [];
  if (role.super) warnings.push(`the application role '${appRole}' is a superuser: it bypasses row-level security and may alter any table`);
  else if (role.bypass) warnings.push(`the application role '${appRole}' has BYPASSRLS: row-level security does not hold for it`);
  return warnings;
}

/**
 * Creates or migrates the tables of both stores (the session store and lcm's) as the connected role,
 * which then owns them, with row-level security enabled and forced on every scoped table; then, with
 * `appRole`, grants that role what the stores need and nothing more (see {@link PostgresMigrateOptions}).
 * Safe to run again: current schemas are left as they are and the grants repeated. Throws when a table
 * of the schema belongs to another role (a single-role set-up's: see README, "Migrations as the owner").
 */
export async function migratePostgres(options: PostgresMigrateOptions): Promise<PostgresMigrateResult> {
  const connection = connect(options, "migratePostgres");
  try {
    const owner = (await connection.pool.query<{ owner: string }>("SELECT current_user AS owner")).rows[0]!.owner;
    const warnings = options.appRole === undefined ? [] : await checkAppRole(connection.pool, options.appRole, owner);
    const foreign = await tablesOwnedByOthers(connection.pool, connection.schemaName);
    if (foreign.length > 0) {
      const list = foreign.map((t) => `${t.table} (${t.owner})`).join(", ");
      throw new SessionStoreError(
        `migratePostgres: schema ${connection.schemaName} holds tables '${owner}' does not own: ${list}. ` +
          `Hand them to the owner first, as a superuser: REASSIGN OWNED BY ${quoteIdent(foreign[0]!.owner)} TO ${quoteIdent(owner)};`,
      );
    }
    const steps: MigrationStep[] = [];
    for (const [component, migrations] of COMPONENTS) steps.push(await migrate(connection, component, migrations));
    if (options.appRole !== undefined) {
      const s = connection.schema;
      const app = quoteIdent(options.appRole);
      await withTransaction(connection.pool, async (client) => {
        await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${app}`);
        await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${app}`);
        // the schema version is the owner's to write: the workers only read it
        await client.query(`REVOKE INSERT, UPDATE, DELETE ON ${s}.schema_versions FROM ${app}`);
        await client.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${app}`);
      });
    }
    return { schema: connection.schemaName, owner, steps, ...(options.appRole === undefined ? {} : { appRole: options.appRole }), warnings };
  } finally {
    if (connection.ownsPool) await connection.pool.end().catch(() => undefined);
  }
}
