/**
 * Prompt-caching figures of the replay on real transcripts: each corpus transcript of a format the
 * importers know (../shared/corpus when present, else the bundled fixtures) is replayed with a Claude
 * model via Anthropic (its real 200,000-token window, built-in compressor, 20 s between requests) and
 * the cache-read share of input, the cost against no caching, and the distance to the ideal cache
 * (every repeated prefix token read) are printed and checked against the issue's targets on the long
 * sessions: ≥ 85 % reads, cost ≤ 25 % of uncached, within 5 % of the ideal.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextCompressor, type ChatMessage } from "@context-engine/core";
import { importTranscriptFile, replayConversation, type ReplayReport } from "@context-engine/core/lab";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(root, "../shared/corpus/raw");
const FIXTURES = join(root, "test/fixtures");
const MODEL = "claude-sonnet-4";
const PROVIDER = "anthropic";
const CONTEXT_LENGTH = 200_000;
/** Sessions with at least this many requests count as long (the targets apply to them). */
const LONG_SESSION_REQUESTS = 30;
const TARGET_READ_SHARE = 0.85;
const TARGET_COST_RATIO = 0.25;
const TARGET_IDEAL_GAP = 0.05;

interface Transcript {
  name: string;
  messages: ChatMessage[];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Corpus files the importers accept (any file no importer reads is listed as skipped), else the fixtures. */
async function transcripts(): Promise<{ source: string; list: Transcript[]; skipped: string[] }> {
  if (!existsSync(CORPUS)) {
    const list = await Promise.all(
      ["python-to-rust-port.json", "marshmallow-1867.json"].map(async (f) => ({ name: f, messages: (await importTranscriptFile(join(FIXTURES, f))).messages })),
    );
    return { source: "bundled fixtures (../shared/corpus is absent)", list, skipped: [] };
  }
  const list: Transcript[] = [];
  const skipped: string[] = [];
  for (const path of filesUnder(CORPUS).sort()) {
    const name = relative(CORPUS, path);
    try {
      list.push({ name, messages: (await importTranscriptFile(path)).messages });
    } catch {
      skipped.push(name);
    }
  }
  return { source: `../shared/corpus (${list.length} transcripts of known formats)`, list, skipped };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function shortName(name: string): string {
  return name.length > 58 ? `…${name.slice(-57)}` : name;
}

/** Where the input tokens that were not cache reads went, for the shortfall explanation. */
function shortfall(report: ReplayReport): string {
  const t = report.totals;
  const first = report.requests[0]?.promptTokens ?? 0;
  const newTokens = report.requests.reduce((s, r, i) => s + (i === 0 ? 0 : Math.max(0, r.promptTokens - (report.requests[i - 1]?.promptTokens ?? 0))), 0);
  const rewrites = report.compactions.reduce((s, c) => s + c.cacheRewriteTokens, 0);
  // A request after an idle gap longer than the TTL finds its prefix expired and writes it again.
  const ttlMs = report.ttl === "1h" ? 3_600_000 : 300_000;
  let expired = 0;
  let gaps = 0;
  report.requests.forEach((r, i) => {
    const previous = report.requests[i - 1];
    if (!previous || r.compacted || r.timestampMs - previous.timestampMs <= ttlMs) return;
    gaps++;
    expired += Math.max(0, Math.min(previous.promptTokens, r.promptTokens) - r.cacheRead);
  });
  return (
    `non-read input ${pct(1 - t.cacheReadShare)}: first request ${pct(first / t.inputTokens)}, ` +
    `tokens new to each request ${pct(newTokens / t.inputTokens)}, compaction rewrites ${pct(rewrites / t.inputTokens)}, ` +
    `prefixes expired after ${gaps} idle gap${gaps === 1 ? "" : "s"} over the ${report.ttl} TTL ${pct(expired / t.inputTokens)}; ` +
    `the ideal cache (no TTL) reads ${pct(t.idealCacheReadShare)}`
  );
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const { source, list, skipped } = await transcripts();
  console.log(`${MODEL} via ${PROVIDER}, ${CONTEXT_LENGTH.toLocaleString("en-US")}-token window, built-in compressor, 5m TTL; request times from the transcript's timestamps, else 20 s apart`);
  console.log(`transcripts: ${source}${skipped.length > 0 ? `; skipped (no importer): ${skipped.length}` : ""}`);
  console.log("");
  const header = ["transcript".padEnd(58), "msgs".padStart(5), "reqs".padStart(5), "compact".padStart(7), "reads".padStart(7), "ideal".padStart(7), "cost/uncached".padStart(14), "cost/ideal".padStart(11), "reads/ideal".padStart(12)];
  console.log(header.join(" "));
  const long: Array<{ name: string; report: ReplayReport }> = [];
  for (const { name, messages } of list) {
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: CONTEXT_LENGTH } });
    const report = await replayConversation(messages, { engine, model: MODEL, provider: PROVIDER });
    const t = report.totals;
    if (t.requests === 0) continue;
    const costRatio = t.noCachingCostUsd > 0 ? t.costUsd / t.noCachingCostUsd : 0;
    const idealRatio = t.idealCostUsd > 0 ? t.costUsd / t.idealCostUsd : 1;
    const readsRatio = t.idealCacheReadTokens > 0 ? t.cacheReadTokens / t.idealCacheReadTokens : 1;
    console.log(
      [shortName(name).padEnd(58), String(messages.length).padStart(5), String(t.requests).padStart(5), String(t.compactions).padStart(7), pct(t.cacheReadShare).padStart(7), pct(t.idealCacheReadShare).padStart(7), pct(costRatio).padStart(14), idealRatio.toFixed(3).padStart(11), pct(readsRatio).padStart(12)].join(" "),
    );
    if (t.requests >= LONG_SESSION_REQUESTS) long.push({ name, report });
  }

  console.log("");
  console.log(`targets on the long sessions (≥ ${LONG_SESSION_REQUESTS} requests): reads ≥ ${pct(TARGET_READ_SHARE)}, cost ≤ ${pct(TARGET_COST_RATIO)} of uncached, within ${pct(TARGET_IDEAL_GAP)} of the ideal cost`);
  for (const { name, report } of long) {
    const t = report.totals;
    const costRatio = t.costUsd / t.noCachingCostUsd;
    const idealGap = t.idealCostUsd > 0 ? t.costUsd / t.idealCostUsd - 1 : 0;
    const checks = [
      `reads ${pct(t.cacheReadShare)} ${t.cacheReadShare >= TARGET_READ_SHARE ? "met" : `MISSED by ${pct(TARGET_READ_SHARE - t.cacheReadShare)}`}`,
      `cost ${pct(costRatio)} of uncached ${costRatio <= TARGET_COST_RATIO ? "met" : `MISSED by ${pct(costRatio - TARGET_COST_RATIO)}`}`,
      `${pct(idealGap)} above ideal ${idealGap <= TARGET_IDEAL_GAP ? "met" : "MISSED"}`,
    ];
    console.log(`  ${shortName(name)}: ${checks.join("; ")}`);
    if (t.cacheReadShare < TARGET_READ_SHARE || costRatio > TARGET_COST_RATIO || idealGap > TARGET_IDEAL_GAP) {
      console.log(`    why: ${shortfall(report)}`);
      // a 1h TTL for sessions with gaps between turns.
      const engine = new ContextCompressor({ model: { model: MODEL, contextLength: CONTEXT_LENGTH } });
      const hour = (await replayConversation(list.find((l) => l.name === name)!.messages, { engine, model: MODEL, provider: PROVIDER, ttl: "1h" })).totals;
      console.log(`    with the 1h TTL: reads ${pct(hour.cacheReadShare)}, cost ${pct(hour.costUsd / hour.noCachingCostUsd)} of uncached, ${pct(hour.costUsd / hour.idealCostUsd - 1)} above ideal`);
    }
  }

  console.log("");
  console.log(`the long sessions again with a window of half their peak, so the compressor compacts (the cost of compaction on the cache):`);
  for (const { name, report: full } of long) {
    const contextLength = Math.max(8_000, Math.floor(full.totals.peakContextTokens / 2));
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength } });
    const report = await replayConversation(list.find((l) => l.name === name)!.messages, { engine, model: MODEL, provider: PROVIDER });
    const t = report.totals;
    console.log(
      `  ${shortName(name)}: window ${contextLength.toLocaleString("en-US")}, ${t.compactions} compactions, reads ${pct(t.cacheReadShare)} (ideal ${pct(t.idealCacheReadShare)}), ` +
        `cost ${pct(t.costUsd / t.noCachingCostUsd)} of uncached, ${pct(t.costUsd / t.idealCostUsd - 1)} above ideal, ${pct(t.costUsd / t.noCompactionCostUsd)} of never compacting`,
    );
    if (t.cacheReadShare < TARGET_READ_SHARE || t.costUsd / t.noCachingCostUsd > TARGET_COST_RATIO) console.log(`    why: ${shortfall(report)}`);
  }
}
