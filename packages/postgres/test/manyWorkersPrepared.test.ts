/**
 * Many workers on one PostgreSQL database with background preparation and the agent's compact_context
 * requests (test/support/preparedWorkload.ts): 4 worker processes × 8 shared sessions, a 1 s loopback summarizer.
 */
import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import { taggedSummaryReply } from "../../../test/support/preparedWorkload.js";
import { auditPrepared, preparedFigures, runPreparedWorkers, type PreparedLoad } from "../../../test/support/preparedWorkers.js";
import { preparedWorkloadProblems } from "../../../test/support/preparedWorkloadProblems.js";
import { openPostgresStore } from "../src/index.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();
const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 1_000, then: { kind: "reply", reply: taggedSummaryReply() } });

describe("many workers on one PostgreSQL database, summaries prepared in the background", () => {
  it("loses and repeats no turn, applies each summary once, honours every request at its session's next boundary, and sends no range twice", async () => {
    const url = await server().createDatabase();
    (await openPostgresStore({ connectionString: url })).close();
    const load: PreparedLoad = { store: { kind: "postgres", url }, summarizerUrl: fixture.current.baseUrl, workers: 4, sessions: 8, rounds: 16, requestChance: 0.15, turnMs: 600 };
    const reports = await runPreparedWorkers(load);
    const store = await openPostgresStore({ connectionString: url });
    try {
      const audit = await auditPrepared(store, load, reports, fixture.current.requests);
      console.log(preparedFigures(audit, load));
      expect(preparedWorkloadProblems(audit, reports)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 300_000);
});
