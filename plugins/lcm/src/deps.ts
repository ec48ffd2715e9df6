/** Third-party modules lcm uses, imported in one place: better-sqlite3, and zod as the core bundles it (`z` of `@context-engine/core`: one copy per process). */
import BetterSqlite3 from "better-sqlite3";

/** The better-sqlite3 `Database` constructor. */
export const Database: typeof BetterSqlite3 = BetterSqlite3;
/** An open better-sqlite3 database. */
export type SqliteDatabase = BetterSqlite3.Database;
/** A prepared better-sqlite3 statement. */
export type SqliteStatement<P extends unknown[] = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

export { z } from "@context-engine/core";
