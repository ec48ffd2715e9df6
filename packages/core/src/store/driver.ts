/**
 * better-sqlite3, loaded when a store is first opened. It is an optional peer dependency of
 * `@context-engine/core`, so plugin authors who never open a store install nothing native.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { SessionStoreError } from "./types.js";

let driver: typeof BetterSqlite3 | undefined;

/** The better-sqlite3 `Database` constructor; a missing package is a {@link SessionStoreError} saying what to install. */
export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver === undefined) {
    try {
      driver = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") throw error;
      throw new SessionStoreError("the SQLite session store needs the better-sqlite3 package (an optional peer dependency): npm install better-sqlite3@12");
    }
  }
  return driver;
}
