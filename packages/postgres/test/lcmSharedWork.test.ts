/**
 * lcm workers on one PostgreSQL database, as a multi-worker lcm deployment runs them: the PostgreSQL
 * session store for the host (the shared state store) and `PostgresLcmStore` for lcm's tables, each
 * worker on its own connections, share compact_context requests and background summaries.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createContextHost, ExtractiveSummarizer } from "@context-engine/core";
import type { LcmEngine, LcmStoreAsync } from "@context-engine/lcm";
import { conversation, SMALL_CONFIG } from "../../../plugins/lcm/test/support.js";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { describeLcmSharedWork } from "../../../test/support/lcmSharedWorkContract.js";
import { openPostgresLcmStore, openPostgresStore, type PostgresSessionStore } from "../src/index.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();
const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 100, then: { kind: "success", content: "Goal: keep the module invariants." } });
let url: string | undefined;
const stores: PostgresSessionStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** The database of the current test (created on first use after a reset). */
async function database(): Promise<string> {
  return (url ??= await server().createDatabase());
}

describeLcmSharedWork("lcm workers on one PostgreSQL database (session store and lcm store)", {
  newSessionStore: async () => {
    const store = await openPostgresStore({ connectionString: await database() });
    stores.push(store);
    return store;
  },
  newLcmStore: async () => openPostgresLcmStore({ connectionString: await database() }),
  reset: async () => void (url = undefined),
  summaries: () => fixture.current,
});

// the package folders: the host resolves a folder in plugins: through its package.json
const LCM_PLUGIN_DIR = fileURLToPath(new URL("../../../plugins/lcm", import.meta.url));
const POSTGRES_PLUGIN_DIR = fileURLToPath(new URL("..", import.meta.url));

describe("a host with lcm on PostgreSQL and the PostgreSQL session store", () => {
  it("hands lcm the session store, which keeps the agent's compact_context request as lcm#compact_request for every worker", async () => {
    const connectionString = await server().createDatabase();
    const store = await openPostgresStore({ connectionString });
    stores.push(store);
    const dir = mkdtempSync(join(tmpdir(), "lcm-pg-shared-"));
    try {
      const config = { context: { engine: "lcm" }, plugins: [POSTGRES_PLUGIN_DIR, LCM_PLUGIN_DIR], compression: { compact_tool: { enabled: true, min_turns_between: 1 } }, lcm: { ...SMALL_CONFIG, database_url: connectionString } };
      const host = await createContextHost({ config: config as never, rootDir: dir, store, summarizer: new ExtractiveSummarizer(), model: { model: "test-model", contextLength: 4_000 } });
      expect(host.warnings).toEqual([]);
      const engine = host.engine as unknown as LcmEngine<LcmStoreAsync>;
      await engine.ingest(conversation(10), "h1");
      const answer = JSON.parse(await engine.handleToolCall("compact_context", { focus: "the cache module" }, { sessionId: "h1" })) as { accepted: boolean };
      expect(answer.accepted).toBe(true);
      expect(await store.loadEngineState("lcm#compact_request", "h1")).toEqual({ focus: "the cache module" });
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
