/**
 * Many workers with summaries prepared in the background (test/support/preparedWorkload.ts): 4 worker
 * processes × 8 shared sessions on one SQLite file, then on one PostgreSQL database (a server started as
 * the tests do), a 1 s loopback summarizer, the agent's compact_context requests on random turns. Prints
 * how each compaction got its summary, the trigger call's p50 / p99 when a prepared summary was ready (on
 * this worker or another), requests honoured, summarizer calls, and whether every turn survived once;
 * then the same trigger call alone, without the other workers' load. Asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../packages/core/src/store/sqliteStore.js";
import { openPostgresStore } from "../packages/postgres/src/index.js";
import { startTestPostgres } from "../packages/postgres/test/support/postgresServer.js";
import { startOpenAIFixtureServer } from "../test/support/openaiFixtureServer.js";
import { taggedSummaryReply } from "../test/support/preparedWorkload.js";
import { auditPrepared, percentile, preparedFigures, runPreparedWorkers, type PreparedLoad } from "../test/support/preparedWorkers.js";
import { ContextCompressor, RoughTokenCounter, SUMMARY_SECTIONS, type SessionStoreAsync, type Summarizer } from "../packages/core/src/index.js";
import { CompactionSessionAsync } from "../packages/core/src/session/index.js";
import { readRounds } from "../test/support/toolRounds.js";

const LOAD = { workers: 4, sessions: 8, rounds: 60, requestChance: 0.1, turnMs: 600 };
const ALONE_RUNS = 40;

/**
 * The trigger call alone, uncontended: worker A prepares a session's summary (an instant summarizer),
 * worker B — another engine on the same store — takes the trigger and applies it. p50 / p99 over runs.
 */
async function triggerAlone(store: SessionStoreAsync): Promise<string> {
  const summary = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
  const summarizer: Summarizer = { name: "instant", summarize: async () => summary };
  const counter = new RoughTokenCounter();
  const engine = () => new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 12_000, prepare_at: 0.6 }, summarizer, tokenCounter: counter, store });
  const times: number[] = [];
  let fromStore = 0;
  for (let i = 0; i < ALONE_RUNS; i++) {
    const a = await CompactionSessionAsync.open({ engine: engine(), store, sessionId: `alone-${i}`, platform: "bench" });
    await a.append([{ role: "system", content: "You are a coding agent." }, ...readRounds(20, `alone${i}`)]);
    await a.maybeCompress({ promptTokens: 8_000 });
    await new Promise((settle) => setTimeout(settle, 30));
    const b = await CompactionSessionAsync.open({ engine: engine(), store, sessionId: `alone-${i}`, platform: "bench" });
    const started = performance.now();
    const result = await b.maybeCompress({ promptTokens: 12_500 });
    times.push(performance.now() - started);
    if (result.report?.preparation?.fromStore === true) fromStore++;
  }
  return `  the trigger alone (one worker applies another's prepared summary, ${fromStore}/${ALONE_RUNS} from the store, 81 messages): p50 / p99 ${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} ms`;
}

export async function run(): Promise<void> {
  const summaries = await startOpenAIFixtureServer();
  summaries.setDefault({ kind: "delay", ms: 1_000, then: { kind: "reply", reply: taggedSummaryReply() } });
  const dir = mkdtempSync(join(tmpdir(), "bench-workers-"));
  try {
    const path = join(dir, "sessions.db");
    openSqliteStore(path).close();
    const sqlite: PreparedLoad = { ...LOAD, store: { kind: "sqlite", path }, summarizerUrl: summaries.baseUrl };
    const sqliteReports = await runPreparedWorkers(sqlite);
    const sqliteStore = openSqliteStore(path);
    console.log(preparedFigures(await auditPrepared(sqliteStore, sqlite, sqliteReports, summaries.requests), sqlite));
    console.log(await triggerAlone(sqliteStore));
    sqliteStore.close();

    summaries.requests.length = 0;
    const server = await startTestPostgres();
    try {
      const url = await server.createDatabase();
      await (await openPostgresStore({ connectionString: url })).close();
      const postgres: PreparedLoad = { ...LOAD, store: { kind: "postgres", url }, summarizerUrl: summaries.baseUrl };
      const reports = await runPreparedWorkers(postgres);
      const store = await openPostgresStore({ connectionString: url });
      console.log(preparedFigures(await auditPrepared(store, postgres, reports, summaries.requests), postgres));
      console.log(await triggerAlone(store));
      await store.close();
    } finally {
      await server.stop();
    }
  } finally {
    await summaries.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
