/**
 * The session store a command reads and whose sessions it may see, from `--db`, `--scope` and
 * `--all-scopes`: one rule for `sessions` and `mcp`. One scope (`default` unless `--scope` names another)
 * unless the operator asks for every one, so a shared store is never read across owners by accident.
 */
import { existsSync } from "node:fs";
import { DEFAULT_SESSION_SCOPE, openSqliteStore } from "@context-engine/core";
import { isScope } from "@context-engine/core/internal";
import { scopedSearchSource, type SessionSearchSource, type SqliteSessionStore } from "@context-engine/core/store";
import { UsageError } from "./errors.js";

/** The scope flags as parseArgs gives them. */
export interface ScopeFlags {
  scope?: string | undefined;
  "all-scopes"?: boolean | undefined;
}

/** The scope `--scope` / `--all-scopes` select: a scope's id, or undefined for every scope (`--all-scopes`). */
export function scopeFromFlags(flags: ScopeFlags): string | undefined {
  if (flags["all-scopes"] === true) {
    if (flags.scope !== undefined) throw new UsageError("give --scope or --all-scopes, not both");
    return undefined;
  }
  const scope = flags.scope ?? DEFAULT_SESSION_SCOPE;
  // a blank scope would read as none, the operator's view of every scope
  if (!isScope(scope)) throw new UsageError(`--scope must name a scope (a tenant or user id), got ${JSON.stringify(flags.scope)}`);
  return scope;
}

/** What `session_search` reads of `store` for `scope`: that scope's sessions only, or every one when `scope` is undefined. */
export function searchSourceFor(store: SessionSearchSource, scope: string | undefined): SessionSearchSource {
  return scope === undefined ? store : scopedSearchSource(store, scope);
}

/** The SQLite session store at `path`, which must exist already (reading never creates one). */
export function openExistingSessionStore(path: string): SqliteSessionStore {
  if (!existsSync(path)) throw new Error(`no session store at ${path} (pass --db <file>, or fill it with \`context-engine sessions import <transcript>\`)`);
  return openSqliteStore(path);
}
