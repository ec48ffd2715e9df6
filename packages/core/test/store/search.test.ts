import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_QUERY_TERMS } from "../../src/store/ftsQuery.js";
import { planSearchQuery } from "../../src/store/search.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";

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

  it("sends a 300-term query repeating one word to FTS5 as that word once", () => {
    const ors = planSearchQuery(Array.from({ length: 300 }, () => "alpha").join(" OR "));
    expect(ors).toMatchObject({ raw: undefined, literal: '"alpha"', termsGiven: 1, termsUsed: 1, note: undefined });
    const ands = planSearchQuery(Array.from({ length: 300 }, () => "Alpha").join(" "));
    expect(ands).toMatchObject({ raw: undefined, literal: '"Alpha"' });
    const mixed = planSearchQuery(Array.from({ length: 150 }, () => "alpha OR beta").join(" OR "));
    expect(mixed).toMatchObject({ raw: undefined, literal: '"alpha" OR "beta"' });
  });

  it("finds with a long repetitive query exactly what its distinct words find", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ce-search-"));
    const store = openSqliteStore(join(dir, "s.db"));
    try {
      const session = await store.createSession({ platform: "cli" });
      await store.appendMessages(session.id, [
        { role: "user", content: "alpha release" },
        { role: "assistant", content: "beta notes" },
        { role: "user", content: "gamma only" },
      ]);
      const seqs = (query: string) => store.search(query).map((h) => h.seq).sort();
      expect(seqs(Array.from({ length: 150 }, () => "alpha OR beta").join(" OR "))).toEqual(seqs("alpha OR beta"));
      expect(seqs(Array.from({ length: 300 }, () => "alpha").join(" "))).toEqual(seqs("alpha"));
      expect(seqs("alpha OR beta")).toEqual([1, 2]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
