/**
 * The PostgreSQL lcm store against the same contract as lcm's SQLite store (plugins/lcm/test/storeContract),
 * on a real server this file starts, plus its full-text search and the database's append-only rules.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeLcmStoreContract, newMessage, summaryRecord } from "../../../plugins/lcm/test/storeContract.js";
import type { SearchWindow } from "@context-engine/lcm/store";
import { openPostgresLcmStore, type PostgresLcmStore } from "../src/index.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describeLcmStoreContract<PostgresLcmStore>("PostgresLcmStore: the lcm store contract", {
  open: async () => openPostgresLcmStore({ connectionString: await server.createDatabase() }),
});

describe("PostgresLcmStore: full-text search and append-only tables", () => {
  it("finds words, phrases, prefixes, substrings and CJK in one session, newest first, within the time window", async () => {
    const store = await openPostgresLcmStore({ connectionString: await server.createDatabase() });
    try {
      const texts = ["the flamingo parser fails on tabs", "run cargo-llvm-cov over the crate", "数据库迁移已经完成", "flamingo tokens are fine now"];
      for (const [i, content] of texts.entries()) await store.appendMessages("s", [newMessage({ role: "user", content })], 1_000 * (i + 1));
      await store.appendMessages("other", [newMessage({ role: "user", content: "flamingo elsewhere" })], 1);
      const seqs = async (pattern: string, window: SearchWindow = { limit: 10 }) => (await store.searchMessagesFullText(["s"], pattern, window)).hits.map((m) => m.seq);
      expect(await seqs("flamingo")).toEqual([4, 1]);
      expect(await seqs("flamingo parser")).toEqual([1]);
      expect(await seqs("parser | tokens")).toEqual([4, 1]);
      // AND, OR and NOT are plain words, as in the SQLite store: `|` is the only alternation
      expect(await seqs("parser OR tokens")).toEqual([]);
      expect(await seqs("flamingo NOT parser")).toEqual([]);
      expect(await seqs('"cargo llvm"')).toEqual([2]);
      expect(await seqs("flamin*")).toEqual([4, 1]);
      expect(await seqs("迁移")).toEqual([3]);
      expect(await seqs("flamingo", { limit: 1 })).toEqual([4]);
      expect(await seqs("flamingo", { limit: 10, since: 2_000, before: 5_000 })).toEqual([4]);
      await expect(store.searchMessagesFullText(["s"], "*", { limit: 10 })).rejects.toThrow(/has no words to search for/);
      // several sessions, or every one, in one query
      const sessionsOf = async (scope: readonly string[] | "all") => (await store.searchMessagesFullText(scope, "flamingo", { limit: 10 })).hits.map((m) => `${m.session}:${m.seq}`);
      expect(await sessionsOf(["s", "other"])).toEqual(["other:1", "s:4", "s:1"]);
      expect(await sessionsOf("all")).toEqual(["other:1", "s:4", "s:1"]);
      expect(await sessionsOf(["other"])).toEqual(["other:1"]);
      expect(await sessionsOf([])).toEqual([]);

      const [m1, m2] = await store.getMessagesBySeq("s", 1, 2);
      await store.commitSummary({ ...summaryRecord("sum_a", "s", 1, 2), content: "parser work: 解析器修复" }, [{ type: "message", id: m1!.id }, { type: "message", id: m2!.id }], 0, 1);
      expect((await store.searchSummariesFullText(["s"], "解析器", { limit: 5 })).hits.map((x) => x.id)).toEqual(["sum_a"]);
      expect((await store.searchSummariesFullText(["other"], "parser", { limit: 5 })).hits).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("indexes an image written into a message's text as [image], never its base64 payload", async () => {
    const store = await openPostgresLcmStore({ connectionString: await server.createDatabase() });
    try {
      const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg".repeat(20);
      await store.appendMessages("s", [newMessage({ role: "user", content: `the failing page: data:image/png;base64,${png} overlaps` })], 1);
      const seqs = async (pattern: string) => (await store.searchMessagesFullText(["s"], pattern, { limit: 10 })).hits.map((m) => m.seq);
      expect(await seqs("iVBORw0KGgo")).toEqual([]);
      expect(await seqs("overlaps")).toEqual([1]);
      expect((await store.getMessagesBySeq("s", 1, 1))[0]!.message.content).toContain(png);
    } finally {
      await store.close();
    }
  });

  it("has the database refuse UPDATE and DELETE of messages, summaries, lineage and the log", async () => {
    const url = await server.createDatabase();
    const store = await openPostgresLcmStore({ connectionString: url });
    const [m] = await store.appendMessages("s", [newMessage({ role: "user", content: "kept" })], 1);
    await store.commitSummary(summaryRecord("sum_a", "s", 1, 1), [{ type: "message", id: m!.id }], 0, 0);
    await store.logCompaction({ session: "s", at: 1, passes: 1, tokensBefore: 2, tokensAfter: 1, summariesCreated: 1, fallbackSummaries: 0 });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const sql of [
        "DELETE FROM context_engine.lcm_messages",
        "UPDATE context_engine.lcm_messages SET message_json = '{}'",
        "TRUNCATE context_engine.lcm_messages CASCADE",
        "UPDATE context_engine.lcm_summaries SET content = 'x'",
        "DELETE FROM context_engine.lcm_summary_sources",
        "DELETE FROM context_engine.lcm_compactions",
      ]) {
        await expect(client.query(sql), sql).rejects.toThrow(/append-only/);
      }
      expect((await client.query("SELECT COUNT(*)::int AS n FROM context_engine.lcm_messages")).rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });
});
