/**
 * compress() on a 1,003-message / ~1.8 MB agent transcript (system, user, 500 terminal calls with
 * ~3.6 KB outputs each, a last user turn) and on the real corpus sessions of 500 messages or more, LLM
 * excluded (a stub summarizer answers instantly), side by side with upstream Hermes' compressor run on the
 * same messages in the same run (../shared/anchors), and the cost of re-counting tokens after one new
 * message versus counting from scratch.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ContextCompressor, type ChatMessage, SUMMARY_SECTIONS, type Summarizer, TiktokenCounter } from "@context-engine/core";
import { anchorUnavailable, runAnchor, unavailableLine, type AnchorFigures } from "./anchor.js";
import { corpusSessions, sessionLabel } from "./corpusSessions.js";
import { formatMs, median, ratioCell, recordSideBySide } from "./sideBySide.js";

/** Issue #9's targets, kept: warm ≤ 2 ms, a 1 MB message ≤ 50 ms. Issue #19's: ≥ 10× upstream on fresh data. */
const WARM_TARGET_MS = 2;
const BIG_MESSAGE_TARGET_MS = 50;
const FRESH_TARGET_RATIO = 10;
/** Fresh-data runs, ours and the anchor's (its own `--runs`), after warm-up runs of ours. */
const FRESH_RUNS = 15;
/**
 * Rounds of ours-then-upstream per transcript. Each round's ratio pairs two figures taken back to back, so
 * a shared machine whose speed drifts during the run moves both sides of it (with a single round, two bench
 * runs ten minutes apart printed 4.0x and 2.6x for the same transcript).
 */
const PAIRED_ROUNDS = 5;
const FRESH_WARMUP = 10;
/** Real sessions this long or longer are bench data (issue #19). */
const REAL_SESSION_MIN_MESSAGES = 500;
const RUNS = 30;
const WARMUP = 5;
/**
 * Cold compressions (fresh engine, counter and message objects), after untimed ones that warm up the JIT:
 * V8 keeps optimizing on a background thread for about ten runs, and "cold" means cold data, not cold code.
 */
const COLD_RUNS = 21;
const COLD_WARMUP = 10;

function terminalOutput(step: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 3_600; i++) {
    lines.push(`[step ${step}] test_module_${i}.py::test_case_${step}_${i} PASSED in ${(i * 0.013 + step / 1000).toFixed(3)}s`);
  }
  lines.push(`exit code: ${step % 7 === 0 ? 1 : 0}`);
  return lines.join("\n");
}

/** system, user, `calls` × (assistant terminal call, tool output ~3.6 KB), last user turn (500 calls: 1,003 messages). */
export function benchTranscript(calls = 500): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: "system", content: "You are a coding agent. Use the terminal tool to run commands. Keep going until the task is done." },
    { role: "user", content: "Make the whole test suite pass, one module at a time." },
  ];
  for (let i = 0; i < calls; i++) {
    const id = `call_${i}`;
    messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "terminal", arguments: JSON.stringify({ command: `pytest tests/test_module_${i}.py -q` }) } }] });
    messages.push({ role: "tool", tool_call_id: id, content: terminalOutput(i) });
  }
  messages.push({ role: "user", content: "Good. Now summarize which modules failed and why." });
  return messages;
}

export const stubSummarizer: Summarizer = {
  name: "stub",
  summarize: async () => SUMMARY_SECTIONS.map((heading) => `${heading}\n- fixed bench item`).join("\n"),
};

/**
 * A full GC before a timed section, so garbage left by setup (token counting, the previous run's
 * messages) is not billed to compress(), then a pause: the GC finishes sweeping on background threads,
 * which would otherwise share this machine's two cores with the timed section.
 */
async function collectGarbage(): Promise<void> {
  gc ??= (setFlagsFromString("--expose-gc"), runInNewContext("gc") as () => void);
  gc();
  await new Promise((resolve) => setTimeout(resolve, SWEEP_PAUSE_MS));
}
/** Milliseconds left to the GC's background sweeping after a full collection. */
const SWEEP_PAUSE_MS = 20;
let gc: (() => void) | undefined;

/** A fresh engine with its own (empty) token counter. */
function freshEngine(): ContextCompressor {
  return new ContextCompressor({ summarizer: stubSummarizer, tokenCounter: new TiktokenCounter(), model: { model: "bench-model", contextLength: 200_000 } });
}

/**
 * Median ms of compress() with a fresh engine, counter and message objects each run (what a gateway does
 * when it reloads a session from its store), parsing the JSON outside the timed section.
 */
async function coldCompressTimes(json: string, runs = COLD_RUNS): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < COLD_WARMUP + runs; i++) {
    await collectGarbage();
    const fresh = JSON.parse(json) as ChatMessage[];
    const engine = freshEngine();
    const start = performance.now();
    await engine.compress(fresh, { force: true });
    if (i >= COLD_WARMUP) times.push(performance.now() - start);
  }
  return times;
}

/** Median of {@link coldCompressTimes}. */
async function coldCompressMs(json: string, runs = COLD_RUNS): Promise<number> {
  return median(await coldCompressTimes(json, runs));
}

/**
 * `messages` with every non-empty text content ending in "\n#<salt>", as the anchor salts its runs: fresh
 * data, no cache hits. Like the anchor (a JSON round trip, then the suffix) and like a gateway that parses
 * a request, the texts are new flat strings: parsed from JSON, not concatenations left for compress() to flatten.
 */
function salted(messages: ChatMessage[], salt: string): ChatMessage[] {
  const copy = messages.map((m) => (typeof m.content === "string" && m.content !== "" ? { ...m, content: `${m.content}\n#${salt}` } : m));
  return JSON.parse(JSON.stringify(copy)) as ChatMessage[];
}

/**
 * Median ms of compress() in this long-lived process on fresh data: each run a fresh engine and counter
 * and the transcript's texts with their own suffix (salted outside the timed section), after warm-up runs.
 */
async function freshDataMs(messages: ChatMessage[]): Promise<{ ms: number; out: number }> {
  const times: number[] = [];
  let out = 0;
  for (let i = 0; i < FRESH_WARMUP + FRESH_RUNS; i++) {
    const fresh = salted(messages, `r${i}`);
    const engine = freshEngine();
    // no forced full GC before the run: the anchor forces none, and a full GC right before costs the next
    // compress() 3–4× on cold caches; the median over the runs takes in whatever collection falls in them
    const start = performance.now();
    out = (await engine.compress(fresh, { force: true })).length;
    if (i >= FRESH_WARMUP) times.push(performance.now() - start);
  }
  return { ms: median(times), out };
}

/**
 * Ours and the anchor on fresh data for one transcript in {@link PAIRED_ROUNDS} paired rounds (ours alone,
 * once, without the anchor), printed and recorded for the summary table: the medians of the rounds'
 * medians and the median of the rounds' ratios.
 */
async function sideBySideFresh(label: string, messages: ChatMessage[], unavailable: string | undefined): Promise<void> {
  const ours: Array<{ ms: number; out: number }> = [];
  const upstream: AnchorFigures[] = [];
  for (let round = 0; round < (unavailable === undefined ? PAIRED_ROUNDS : 1); round++) {
    ours.push(await freshDataMs(messages));
    if (unavailable === undefined) upstream.push(runAnchor(messages, { runs: FRESH_RUNS })!);
  }
  const oursMs = median(ours.map((r) => r.ms));
  const pairedRatios = upstream.map((u, i) => u.median_ms / ours[i]!.ms);
  const row = { kind: "warm" as const, measure: "compress(), fresh data", data: label, oursMs, upstreamMs: upstream.length > 0 ? median(upstream.map((u) => u.median_ms)) : undefined, pairedRatios };
  recordSideBySide(row);
  const theirs = row.upstreamMs === undefined ? unavailableLine(unavailable ?? "no figure") : `upstream ${formatMs(row.upstreamMs)} ms (${upstream[0]!.in} -> ${upstream[0]!.out} messages): upstream/ours ${ratioCell(row)}; target ≥ ${FRESH_TARGET_RATIO}x: ${median(pairedRatios) >= FRESH_TARGET_RATIO ? "met" : "missed"}`;
  console.log(`  ${label}: ours ${formatMs(oursMs)} ms (${messages.length} -> ${ours[0]!.out} messages), ${theirs}`);
}

/** A 1 MB tool output without whitespace (base64-like), followed by 40 short turns. */
function bigMessageTranscript(): ChatMessage[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let blob = "";
  for (let i = 0; blob.length < 1_000_000; i++) blob += alphabet[(i * 7919 + (i >> 3)) % 64];
  const messages: ChatMessage[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Decode the attachment and tell me what it is." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_blob", type: "function", function: { name: "read_file", arguments: '{"path":"blob.b64"}' } }] },
    { role: "tool", tool_call_id: "call_blob", content: blob },
  ];
  for (let i = 0; i < 20; i++) messages.push({ role: "assistant", content: `Step ${i}: looked at part ${i} of the blob.` }, { role: "user", content: `Go on with part ${i + 1}.` });
  return messages;
}

const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const verdict = (ms: number, target: number): string => `target ≤ ${fmt(target)} ms: ${ms <= target ? "met" : "missed"}`;

/** Prints cold and warm compress() times, the size curve, the 1 MB message, and full-count figures. */
export async function run(): Promise<void> {
  const messages = benchTranscript();
  const bytes = messages.reduce((sum, m) => sum + (typeof m.content === "string" ? Buffer.byteLength(m.content) : 0) + (m.tool_calls ?? []).reduce((n, c) => n + c.function.arguments.length, 0), 0);

  const fullCounter = new TiktokenCounter();
  fullCounter.count("warm up the encoding");
  const scratchStart = performance.now();
  const total = fullCounter.countMessages(messages);
  const scratchMs = performance.now() - scratchStart;
  const appended = [...messages, { role: "assistant" as const, content: "Modules 0, 7, 14 and 21 failed on a missing fixture; the rest pass." }];
  const incStart = performance.now();
  fullCounter.countMessages(appended);
  const incrementalMs = performance.now() - incStart;

  const unavailable = anchorUnavailable();
  console.log(`compress() on fresh data in a warm process (fresh engine and counter, every text suffixed per run; median of ${FRESH_RUNS} after ${FRESH_WARMUP} warm-up runs), upstream Hermes run by ../shared/anchors/hermes_compress.py on the same messages now, in ${PAIRED_ROUNDS} rounds of ours then upstream (medians of the rounds; the ratio is the median of the rounds' ratios):`);
  await sideBySideFresh(`synthetic ${messages.length} msgs`, messages, unavailable);
  const sessions = await corpusSessions();
  const long = sessions.filter((s) => s.messages.length >= REAL_SESSION_MIN_MESSAGES);
  const formats = new Set(long.map((s) => s.format));
  if (sessions.length === 0) console.log("  real sessions: ../shared/corpus unavailable");
  for (const session of long) await sideBySideFresh(sessionLabel(session), session.messages, unavailable);
  // The goal asks for three formats of ≥ 500 messages; the corpus may hold fewer: say so, and show the largest of each other format.
  if (sessions.length > 0) {
    console.log(`  real sessions of ≥ ${REAL_SESSION_MIN_MESSAGES} messages in the corpus: ${long.length}, formats: ${[...formats].join(", ") || "none"}${formats.size < 3 ? " (fewer than the 3 formats the goal asks for)" : ""}`);
    const seen = new Set(formats);
    for (const session of sessions) {
      if (seen.has(session.format)) continue;
      seen.add(session.format);
      if (session.messages.length >= 100) await sideBySideFresh(`${sessionLabel(session)}, under ${REAL_SESSION_MIN_MESSAGES}`, session.messages, unavailable);
    }
  }

  const engine = freshEngine();
  for (let i = 0; i < WARMUP; i++) await engine.compress(messages, { force: true });
  await collectGarbage();
  const times: number[] = [];
  let output: ChatMessage[] = messages;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    output = await engine.compress(messages, { force: true });
    times.push(performance.now() - start);
  }
  const report = engine.lastCompression!;
  const warmMs = median(times);

  console.log(`transcript: ${messages.length} messages, ${(bytes / 1_000_000).toFixed(2)} MB of content, ${total.toLocaleString("en-US")} tokens (o200k_base)`);
  console.log(`warm compress() (same engine and messages): median ${fmt(warmMs)} ms over ${RUNS} runs (min ${fmt(Math.min(...times))}), ${report.messagesBefore} -> ${output.length} messages; ${verdict(warmMs, WARM_TARGET_MS)}`);
  console.log(`  ${report.tokensBefore.toLocaleString("en-US")} -> ${report.tokensAfter.toLocaleString("en-US")} tokens (before: exact where counted, estimated elsewhere)`);

  const curve: { n: number; ms: number }[] = [];
  for (const calls of [500, 2_500, 10_000]) {
    const transcript = JSON.stringify(benchTranscript(calls));
    curve.push({ n: 2 * calls + 3, ms: await coldCompressMs(transcript, 5) });
  }
  const base = curve[0]!;
  console.log("cold compress() by size (linear would keep ms per 1k messages flat):");
  for (const point of curve) {
    console.log(`  ${point.n.toLocaleString("en-US").padStart(6)} messages: ${fmt(point.ms).padStart(6)} ms, ${fmt((point.ms / point.n) * 1000)} ms per 1k messages (${(point.ms / base.ms).toFixed(1)}x time for ${(point.n / base.n).toFixed(1)}x messages)`);
  }

  const bigMs = await coldCompressMs(JSON.stringify(bigMessageTranscript()), 5);
  console.log(`cold compress() of a session holding one 1 MB tool output without whitespace: median ${fmt(bigMs)} ms; ${verdict(bigMs, BIG_MESSAGE_TARGET_MS)}`);
  console.log(`token count of the whole transcript from scratch: ${scratchMs.toFixed(1)} ms (what compress() no longer does); after appending one message: ${incrementalMs.toFixed(3)} ms`);
}
