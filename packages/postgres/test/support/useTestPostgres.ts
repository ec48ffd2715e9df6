/** A test file's PostgreSQL server: started before its tests, stopped after them. */
import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "./postgresServer.js";

/** Registers the start and stop of a server for the calling test file; the getter returns it once started. */
export function useTestPostgres(): () => TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error("the test PostgreSQL server is used before it started (call it inside a test)");
    return server;
  };
}
