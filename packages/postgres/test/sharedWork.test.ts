import { afterEach, describe, expect, it } from "vitest";
import { sharedStateStoreOf } from "../../core/src/store/sharedState.js";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { describeSharedWork, SHARED_SUMMARY } from "../../../test/support/sharedWorkContract.js";
import { openPostgresStore, type PostgresSessionStore } from "../src/index.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();
const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 200, then: { kind: "success", content: SHARED_SUMMARY } });
let url: string | undefined;
const stores: PostgresSessionStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

describeSharedWork("workers on one PostgreSQL database share background summaries and compact_context requests", {
  newStore: async () => {
    const store = await openPostgresStore({ connectionString: url ?? (url = await server().createDatabase()) });
    stores.push(store);
    return store;
  },
  reset: async () => {
    url = await server().createDatabase();
  },
  summaries: () => fixture.current,
});

describe("the PostgreSQL session store as a store workers share", () => {
  it("offers what sharing needs (take and claim), so an engine given it shares its work through it", async () => {
    const store = await openPostgresStore({ connectionString: await server().createDatabase() });
    stores.push(store);
    expect(sharedStateStoreOf(store)).toBe(store);
  });
});
