/**
 * lcm benchmark: ingest rate into a real SQLite file, lcm_grep latency (full text through FTS5) at
 * 100,000 stored messages, an 800-word OR query, store size against the raw JSON, and the cold path
 * (per-turn compress() with freshly parsed message objects against re-used ones, issue #9; per-turn cost
 * at 1,000, 10,000 and 100,000 messages, issue 35, with CompactionSession's beside it). Prints
 * figures next to the targets (ingest ≥ 20,000 messages/s, lcm_grep p95 ≤ 10 ms, store ≤ 1.5×
 * raw JSON, fresh within 1.2× of warm); asserts nothing.
 */
import { mkdtempSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatMessage } from "../plugins/lcm/src/core.js";
import { LcmEngine } from "../plugins/lcm/src/engine.js";
import { coldPathFigures, coldPathLine } from "./lcmColdPath.js";
import { sessionTurnFigures, sessionTurnLine } from "./sessionTurns.js";
import { prng } from "../test/support/prng.js";

const TOTAL = 100_000;
const BATCH = 1_000;
const QUERIES = 300;

const WORDS = (
  "parser lexer token scheduler cache network storage renderer compiler planner indexer module function " +
  "invariant test failing passing build cargo rust python port struct trait impl error result option vector " +
  "string buffer socket thread mutex channel async await future stream iterator closure lifetime borrow " +
  "config yaml json schema migration database query index table column row commit branch merge rebase"
).split(" ");

function sentence(rand: () => number, words: number, i: number): string {
  const out: string[] = [];
  for (let w = 0; w < words; w++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  if (i % 97 === 0) out.push(`rare${i}`);
  return out.join(" ");
}

/** Message `i` of a synthetic agent session (user, assistant call, tool result, assistant answer). */
function message(i: number, rand: () => number): ChatMessage {
  switch (i % 4) {
    case 0:
      return { role: "user", content: `Please ${sentence(rand, 14, i)}.` };
    case 1:
      return { role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${WORDS[i % WORDS.length]}.rs` }) } }] };
    case 2:
      return { role: "tool", tool_call_id: `call_${i - 1}`, content: `${sentence(rand, 60, i)}\n${sentence(rand, 60, i + 1)}` };
    default:
      return { role: "assistant", content: `Done: ${sentence(rand, 24, i)}.` };
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lcm-bench-"));
  const dbPath = join(dir, "lcm.db");
  const engine = new LcmEngine({ dbPath, model: { model: "bench", contextLength: 1_000_000_000 } });
  try {
    const rand = prng(42);
    const batches: ChatMessage[][] = [];
    let rawBytes = 0;
    for (let start = 0; start < TOTAL; start += BATCH) {
      const batch: ChatMessage[] = [];
      for (let i = start; i < Math.min(TOTAL, start + BATCH); i++) batch.push(message(i, rand));
      rawBytes += Buffer.byteLength(JSON.stringify(batch));
      batches.push(batch);
    }
    const t0 = performance.now();
    for (const batch of batches) await engine.ingest(batch);
    const ingestMs = performance.now() - t0;
    const stored = engine.store.messageCount(engine.sessionId);
    const rate = stored / (ingestMs / 1000);

    const queries: string[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const kind = q % 3;
      if (kind === 0) queries.push(`rare${97 * Math.floor(rand() * (TOTAL / 97))}`);
      else if (kind === 1) queries.push(`${WORDS[Math.floor(rand() * WORDS.length)]} ${WORDS[Math.floor(rand() * WORDS.length)]}`);
      else queries.push(WORDS[Math.floor(rand() * WORDS.length)]!);
    }
    const times: number[] = [];
    let matches = 0;
    for (const pattern of queries) {
      const t = performance.now();
      const result = JSON.parse(await engine.handleToolCall("lcm_grep", { pattern, scope: "both", limit: 20 })) as { count?: number; error?: string };
      times.push(performance.now() - t);
      if (result.error) throw new Error(`lcm_grep failed for ${pattern}: ${result.error}`);
      matches += result.count ?? 0;
    }
    times.sort((a, b) => a - b);

    const orWords = Array.from({ length: 800 }, (_, i) => (i % 2 === 0 ? WORDS[i % WORDS.length]! : `rare${97 * i}`));
    const orStart = performance.now();
    const orResult = JSON.parse(await engine.handleToolCall("lcm_grep", { pattern: orWords.join(" | "), scope: "both", limit: 20 })) as { count?: number; query_cut?: { words_searched: number } };
    const orMs = performance.now() - orStart;

    engine.store.db.pragma("wal_checkpoint(TRUNCATE)");
    const storeBytes = fileSize(dbPath) + fileSize(`${dbPath}-wal`);
    const ratio = storeBytes / rawBytes;

    console.log(`ingest: ${stored.toLocaleString("en-US")} messages in ${(ingestMs / 1000).toFixed(2)} s = ${Math.round(rate).toLocaleString("en-US")} messages/s (target ≥ 20,000) ${rate >= 20_000 ? "ok" : "BELOW TARGET"}`);
    console.log(
      `lcm_grep over ${stored.toLocaleString("en-US")} messages, ${QUERIES} full-text queries (${matches} matches): p50 ${percentile(times, 0.5).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms, max ${times[times.length - 1]!.toFixed(2)} ms (target p95 ≤ 10 ms) ${percentile(times, 0.95) <= 10 ? "ok" : "ABOVE TARGET"}`,
    );
    console.log(`lcm_grep, 800-word | query: ${orMs.toFixed(1)} ms, ${orResult.count ?? 0} matches, ${orResult.query_cut?.words_searched ?? 800} distinct words searched (before the cap: 16 s in the issue's report)`);
    console.log(`store: ${(storeBytes / 1e6).toFixed(1)} MB for ${(rawBytes / 1e6).toFixed(1)} MB of raw JSON = ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? "ok" : "ABOVE TARGET"}`);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await coldPath();
}

/** Per-turn compress() with freshly parsed objects against re-used ones: ingest at 1k–100k messages, compaction at 1k–10k; CompactionSession at 1k–100k. */
async function coldPath(): Promise<void> {
  const make = (i: number) => message(i, prng(i + 1));
  for (const total of [1_000, 10_000, 100_000]) {
    console.log(coldPathLine(`cold path, ingest (below the threshold), ${total.toLocaleString("en-US")} messages`, total, await coldPathFigures(make, total, 5, { contextLength: 1_000_000_000 })));
  }
  // 100,000 messages would compact for minutes before the first timed turn
  for (const total of [1_000, 10_000]) {
    console.log(coldPathLine(`cold path, compaction (forced every turn), ${total.toLocaleString("en-US")} messages`, total, await coldPathFigures(make, total, 5, { contextLength: 40_000, force: true })));
  }
  // the built-in session shell, for comparison: it reads its conversation from its store, not from the host
  for (const total of [1_000, 10_000, 100_000]) {
    console.log(sessionTurnLine(total, await sessionTurnFigures(make, total, 5, false), await sessionTurnFigures(make, total, 5, true)));
  }
}
