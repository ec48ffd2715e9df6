/**
 * `@context-engine/postgres`: the session store and the lcm store over PostgreSQL, for many gateway
 * workers sharing sessions. The stores answer asynchronously (`SessionStoreAsync`); the embedded SQLite
 * stores of `@context-engine/core` and `@context-engine/lcm` stay the default. Listed in config
 * `plugins:`, it opens lcm's store for `lcm.database_url` (see {@link register}). {@link migratePostgres}
 * (the `context-engine-postgres migrate` command) creates the tables as an owner role of their own.
 */
export { openPostgresStore, PostgresSessionStore, type PostgresStoreOptions } from "./session/PostgresSessionStore.js";
export { DEFAULT_SCHEMA, type PgConnectionOptions } from "./connection.js";
export { openPostgresLcmStore, PostgresLcmStore } from "./lcm/PostgresLcmStore.js";
export { register, openPostgresStoreFor, isPostgresUrl } from "./plugin.js";
export { migratePostgres, type PostgresMigrateOptions, type PostgresMigrateResult } from "./ownerMigration.js";
export type { MigrationStep } from "./migrate.js";
