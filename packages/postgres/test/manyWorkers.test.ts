/**
 * Gateway workers sharing sessions: N worker processes × M sessions on one PostgreSQL database, each
 * appending turns to every session and compacting them while the others do the same. Prints the
 * throughput, and proves from the database that no turn was lost, duplicated or compacted twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";
import { auditSessions, runWorkerProcesses } from "./support/workers.js";

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("many workers on one PostgreSQL database", () => {
  it("loses, duplicates and double-compacts no turn while 4 processes append to and compact 6 shared sessions, one compaction per session at a time", async () => {
    const url = await server.createDatabase();
    const workers = 4;
    const load = { sessions: 6, rounds: 30, compactEvery: 5 };
    const started = performance.now();
    const reports = await runWorkerProcesses(url, workers, load);
    const seconds = (performance.now() - started) / 1000;

    const appended = reports.reduce((n, r) => n + r.appended, 0);
    const compacted = reports.reduce((n, r) => n + r.compacted, 0);
    const conflicts = reports.reduce((n, r) => n + r.conflicts, 0);
    const leftToOthers = reports.reduce((n, r) => n + r.leftToOthers, 0);
    const busiest = Math.max(...reports.map((r) => r.ms)) / 1000;
    console.log(
      `${workers} workers × ${load.sessions} sessions: ${appended} appends and ${compacted} compactions in ${busiest.toFixed(2)} s ` +
        `(${(appended / busiest).toFixed(0)} appends/s, ${(compacted / busiest).toFixed(1)} compactions/s; ${leftToOthers} left to the worker already compacting the session; ${seconds.toFixed(1)} s with process start-up)`,
    );

    expect(reports.flatMap((r) => r.failures)).toEqual([]);
    expect(appended).toBe(workers * load.sessions * load.rounds);
    const audits = await auditSessions(url, workers, load);
    for (const audit of audits) {
      expect(audit, audit.sessionId).toMatchObject({ lost: [], duplicated: [], unknown: [], seqsContiguous: true });
    }
    // the workers did compact the shared sessions, one worker at a time per session (the lease): none
    // ran a summarizer only to be overtaken; each written compaction is in the log once
    expect(compacted).toBeGreaterThan(0);
    expect(leftToOthers).toBeGreaterThan(0);
    expect(conflicts).toBe(0);
    expect(audits.reduce((n, a) => n + a.compactions, 0)).toBe(compacted);
  }, 300_000);
});
