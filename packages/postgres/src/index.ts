/**
 * `@context-engine/postgres`: the session store and the lcm store over PostgreSQL, for many gateway
 * workers sharing sessions. The stores answer asynchronously (`SessionStoreAsync`); the embedded SQLite
 * stores of `@context-engine/core` and `@context-engine/lcm` stay the default.
 */
export { openPostgresStore, PostgresSessionStore, type PostgresStoreOptions } from "./session/PostgresSessionStore.js";
export { DEFAULT_SCHEMA, type PgConnectionOptions } from "./connection.js";
export { openPostgresLcmStore, PostgresLcmStore } from "./lcm/PostgresLcmStore.js";
