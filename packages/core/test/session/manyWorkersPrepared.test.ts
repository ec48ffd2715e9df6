/**
 * Many workers on one SQLite file with background preparation and the agent's compact_context requests
 * (test/support/preparedWorkload.ts): 4 worker processes × 8 shared sessions, a 1 s loopback summarizer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { taggedSummaryReply } from "../../../../test/support/preparedWorkload.js";
import { auditPrepared, preparedFigures, runPreparedWorkers, type PreparedLoad } from "../../../../test/support/preparedWorkers.js";
import { preparedWorkloadProblems } from "../../../../test/support/preparedWorkloadProblems.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";

const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 1_000, then: { kind: "reply", reply: taggedSummaryReply() } });
const dir = mkdtempSync(join(tmpdir(), "prepared-workers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("many workers on one SQLite file, summaries prepared in the background", () => {
  it("loses and repeats no turn, applies each summary once, honours every request at its session's next boundary, and sends no range twice", async () => {
    const path = join(dir, "sessions.db");
    openSqliteStore(path).close();
    const load: PreparedLoad = { store: { kind: "sqlite", path }, summarizerUrl: fixture.current.baseUrl, workers: 4, sessions: 8, rounds: 16, requestChance: 0.15, turnMs: 600 };
    const reports = await runPreparedWorkers(load);
    const store = openSqliteStore(path);
    try {
      const audit = await auditPrepared(store, load, reports, fixture.current.requests);
      console.log(preparedFigures(audit, load));
      expect(preparedWorkloadProblems(audit, reports)).toEqual([]);
    } finally {
      store.close();
    }
  }, 300_000);
});
