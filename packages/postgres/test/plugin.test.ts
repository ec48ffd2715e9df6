/**
 * `@context-engine/postgres` as a plugin: listed in `plugins:` it registers no engine and offers the host
 * a store driver that opens the PostgreSQL lcm store for `postgres://` and `postgresql://` URLs (a real
 * server this file starts), leaving other schemes and store kinds to other drivers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createContextHost, createHostHooks } from "@context-engine/core";
import { openPostgresStoreFor, PostgresLcmStore, register } from "../src/index.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const POSTGRES_PLUGIN_DIR = fileURLToPath(new URL("..", import.meta.url));

const server = useTestPostgres();

describe("the postgres plugin", () => {
  it("loads from plugins: without registering an engine or a warning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pg-plugin-"));
    try {
      const host = await createContextHost({ config: { plugins: [POSTGRES_PLUGIN_DIR] } as never, rootDir: dir });
      expect([host.engine.name, host.registeredEngines, host.warnings]).toEqual(["compressor", [], []]);
      expect(host.hooks.storeDriver.taps.map((tap) => tap.name)).toEqual(["@context-engine/postgres"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("opens the lcm store, tables created, for a postgres:// or postgresql:// URL asked for through the host's storeDriver hook", async () => {
    const hooks = createHostHooks();
    register({ hooks });
    const url = await server().createDatabase();
    for (const asked of [url, url.replace(/^postgres:/, "postgresql:")]) {
      const store = await hooks.storeDriver.promise({ kind: "lcm", url: asked });
      try {
        expect(store).toBeInstanceOf(PostgresLcmStore);
        expect(await (store as PostgresLcmStore).messageCount("default")).toBe(0);
      } finally {
        await (store as PostgresLcmStore).close();
      }
    }
  });

  it("leaves another scheme or a store kind it does not implement to other drivers", async () => {
    expect(await openPostgresStoreFor({ kind: "lcm", url: "mysql://db/lcm" })).toBeUndefined();
    expect(await openPostgresStoreFor({ kind: "graph", url: "postgres://nowhere.invalid/lcm" })).toBeUndefined();
  });
});
