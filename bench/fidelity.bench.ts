/**
 * What the built-in compressor's summaries keep, measured by the eval's own detectors (eval/detectors/,
 * which share no code with the summarizers): every real transcript of ../shared/corpus (the synthetic
 * format fixtures left out) is replayed with the offline summarizer at 32k, 64k, 128k and 200k-token
 * windows, and each compaction's removed facts are checked against what the engine wrote, and against
 * what an LLM summarizer's prompts would have shown the summary model (promptRecall.ts; no model is
 * called), also for one forced compaction of each whole transcript, the longest range. A transcript that never
 * compacts in a window on its own gets one forced compaction of its whole length (as `/compress` runs it;
 * "F" in the compactions column), so every transcript counts at every window. One row per transcript and
 * window with denominators (kept/total), then the totals of each split:
 *
 * - **held-out**: the transcripts listed in {@link HELD_OUT}, never looked at while tuning a summarizer;
 *   the goals of issues #18 and #32 are printed beside these figures;
 * - **tune**: every other real transcript (those in {@link TUNE}, and any file added to the corpus later);
 *   after the totals, a long session stitched from four of them ({@link STITCHED_TUNE}) with its own row
 *   and long-horizon line, kept out of the totals.
 *
 * The split was fixed before measuring the summarizer: within each source (the corpus' first folder),
 * transcripts sorted by imported message count, largest first (ties by path), alternate held-out, tune,
 * held-out, … so both halves hold long and short sessions of every source and format. Prints "corpus
 * unavailable" when ../shared/corpus is absent. Figures only; nothing is asserted.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addSurvival, emptySurvival, evaluateFidelity, evaluateForcedCompaction, firstChunkRetention, importTranscriptFile, survivalShare, type FidelityReport, type KindSurvival, type SurvivalByKind } from "@context-engine/core/lab";
import { addPromptFigures, measureForcedPrompts, measureSuffixPrompts, meteredCompressor, promptFigures, promptRecallLines, type PromptFigures } from "./promptRecall.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the corpus' transcripts are (../shared/corpus from the repository root). */
export const CORPUS = resolve(root, "../shared/corpus/raw");
const MODEL = "claude-sonnet-4";
const WINDOWS = [32_000, 64_000, 128_000, 200_000];
/** Windows of the summary's own goals (issue #18, #32 part 2) and of the prompt-recall goal (#32 part 1). */
const SUMMARY_GOAL_WINDOWS = new Set([32_000, 64_000, 128_000]);
const PROMPT_GOAL_WINDOWS = new Set([32_000, 64_000, 200_000]);
/** Hand-written format fixtures of the corpus (SOURCES.md §7): not benchmark data. */
export const SYNTHETIC = /^claude-code-log\/|^claude-code-transcripts\//;

/** The held-out transcripts (paths under ../shared/corpus/raw). Fixed; see the module comment for how they were chosen. */
export const HELD_OUT: readonly string[] = [
  "cctrace/conversation_full.xml",
  "claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl",
  "claude-reliability/snapshot-tests/tests/stop-hook-reflection-first-stop/transcript.jsonl",
  "openhands-sdk/tests/fixtures/llm_data/fncall-llm-message.json",
  "openhands-sdk/tests/fixtures/llm_data/nonfncall-llm-message.json",
  "openhands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl",
  "openhands/tests/runtime/trajs/basic.json",
  "specstory/specstory-cli/.specstory/history/2026-06-18_14-52-09Z-read-at-docs-session.md",
  "specstory/specstory-cli/.specstory/history/2026-05-13_13-48-53Z-i-ve-got-a.md",
  "specstory/.specstory/history/2026-01-23_17-24-15Z-look-at-the-gh.md",
  "specstory/specstory-cli/.specstory/history/2026-06-18_15-52-09Z-read-docs-git-provenance.md",
  "swe-agent/trajectories/demonstrations/ctf/web/i_got_id_demo.traj",
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source/marshmallow-code__marshmallow-1867.traj",
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__function_calling__install-1/marshmallow-code__marshmallow-1867.traj",
  "swe-agent/trajectories/demonstrations/function_calling_simple.traj",
];

/** The tune transcripts when the split was fixed (any real transcript not in {@link HELD_OUT} is tune). */
export const TUNE: readonly string[] = [
  "cctrace/.claude-sessions/phase0-investigation/raw_messages.jsonl",
  "claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "openhands-sdk/tests/fixtures/llm_data/llm-logs/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json",
  "openhands/tests/runtime/trajs/basic_gui_mode.json",
  "specstory/specstory-cli/.specstory/history/2026-06-23_20-26-43Z-ok-take-a-look.md",
  "specstory/specstory-cli/.specstory/history/2026-02-20_15-53-44Z-read-docs-git-provenance.md",
  "specstory/specstory-cli/.specstory/history/2026-01-28_13-10-29Z-take-a-look-at.md",
  "specstory/specstory-cli/.specstory/history/2026-07-27_15-48-50Z-we-added-an-antigravity.md",
  "swe-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
  "swe-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj",
  "swe-agent/trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__xml_sys-env_window100__t-0.20__p-0.95__c-2.00__install-1/marshmallow-code__marshmallow-1867.traj",
  "swe-agent/tests/test_data/trajectories/gpt4__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/6e44b9__sweagenttestrepo-1c2844.traj",
];

/**
 * Four tune transcripts joined into one long session (962 messages; system prompts after the first
 * dropped): the tune split holds no session long enough to show how the first chunk fades over many
 * compactions, so this row is where a long-horizon change is tuned. Printed apart, never in the totals.
 */
export const STITCHED_TUNE: readonly string[] = [
  "specstory/specstory-cli/.specstory/history/2026-02-20_15-53-44Z-read-docs-git-provenance.md",
  "specstory/specstory-cli/.specstory/history/2026-06-23_20-26-43Z-ok-take-a-look.md",
  "cctrace/.claude-sessions/phase0-investigation/raw_messages.jsonl",
  "specstory/specstory-cli/.specstory/history/2026-01-28_13-10-29Z-take-a-look-at.md",
];

/** Issues #18 and #32's goals for the summary, shown beside the held-out totals (reads are reported apart, without a goal). */
const GOALS: Array<[keyof SurvivalByKind, string, number]> = [
  ["path", "paths", 0.9],
  ["error", "real errors", 0.8],
  ["ask", "user asks", 0.95],
  ["command", "acting commands", 0.8],
  ["read", "reads", 0],
];
const FIRST_CHUNK_GOAL = 0.8;

type Split = "held-out" | "tune";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `kept/total (share)`, or "—" when there was nothing to keep. */
function cell(entry: KindSurvival): string {
  const share = survivalShare(entry);
  return share === undefined ? "—" : `${entry.kept}/${entry.total} ${(share * 100).toFixed(0)}%`;
}

function shortName(name: string): string {
  return name.length > 48 ? `…${name.slice(-47)}` : name;
}

/** A measured transcript at one window. */
interface Row {
  name: string;
  split: Split;
  window: number;
  messages: number;
  /** True when the row is one forced compaction (the transcript never compacted on its own). */
  forced: boolean;
  report: Pick<FidelityReport, "survival" | "references" | "firstChunk" | "compactions" | "summaryTokens">;
  /** What the summary model was shown (an LLM summarizer's prompts, chunks mode). */
  prompt: PromptFigures;
  /** What it was shown with `summary_request: suffix` (a transcript that compacted on its own), and the summaries sent as the suffix. */
  suffix?: { figures: PromptFigures; suffixSummaries: number } | undefined;
}

const COLUMNS: Array<[string, number]> = [["split", 8], ["transcript", 48], ["msgs", 5], ["comp", 4], ["paths", 13], ["errors", 13], ["acting", 13], ["reads", 13], ["asks", 13], ["tail refs", 13], ["first chunk", 13], ["sum tok", 7], ["prompt", 7]];

function line(cells: string[]): string {
  return cells.map((c, i) => (i < 2 ? c.padEnd(COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1]))).join(" ");
}

/** The share of the checked facts (paths, errors, acting commands, asks) the summary model was shown. */
function promptShare(recall: SurvivalByKind): string {
  const kinds = ["path", "error", "command", "ask"] as const;
  const total = kinds.reduce((n, k) => n + recall[k].total, 0);
  const kept = kinds.reduce((n, k) => n + recall[k].kept, 0);
  return total === 0 ? "—" : `${((kept / total) * 100).toFixed(0)}%`;
}

function printRow(row: Row): void {
  const { name, split, messages, forced, report } = row;
  const s = report.survival;
  const retention = firstChunkRetention(report);
  const first = retention ? `${(retention.share * 100).toFixed(0)}% @${retention.after}/${report.firstChunk.facts}` : "—";
  const recall = promptShare(row.prompt.recall);
  console.log(line([split, shortName(name), String(messages), forced ? "F" : String(report.compactions.length), cell(s.path), cell(s.error), cell(s.command), cell(s.read), cell(s.ask), cell(report.references), first, String(Math.round(report.summaryTokens.max)), recall]));
}

function printTotals(split: Split, rows: Row[], skipped: number, window: number): void {
  const forced = rows.filter((r) => r.forced).length;
  const all = rows.reduce((acc, r) => addSurvival(acc, r.report.survival), emptySurvival());
  const refs = rows.reduce((acc, r) => ({ total: acc.total + r.report.references.total, kept: acc.kept + r.report.references.kept }), { total: 0, kept: 0 });
  const goal = (share: number | undefined, target: number): string => (split !== "held-out" || !SUMMARY_GOAL_WINDOWS.has(window) || target === 0 || share === undefined ? "" : share >= target ? ` (goal ≥ ${target * 100} %: met)` : ` (goal ≥ ${target * 100} %: MISSED)`);
  console.log(`  ${split}: ${rows.length} transcripts, ${rows.length - forced} compacted on their own, ${forced} by one forced compaction${skipped > 0 ? `; ${skipped} had nothing to compact` : ""}`);
  for (const [kind, label, target] of GOALS) console.log(`    ${label.padEnd(12)} ${cell(all[kind]).padStart(16)}${goal(survivalShare(all[kind]), target)}`);
  console.log(`    ${"tail refs".padEnd(12)} ${cell(refs).padStart(16)}`);
  const retained = rows.filter((r) => !r.forced).map((r) => firstChunkRetention(r.report)?.share).filter((s): s is number => s !== undefined);
  if (retained.length > 0) {
    const lowest = Math.min(...retained);
    const mean = retained.reduce((a, b) => a + b, 0) / retained.length;
    console.log(`    first chunk after 5 compactions (or the last), transcripts that compacted on their own: mean ${(mean * 100).toFixed(1)} %, lowest ${(lowest * 100).toFixed(1)} % of ${retained.length}${goal(lowest, FIRST_CHUNK_GOAL)}`);
  }
  const kept = GOALS.reduce((sum, [kind]) => sum + all[kind].kept, 0);
  const tokens = rows.reduce((sum, r) => sum + r.report.compactions.reduce((t, c) => t + c.summaryTokens, 0), 0);
  if (tokens > 0) console.log(`    density      ${((kept / tokens) * 1000).toFixed(1)} facts kept per 1k summary tokens (${kept} facts: paths, errors, commands, reads, asks; ${tokens.toLocaleString("en-US")} summary tokens)`);
  for (const text of promptRecallLines("the summary model's prompt (an LLM summarizer's, chunks)", addPromptFigures(rows.map((r) => r.prompt)), split === "held-out" && PROMPT_GOAL_WINDOWS.has(window))) console.log(text);
  const replayed = rows.filter((r) => r.suffix !== undefined);
  if (replayed.length === 0) return;
  const suffix = addPromptFigures(replayed.map((r) => r.suffix!.figures));
  const sent = replayed.reduce((n, r) => n + r.suffix!.suffixSummaries, 0);
  console.log(`    the ${replayed.length} transcripts that compacted on their own, the separate request against the suffix (summary_request: suffix, the conversation as the agent sent it):`);
  for (const text of promptRecallLines("separate", addPromptFigures(replayed.map((r) => r.prompt)), false)) console.log(text);
  for (const text of promptRecallLines(`suffix, ${sent} of ${suffix.summaries} summaries as the suffix (the others separate: a cold cache, a full window)`, suffix, false)) console.log(text);
}

/** Compactions after which the long-horizon curve is quoted (issue #18). */
const HORIZON_POINTS = [6, 12, 15];
/** Sessions with at least this many compactions in a window get a long-horizon line. */
const LONG_HORIZON_COMPACTIONS = 10;
const HORIZON_GOAL = 0.5;

/** For each transcript that compacted {@link LONG_HORIZON_COMPACTIONS} times or more: the first chunk's curve and the first compacted ask. */
function printLongHorizon(rows: Row[]): void {
  const long = rows.filter((r) => !r.forced && r.report.compactions.length >= LONG_HORIZON_COMPACTIONS);
  if (long.length === 0) return;
  console.log("  long horizon (transcripts with ≥ 10 compactions):");
  for (const { name, split, report } of long) {
    const { retained, fromCompaction, firstAsk } = report.firstChunk;
    const at = (n: number) => (retained.length >= n - fromCompaction + 1 ? `${(retained[n - fromCompaction]! * 100).toFixed(0)}% after ${n}` : undefined);
    const points = HORIZON_POINTS.map(at).filter((p): p is string => p !== undefined);
    const last = retained.at(-1);
    const lastLabel = `${last === undefined ? "—" : (last * 100).toFixed(0)}% after the last (${report.compactions.length})`;
    const goal = split === "held-out" && last !== undefined ? ` (goal ≥ ${HORIZON_GOAL * 100} % after 15: ${last >= HORIZON_GOAL ? "met" : "MISSED"})` : "";
    console.log(`    ${split} ${shortName(name)}: first chunk (${report.firstChunk.facts} facts) ${[...points, lastLabel].join(", ")}${goal}`);
    const { asks } = report.firstChunk;
    if (asks.total > 0 && asks.retained.length > 0) {
      const keptAfterLast = asks.retained.at(-1)!;
      const lowest = Math.min(...asks.retained);
      const others = asks.othersRetained.at(-1)!;
      const met = split === "held-out" ? ` (goal: every ask, and ≥ ${HORIZON_GOAL * 100} % of the rest: ${lowest === asks.total && others >= HORIZON_GOAL ? "met" : "MISSED"})` : "";
      console.log(`      the first chunk's asks: ${keptAfterLast}/${asks.total} after the last compaction (fewest at any: ${lowest}); its other facts ${(others * 100).toFixed(0)} %${met}`);
    }
    if (firstAsk !== undefined) {
      const lost = firstAsk.retained.indexOf(false);
      const through = firstAsk.fromCompaction + firstAsk.retained.length - 1;
      const status = lost === -1 ? `kept through compaction ${through}` : `LOST at compaction ${firstAsk.fromCompaction + lost}`;
      console.log(`      first compacted ask (from compaction ${firstAsk.fromCompaction}): ${status}${split === "held-out" ? ` (goal: every compaction: ${lost === -1 ? "met" : "MISSED"})` : ""}`);
    }
  }
}

/** The {@link STITCHED_TUNE} session measured at `window`, or undefined when one of its transcripts is missing. */
async function stitchedRow(transcripts: ReadonlyArray<{ name: string; messages: Awaited<ReturnType<typeof importTranscriptFile>>["messages"] }>, window: number): Promise<Row | undefined> {
  const parts = STITCHED_TUNE.map((name) => transcripts.find((t) => t.name === name)?.messages);
  if (parts.some((part) => part === undefined)) return undefined;
  const messages = parts.flatMap((part, i) => (i === 0 ? part! : part!.filter((m) => m.role !== "system")));
  const { engine, meter } = meteredCompressor(MODEL, window);
  const report = await evaluateFidelity(messages, { engine, model: MODEL, provider: "anthropic", prompts: meter });
  return { name: "stitched: 4 tune transcripts", split: "tune", window, messages: messages.length, forced: false, report, prompt: promptFigures(meter, report.promptRecall) };
}

/**
 * What the summary model is shown of the longest ranges: one forced compaction of each whole transcript
 * at `window` (as a user's `/compress` of a long session runs it), per split, read in chunks; and where
 * a range was longer than the model's input (a summary took more than one call), chunks against digest
 * (auxiliary.compression.oversized_range) on those transcripts: recall, calls and prompt tokens.
 */
async function printWholeRanges(transcripts: ReadonlyArray<{ name: string; split: Split; messages: Parameters<typeof measureForcedPrompts>[0] }>, window: number): Promise<void> {
  console.log("  one forced compaction of each whole transcript (the longest range):");
  const oversized: Array<{ chunks: PromptFigures; digest: PromptFigures }> = [];
  for (const split of ["held-out", "tune"] as const) {
    const figures: PromptFigures[] = [];
    for (const { messages } of transcripts.filter((t) => t.split === split)) {
      const chunks = await measureForcedPrompts(messages, MODEL, window, "chunks");
      if (chunks === undefined) continue;
      figures.push(chunks);
      if (chunks.maxCallsPerSummary <= 1) continue;
      const digest = await measureForcedPrompts(messages, MODEL, window, "digest");
      if (digest !== undefined) oversized.push({ chunks, digest });
    }
    for (const text of promptRecallLines(`${split}, ${figures.length} transcripts (chunks)`, addPromptFigures(figures), split === "held-out" && PROMPT_GOAL_WINDOWS.has(window))) console.log(text);
  }
  if (oversized.length === 0) return;
  console.log(`  ranges longer than the summary model's input (${oversized.length} transcripts, both splits): chunks against digest`);
  for (const text of promptRecallLines("chunks", addPromptFigures(oversized.map((o) => o.chunks)), false)) console.log(text);
  for (const text of promptRecallLines("digest", addPromptFigures(oversized.map((o) => o.digest)), false)) console.log(text);
}

/** Runs the benchmark on the transcripts under `corpus` (default ../shared/corpus/raw). */
export async function run(corpus: string = CORPUS): Promise<void> {
  if (!existsSync(corpus)) {
    console.log("corpus unavailable: ../shared/corpus is absent, so there is no held-out split to measure");
    return;
  }
  const heldOut = new Set(HELD_OUT);
  const files = filesUnder(corpus)
    .map((path) => ({ name: relative(corpus, path), path }))
    .filter(({ name }) => !SYNTHETIC.test(name))
    .sort((a, b) => a.name.localeCompare(b.name));
  const transcripts: Array<{ name: string; split: Split; messages: Awaited<ReturnType<typeof importTranscriptFile>>["messages"] }> = [];
  for (const { name, path } of files) {
    try {
      transcripts.push({ name, split: heldOut.has(name) ? "held-out" : "tune", messages: (await importTranscriptFile(path)).messages });
    } catch (error) {
      console.log(`skipped ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const missing = HELD_OUT.filter((name) => !transcripts.some((t) => t.name === name));
  console.log(`offline (extractive) summarizer, built-in compressor, ${MODEL}; ${transcripts.length} real transcripts of ../shared/corpus`);
  console.log(`held-out ${transcripts.filter((t) => t.split === "held-out").length}, tune ${transcripts.filter((t) => t.split === "tune").length}${missing.length > 0 ? `; held-out files missing: ${missing.join(", ")}` : ""}`);
  console.log("cells: facts kept/facts removed (share); first chunk: share retained @ after N compactions / its facts");
  for (const window of WINDOWS) {
    console.log("");
    console.log(`── ${window.toLocaleString("en-US")}-token window`);
    console.log(line(COLUMNS.map(([name]) => name)));
    const rows: Row[] = [];
    const skipped: Record<Split, number> = { "held-out": 0, tune: 0 };
    for (const split of ["held-out", "tune"] as const) {
      for (const { name, messages } of transcripts.filter((t) => t.split === split)) {
        const { engine, meter } = meteredCompressor(MODEL, window);
        let row: Row;
        const report = await evaluateFidelity(messages, { engine, model: MODEL, provider: "anthropic", prompts: meter });
        if (report.compactions.length > 0) row = { name, split, window, messages: messages.length, forced: false, report, prompt: promptFigures(meter, report.promptRecall), suffix: await measureSuffixPrompts(messages, MODEL, window) };
        else {
          const forced = meteredCompressor(MODEL, window);
          const compaction = await evaluateForcedCompaction(messages, forced.engine, undefined, forced.meter);
          if (compaction === undefined) {
            skipped[split]++;
            continue;
          }
          const tokens = compaction.summaryTokens;
          const one = { survival: compaction.survival, references: compaction.references, compactions: [compaction], summaryTokens: { total: tokens, mean: tokens, max: tokens } };
          row = { name, split, window, messages: messages.length, forced: true, report: { ...one, firstChunk: { facts: 0, fromCompaction: 0, retained: [], firstAsk: undefined, asks: { total: 0, retained: [], othersRetained: [] } } }, prompt: promptFigures(forced.meter, compaction.promptRecall) };
        }
        rows.push(row);
        printRow(row);
      }
    }
    console.log("");
    for (const split of ["held-out", "tune"] as const) printTotals(split, rows.filter((r) => r.split === split), skipped[split], window);
    await printWholeRanges(transcripts, window);
    const stitched = await stitchedRow(transcripts, window);
    if (stitched !== undefined) {
      console.log("  tune, the stitched long session (not in the totals):");
      printRow(stitched);
    }
    printLongHorizon(stitched === undefined ? rows : [...rows, stitched]);
  }
}
