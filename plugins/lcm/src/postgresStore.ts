/**
 * lcm's store in PostgreSQL (config `lcm.database_url`): opened through `@context-engine/postgres`, an
 * optional peer dependency loaded only when configured, so hosts on SQLite never need it (or `pg`).
 */
import { LcmConfigError } from "./config.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** The package the PostgreSQL store comes from. */
export const POSTGRES_PACKAGE = "@context-engine/postgres";

/** The part of `@context-engine/postgres` lcm uses (typed here: lcm does not build against it). */
interface PostgresModule {
  openPostgresLcmStore(options: { connectionString: string }): Promise<LcmStoreAsync>;
}

/**
 * Opens the PostgreSQL lcm store at `url` (tables created or migrated on open). A missing package is an
 * {@link LcmConfigError} naming `lcm.database_url` and what to install; `from` is the package to load
 * (tests name one that is not installed).
 */
export async function openPostgresLcmStoreAt(url: string, from: string = POSTGRES_PACKAGE): Promise<LcmStoreAsync> {
  let postgres: PostgresModule;
  try {
    postgres = (await import(from)) as PostgresModule;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") || !String((error as Error).message).includes(from)) throw error;
    throw new LcmConfigError([`lcm.database_url: the PostgreSQL store needs the ${from} package (an optional peer dependency of @context-engine/lcm): npm install ${from}`]);
  }
  return postgres.openPostgresLcmStore({ connectionString: url });
}
