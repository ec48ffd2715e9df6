import { describe, expect, it } from "vitest";
import { MAX_QUERY_TERMS } from "../../src/store/ftsQuery.js";
import { planSearchQuery } from "../../src/store/search.js";

// What stores find for any user text is part of the store contract (contract/sessionStoreContract.ts);
// here: how the SQLite store plans a query.
describe("planSearchQuery", () => {
  it("plans an 800-word OR query as its first 64 distinct words and says so", () => {
    const words = Array.from({ length: 800 }, (_, i) => `filler${i}`);
    const query = [...words, ...words].join(" OR ");
    const plan = planSearchQuery(query);
    expect(plan).toMatchObject({ raw: undefined, termsGiven: 800, termsUsed: MAX_QUERY_TERMS });
    expect(plan.note).toMatch(/800 distinct words; only the first 64 were searched/);
  });

  it("runs a query of at most 64 words as written", () => {
    const plan = planSearchQuery("flamingo OR menu flamingo");
    expect(plan).toMatchObject({ raw: "flamingo OR menu flamingo", termsGiven: 2, termsUsed: 2, note: undefined });
  });
});
