/**
 * `@context-engine/postgres` as a plugin (listed in config `plugins:`): it registers no engine, it offers
 * a store driver for `postgres://` and `postgresql://` URLs through the host's `storeDriver` hook, so a
 * plugin that asks for a store by URL (lcm, for `lcm.database_url`) gets the PostgreSQL one.
 */
import type { HostHooks } from "@context-engine/core";
import { openPostgresLcmStore } from "./lcm/PostgresLcmStore.js";

/** The name this package taps the host's hooks under. */
export const POSTGRES_PLUGIN_NAME = "@context-engine/postgres";

/** True for a URL this driver opens (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The store a `storeDriver` request asks for when its URL is PostgreSQL's and its kind one this package
 * implements (`"lcm"`: the lcm store, tables created or migrated on open), else undefined (another
 * driver may answer).
 */
export async function openPostgresStoreFor(request: { kind: string; url: string }): Promise<unknown> {
  if (!isPostgresUrl(request.url)) return undefined;
  if (request.kind === "lcm") return openPostgresLcmStore({ connectionString: request.url });
  return undefined;
}

/** Plugin entry point: taps the host's `storeDriver` hook with {@link openPostgresStoreFor}. */
export function register(ctx: { hooks: Pick<HostHooks, "storeDriver"> }): void {
  ctx.hooks.storeDriver.tapPromise(POSTGRES_PLUGIN_NAME, openPostgresStoreFor);
}
