import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { describeSharedWork, SHARED_SUMMARY } from "../../../../test/support/sharedWorkContract.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { sharedStateStoreOf } from "../../src/store/sharedState.js";

const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 200, then: { kind: "success", content: SHARED_SUMMARY } });
const dir = mkdtempSync(join(tmpdir(), "shared-work-"));
let path = join(dir, "0.db");
let n = 0;
const stores: SqliteSessionStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeSharedWork("workers on one SQLite file share background summaries and compact_context requests", {
  newStore: async () => {
    const store = openSqliteStore(path);
    stores.push(store);
    return store;
  },
  reset: async () => {
    path = join(dir, `${++n}.db`);
  },
  summaries: () => fixture.current,
});

describe("the SQLite session store as a store workers share", () => {
  it("offers what sharing needs (take and claim), so an engine given it shares its work through it", () => {
    const store = openSqliteStore(join(dir, "offers.db"));
    stores.push(store);
    expect(sharedStateStoreOf(store)).toBe(store);
    expect(sharedStateStoreOf({ loadEngineState: () => undefined, saveEngineState: () => undefined, clearEngineState: () => undefined })).toBeUndefined();
  });
});
