/**
 * Third-party modules lcm uses (zod, better-sqlite3). `@context-engine/lcm`'s package.json does not list
 * them yet, so under pnpm's strict layout they are loaded through core's dependencies for now. Once
 * the package lists `zod` and `better-sqlite3`, this file becomes two plain imports.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const requireFromCore = createRequire(new URL("../../../packages/core/package.json", import.meta.url));

/** The better-sqlite3 `Database` constructor. */
export const Database = requireFromCore("better-sqlite3") as typeof BetterSqlite3;
/** An open better-sqlite3 database. */
export type SqliteDatabase = BetterSqlite3.Database;
/** A prepared better-sqlite3 statement. */
export type SqliteStatement<P extends unknown[] = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;

export { z } from "../../../packages/core/node_modules/zod/index.js";
