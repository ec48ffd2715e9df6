/** lcm workers on one SQLite session file (the shared state store) and one lcm SQLite file share compact_context requests and background summaries. */
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "@context-engine/core";
import { sharedStateStoreOf, type SqliteSessionStore } from "@context-engine/core/store";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { describeLcmSharedWork } from "../../../test/support/lcmSharedWorkContract.js";
import { createLcmEngine } from "../src/index.js";
import { LcmStore } from "../src/store/LcmStore.js";
import { conversation, tempDir } from "./support.js";

const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 100, then: { kind: "success", content: "Goal: keep the module invariants." } });
const { dir, cleanup } = tempDir();
let n = 0;
const stores: SqliteSessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});
afterAll(() => cleanup());

describeLcmSharedWork("lcm workers on one SQLite session file and one lcm file", {
  newSessionStore: async () => {
    const store = openSqliteStore(join(dir, `sessions-${n}.db`));
    stores.push(store);
    return store;
  },
  newLcmStore: async () => new LcmStore(join(dir, `lcm-${n}.db`)),
  reset: async () => void n++,
  summaries: () => fixture.current,
});

describe("lcm given the host's SQLite session store", () => {
  it("shares through it when built by the plugin's factory: a compact_context request is kept there as lcm#compact_request", async () => {
    const store = openSqliteStore(join(dir, "host.db"));
    stores.push(store);
    expect(sharedStateStoreOf(store)).toBe(store);
    const compression = { compact_tool: { enabled: true, min_turns_between: 1 } };
    const engine = await createLcmEngine({ config: { compression, lcm: { db_path: join(dir, "host-lcm.db") } }, rootDir: dir, warn: () => {}, store });
    await engine.ingest(conversation(10), "h1");
    const answer = JSON.parse(await engine.handleToolCall("compact_context", { focus: "the cache module" }, { sessionId: "h1" })) as { accepted: boolean };
    expect(answer.accepted).toBe(true);
    expect(store.loadEngineState("lcm#compact_request", "h1")).toEqual({ focus: "the cache module" });
    expect(await engine.takeCompactionRequest("h1")).toEqual({ focus: "the cache module" });
    expect(store.loadEngineState("lcm#compact_request", "h1")).toBeUndefined();
    await engine.close();
  });
});
