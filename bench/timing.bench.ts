/**
 * `compression.timing`: threshold against cache_aware (docs/BEHAVIOUR.md, "Cache-aware timing") on the
 * corpus transcripts that carry timestamps (../shared/corpus; the bundled timestamped fixture when it is
 * absent), each replayed with the built-in compressor and the offline summarizer under both policies in
 * two settings: the eval's 64,000-token window, and Claude's 200,000-token window less a 32,000-token
 * output reserve. Per transcript and in total, with denominators: the cost of the requests, the same plus
 * the summarizer calls as the replay prices them (a MeteredSummarizer around the offline summarizer: the
 * prompt an LLM summarizer is sent and the summary, at the model's input and output price), compactions,
 * the largest request against the window, requests over the window less the output reserve, the facts
 * the compactions kept (paths, errors, commands, asks), the tail references kept and the first chunk's
 * retention. Then the issue #22 goal (≥ 15 % cheaper at the same fidelity, no request over the window),
 * met or not. Figures only; nothing is asserted.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ContextCompressor, ExtractiveSummarizer, defaultTokenCounter, type ChatMessage } from "@context-engine/core";
import { evaluateFidelity, firstChunkRetention, importTranscriptFile, MeteredSummarizer, type FidelityReport } from "@context-engine/core/lab";
import { repoRoot } from "./anchor.js";
import { corpusSessions } from "./corpusSessions.js";
import { HELD_OUT } from "./fidelity.bench.js";

const MODEL = "claude-sonnet-4";
const POLICIES = ["threshold", "cache_aware"] as const;
type Policy = (typeof POLICIES)[number];
const SETTINGS = [
  { label: "64,000-token window (the eval's)", contextLength: 64_000, maxTokens: undefined },
  { label: "200,000-token window less a 32,000-token output reserve", contextLength: 200_000, maxTokens: 32_000 },
] as const;
/** The issue's goal: at least this much cheaper. */
const GOAL_SAVING = 0.15;
/** "The same fidelity": a share of kept facts at most this much lower. */
const SAME_FIDELITY_POINTS = 0.01;
const SHOWN = ["path", "error", "command", "ask"] as const;

interface Sums {
  cost: number;
  summarizer: number;
  compactions: number;
  over: number;
  requests: number;
  kept: number;
  facts: number;
  refsKept: number;
  refs: number;
  retention: number[];
}

const empty = (): Sums => ({ cost: 0, summarizer: 0, compactions: 0, over: 0, requests: 0, kept: 0, facts: 0, refsKept: 0, refs: 0, retention: [] });

function add(s: Sums, r: FidelityReport): void {
  s.cost += r.replay.totals.costUsd;
  s.summarizer += r.replay.totals.summaries?.costUsd ?? 0;
  s.compactions += r.replay.totals.compactions;
  s.over += r.overWindow.failed;
  s.requests += r.overWindow.requests;
  for (const kind of SHOWN) {
    s.kept += r.survival[kind].kept;
    s.facts += r.survival[kind].total;
  }
  s.refsKept += r.references.kept;
  s.refs += r.references.total;
  const retention = firstChunkRetention(r);
  if (retention) s.retention.push(retention.share);
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const share = (k: number, n: number): string => (n === 0 ? "—" : `${k}/${n} (${pct(k / n)})`);
const mean = (xs: number[]): number | undefined => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Timestamped transcripts: the corpus', else the bundled fixture. */
async function transcripts(): Promise<{ source: string; list: Array<{ name: string; messages: ChatMessage[] }> }> {
  const corpus = await corpusSessions();
  if (corpus.length > 0) return { source: "../shared/corpus", list: corpus };
  const file = join(repoRoot, "test/fixtures/python-to-rust-port.json");
  if (!existsSync(file)) return { source: "nothing (no corpus, no fixture)", list: [] };
  return { source: "the bundled fixture (../shared/corpus is absent)", list: [{ name: "python-to-rust-port.json", messages: (await importTranscriptFile(file)).messages }] };
}

function totalsLine(label: string, sums: Record<Policy, Sums>): string[] {
  const [t, c] = [sums.threshold, sums.cache_aware];
  const saving = t.cost > 0 ? 1 - c.cost / t.cost : 0;
  const savingAll = t.cost + t.summarizer > 0 ? 1 - (c.cost + c.summarizer) / (t.cost + t.summarizer) : 0;
  const row = (p: Policy, s: Sums) =>
    `    ${p.padEnd(11)} requests $${s.cost.toFixed(2)}, + summarizer calls $${(s.cost + s.summarizer).toFixed(2)}; ${s.compactions} compactions; over the window less the output reserve ${s.over} of ${s.requests}; ` +
    `facts kept ${share(s.kept, s.facts)}; tail references kept ${share(s.refsKept, s.refs)}; first chunk retained ${mean(s.retention) === undefined ? "—" : pct(mean(s.retention)!)} (mean of ${s.retention.length})`;
  const fidelityT = t.facts === 0 ? 0 : t.kept / t.facts;
  const fidelityC = c.facts === 0 ? 0 : c.kept / c.facts;
  const sameFidelity = fidelityC >= fidelityT - SAME_FIDELITY_POINTS && (mean(c.retention) ?? 1) >= (mean(t.retention) ?? 1) - SAME_FIDELITY_POINTS;
  const goal =
    `    goal (≥ ${pct(GOAL_SAVING)} cheaper, facts kept and first chunk within ${pct(SAME_FIDELITY_POINTS)} points, no request over the window): ` +
    `saving ${pct(saving)} on the requests (${saving >= GOAL_SAVING ? "met" : "MISSED"}), ${pct(savingAll)} with the summarizer calls (${savingAll >= GOAL_SAVING ? "met" : "MISSED"}); ` +
    `fidelity ${sameFidelity ? "the same" : "LOWER"} (facts ${pct(fidelityT)} → ${pct(fidelityC)}); requests over the window less the output reserve ${c.over === 0 ? "none" : `${c.over} (threshold: ${t.over})`}`;
  return [`  ${label}:`, row("threshold", t), row("cache_aware", c), goal];
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const { source, list } = await transcripts();
  console.log(`${MODEL} via anthropic, built-in compressor, offline summarizer, 5m TTL; transcripts: ${source}, those with timestamps`);
  for (const setting of SETTINGS) {
    console.log(`\n${setting.label}`);
    console.log(["transcript".padEnd(48), "split".padEnd(8), "reqs", "idle>TTL", "cost threshold → cache_aware".padEnd(30), "compactions", "largest request / window".padEnd(26), "facts kept"].join("  "));
    const sums: Record<string, Record<Policy, Sums>> = { all: { threshold: empty(), cache_aware: empty() }, "held-out": { threshold: empty(), cache_aware: empty() }, tune: { threshold: empty(), cache_aware: empty() } };
    let stamped = 0;
    for (const { name, messages } of list) {
      const reports = {} as Record<Policy, FidelityReport>;
      for (const timing of POLICIES) {
        const summarizer = new MeteredSummarizer(new ExtractiveSummarizer(), defaultTokenCounter());
        const engine = new ContextCompressor({ compression: { timing }, summarizer, model: { model: MODEL, contextLength: setting.contextLength, maxTokens: setting.maxTokens } });
        reports[timing] = await evaluateFidelity(messages, { engine, model: MODEL, provider: "anthropic", summaries: { calls: summarizer.calls, model: MODEL } });
      }
      const [t, c] = [reports.threshold, reports.cache_aware];
      if (t.replay.timing !== "transcript") continue;
      stamped += 1;
      const split = HELD_OUT.includes(name) ? "held-out" : "tune";
      for (const key of ["all", split]) for (const p of POLICIES) add(sums[key]![p], reports[p]);
      if (t.replay.totals.compactions === 0 && c.replay.totals.compactions === 0) continue;
      const idle = t.replay.requests.filter((r, i) => i > 0 && r.timestampMs - t.replay.requests[i - 1]!.timestampMs > 300_000).length;
      const peak = (r: FidelityReport) => r.overWindow.peakTokens.toLocaleString("en-US");
      const facts = (r: FidelityReport) => SHOWN.reduce((a, k) => [a[0]! + r.survival[k].kept, a[1]! + r.survival[k].total], [0, 0]);
      const [kt, nt] = facts(t);
      const [kc, nc] = facts(c);
      console.log(
        [
          (name.length > 48 ? `…${name.slice(-47)}` : name).padEnd(48),
          split.padEnd(8),
          String(t.replay.totals.requests).padStart(4),
          String(idle).padStart(8),
          `$${t.replay.totals.costUsd.toFixed(2)} → $${c.replay.totals.costUsd.toFixed(2)} (${pct(c.replay.totals.costUsd / t.replay.totals.costUsd - 1)})`.padEnd(30),
          `${t.replay.totals.compactions} → ${c.replay.totals.compactions}`.padEnd(11),
          `${peak(t)} → ${peak(c)} / ${setting.contextLength.toLocaleString("en-US")}`.padEnd(26),
          `${share(kt!, nt!)} → ${share(kc!, nc!)}`,
        ].join("  "),
      );
    }
    console.log(`totals over the ${stamped} timestamped transcripts (rows above: those that compact under either policy):`);
    for (const key of ["all", "held-out", "tune"]) console.log(totalsLine(key, sums[key]!).join("\n"));
  }
}
