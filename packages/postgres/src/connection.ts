/**
 * The PostgreSQL side every store here shares: the pool (given, or opened from a connection string),
 * transactions, the per-session advisory lock, identifiers, and the error a store operation raises.
 */
import pg from "pg";
import { SessionStoreError } from "@context-engine/core";

/** Where a store keeps its tables. */
export interface PgConnectionOptions {
  /** A `postgres://` connection string (the store opens its own pool and closes it on `close()`); `process.env.DATABASE_URL` as it is, unset meaning none. */
  connectionString?: string | undefined;
  /** A pool of the host's (the store uses it and leaves it open on `close()`). */
  pool?: pg.Pool;
  /** Size of the pool the store opens (default 10). */
  maxConnections?: number;
  /** The schema the tables live in (default `context_engine`; created when missing). */
  schema?: string;
}

/** An open pool, whether the store owns it, and the quoted schema name. */
export interface PgConnection {
  pool: pg.Pool;
  ownsPool: boolean;
  /** The schema, quoted for SQL (`"context_engine"`). */
  schema: string;
  /** The schema as given (the advisory-lock keys include it). */
  schemaName: string;
  /** The compaction leases' own pool, opened with the first lease (see {@link leaseSessionCompaction}). */
  leases?: pg.Pool | undefined;
}

/** The schema stores use when none is given. */
export const DEFAULT_SCHEMA = "context_engine";

/** `name` as a quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Opens the pool of `options` (throws naming what is missing). */
export function connect(options: PgConnectionOptions, what: string): PgConnection {
  const schemaName = options.schema ?? DEFAULT_SCHEMA;
  if (typeof schemaName !== "string" || schemaName === "") throw new SessionStoreError(`${what}: schema must be a non-empty string`);
  if (options.pool) return { pool: options.pool, ownsPool: false, schema: quoteIdent(schemaName), schemaName };
  if (typeof options.connectionString !== "string" || options.connectionString === "") {
    throw new SessionStoreError(`${what}: give connectionString (postgres://user:password@host:port/database) or pool`);
  }
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // An idle connection the server dropped must not crash the host process.
  pool.on("error", () => undefined);
  return { pool, ownsPool: true, schema: quoteIdent(schemaName), schemaName };
}

/** Queries run on one connection (a pool or a client inside a transaction). */
export type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Runs `body` in one transaction on one connection: committed when it resolves, rolled back when it
 * throws. `begin` opens it (default `BEGIN`; {@link withSessionLock} takes a lock in the same round trip).
 */
export async function withTransaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await body(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs `body` in one transaction that sets `context_engine.scope` to `scope` for its duration: the
 * session tables' row-level security (session/schema.ts, v2) then shows it that scope's rows only.
 */
export function withScope<T>(pool: pg.Pool, scope: string, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT set_config('context_engine.scope', $1, true)", [scope]);
    return body(client);
  });
}

/**
 * `client` queried one statement at a time: a query waits for the one before it to finish, so callers
 * may start several at once (pg deprecates overlapping queries on one client).
 */
export function oneAtATime(client: Queryable): Queryable {
  let previous: Promise<unknown> = Promise.resolve();
  const query = (...args: unknown[]) => {
    const next = previous.then(() => (client.query as (...a: unknown[]) => Promise<unknown>)(...args));
    previous = next.catch(() => undefined);
    return next;
  };
  return { query: query as Queryable["query"] };
}

/** Connections the compaction leases of one store may hold at once (each while its summarizer runs). */
export const LEASE_CONNECTIONS = 32;

/** The leases' pool: apart from the stores' pool, kept open between leases so a lease costs no new connection. */
function leasePool(connection: PgConnection): pg.Pool {
  if (connection.leases === undefined) {
    const pool = new pg.Pool({ ...connection.pool.options, max: LEASE_CONNECTIONS, idleTimeoutMillis: 10_000 });
    pool.on("error", () => undefined);
    connection.leases = pool;
  }
  return connection.leases;
}

/** Closes the leases' pool, when one was opened (the store closes). */
export async function closeLeases(connection: PgConnection): Promise<void> {
  const pool = connection.leases;
  connection.leases = undefined;
  await pool?.end().catch(() => undefined);
}

/**
 * Claims the compaction of one session (`pg_try_advisory_xact_lock` on a connection of the leases' pool,
 * in a transaction held open until the release): undefined when another worker holds it. Not a connection
 * of the stores' pool, so compactions waiting on a summarizer never starve the pool their writes need;
 * when the worker dies, the server ends the transaction and the claim with it.
 */
export async function leaseSessionCompaction(connection: PgConnection, kind: "session" | "lcm", sessionId: string): Promise<(() => Promise<void>) | undefined> {
  const client = await leasePool(connection).connect();
  try {
    // BEGIN and the try in one round trip: a simple query (the key as an escaped literal) answers with both statements' results
    const key = pg.escapeLiteral(`context-engine:compact:${kind}:${connection.schemaName}:${sessionId}`);
    const results = (await client.query(`BEGIN; SELECT pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) AS held`)) as unknown as pg.QueryResult<{ held: boolean }>[];
    if (results.at(-1)?.rows[0]?.held === true) {
      return async () => {
        const ended = await client.query("COMMIT").then(() => undefined, (error: unknown) => error);
        client.release(ended instanceof Error ? ended : undefined);
      };
    }
    await client.query("ROLLBACK");
    client.release();
    return undefined;
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/** The advisory-lock key of one session's writes (`kind` keeps the session store's and lcm's apart). */
function sessionLockKey(connection: PgConnection, kind: "session" | "lcm", sessionId: string): string {
  return `context-engine:${kind}:${connection.schemaName}:${sessionId}`;
}

/**
 * Runs `body` in one transaction holding the advisory lock of one session (`pg_advisory_xact_lock`,
 * released at COMMIT or ROLLBACK): every write of a session (append, compaction, undo) takes it first, so
 * writers of one session, in any process on any machine, run one at a time while other sessions go on.
 * BEGIN and the lock are one round trip (the key goes as an escaped literal: a simple query takes no parameters).
 */
export function withSessionLock<T>(connection: PgConnection, kind: "session" | "lcm", sessionId: string, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(connection.pool, body, `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${pg.escapeLiteral(sessionLockKey(connection, kind, sessionId))}, 0))`);
}

/** A BIGINT/COUNT column (returned as text by `pg`) as a number; null stays null. */
export function num(value: string | number | null): number;
export function num(value: string | number | null | undefined): number | null;
export function num(value: string | number | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}
