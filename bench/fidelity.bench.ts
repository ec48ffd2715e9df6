/**
 * What the built-in compressor's summaries keep (the `context-engine eval` figures): each real corpus
 * transcript (../shared/corpus when present, the synthetic format fixtures left out; else the bundled
 * fixtures at windows small enough for them to compact) is replayed with the offline summarizer at a
 * 64,000-token window, and the share of paths, real errors, commands, user asks and tail references
 * each compaction kept is printed, with the first chunk's retention after 5 compactions (or the last).
 * Figures only; the goals of issue #11 are printed next to them.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextCompressor } from "@context-engine/core";
import { evaluateFidelity, firstChunkRetention, type FidelityReport, addSurvival, emptySurvival, survivalShare, type KindSurvival, importTranscriptFile } from "@context-engine/core/lab";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(root, "../shared/corpus/raw");
const FIXTURES = join(root, "test/fixtures");
const MODEL = "claude-sonnet-4";
const WINDOW = 64_000;
/** Hand-written format fixtures of the corpus (SOURCES.md §7): not benchmark data. */
const SYNTHETIC = /^claude-code-log\/|^claude-code-transcripts\//;
/** The bundled fixtures and the windows they compact in, when the corpus is absent. */
const BUNDLED: Array<[string, number]> = [
  ["python-to-rust-port.json", 8_000],
  ["marshmallow-1867.json", 8_000],
  ["raw/specstory/specstory-cli/.specstory/history/2026-01-28_13-10-29Z-take-a-look-at.md", 8_000],
  ["raw/swe-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj", 12_000],
  ["raw/swe-agent/trajectories/demonstrations/ctf/web/i_got_id_demo.traj", 10_000],
];
const GOALS = { path: 0.9, error: 0.8, ask: 0.9, firstChunk: 0.8 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function pct(entry: KindSurvival): string {
  const share = survivalShare(entry);
  return share === undefined ? "—" : `${(share * 100).toFixed(1)}%/${entry.total}`;
}

function shortName(name: string): string {
  return name.length > 56 ? `…${name.slice(-55)}` : name;
}

/** Transcripts to measure and the window for each. */
function transcripts(): { source: string; list: Array<{ name: string; path: string; window: number }> } {
  if (!existsSync(CORPUS)) {
    return { source: "bundled fixtures at small windows (../shared/corpus is absent)", list: BUNDLED.map(([name, window]) => ({ name, path: join(FIXTURES, name), window })) };
  }
  const list = filesUnder(CORPUS)
    .map((path) => ({ name: relative(CORPUS, path), path, window: WINDOW }))
    .filter(({ name }) => !SYNTHETIC.test(name) && !name.endsWith("SOURCES.md"))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { source: `../shared/corpus at a ${WINDOW.toLocaleString("en-US")}-token window`, list };
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const { source, list } = transcripts();
  console.log(`offline (extractive) summarizer, built-in compressor, ${MODEL}; transcripts: ${source}`);
  console.log("");
  console.log(["transcript".padEnd(56), "compact".padStart(7), "paths".padStart(11), "errors".padStart(11), "commands".padStart(11), "asks".padStart(11), "tail refs".padStart(11), "first chunk".padStart(16), "summary tok".padStart(11)].join(" "));
  const reports: FidelityReport[] = [];
  for (const { name, path, window } of list) {
    let messages;
    try {
      messages = (await importTranscriptFile(path)).messages;
    } catch {
      continue;
    }
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: window } });
    const report = await evaluateFidelity(messages, { engine, model: MODEL, provider: "anthropic" });
    if (report.compactions.length === 0) continue;
    reports.push(report);
    const s = report.survival;
    const retention = firstChunkRetention(report);
    const first = retention ? `${(retention.share * 100).toFixed(1)}% after ${retention.after}` : "—";
    console.log(
      [shortName(name).padEnd(56), String(report.compactions.length).padStart(7), pct(s.path).padStart(11), pct(s.error).padStart(11), pct(s.command).padStart(11), pct(s.ask).padStart(11), pct(report.references).padStart(11), first.padStart(16), String(Math.round(report.summaryTokens.max)).padStart(11)].join(" "),
    );
  }
  const all = reports.reduce((acc, r) => addSurvival(acc, r.survival), emptySurvival());
  const refs = reports.reduce((acc, r) => ({ total: acc.total + r.references.total, kept: acc.kept + r.references.kept }), { total: 0, kept: 0 });
  const retained = reports.map((r) => firstChunkRetention(r)?.share).filter((s): s is number => s !== undefined);
  const lowest = retained.length === 0 ? undefined : Math.min(...retained);
  const mark = (share: number | undefined, goal: number) => (share === undefined ? "" : share >= goal ? " (goal met)" : ` (goal ${goal * 100} %: MISSED)`);
  console.log("");
  console.log(`${reports.length} transcripts compacted:`);
  console.log(`  paths ${pct(all.path)}${mark(survivalShare(all.path), GOALS.path)}, real errors ${pct(all.error)}${mark(survivalShare(all.error), GOALS.error)}, user asks ${pct(all.ask)}${mark(survivalShare(all.ask), GOALS.ask)}`);
  console.log(`  commands ${pct(all.command)}, identifiers the kept tail refers back to ${pct(refs)}`);
  if (lowest !== undefined) {
    const mean = retained.reduce((a, b) => a + b, 0) / retained.length;
    console.log(`  first chunk's facts after 5 compactions (or the last): mean ${(mean * 100).toFixed(1)} %, lowest ${(lowest * 100).toFixed(1)} %${mark(lowest, GOALS.firstChunk)}`);
  }
}
