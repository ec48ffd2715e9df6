/**
 * The rows of the `eval` report, shared by the text table, the HTML page and the JSON output: per
 * transcript and engine, what share of each kind of fact survived compaction, the first chunk's
 * retention, the requests that exceeded the window (failures: the API would reject them), summary
 * tokens, cost and cache reads.
 */
import { addSurvival, emptySurvival, firstChunkRetention, survivalShare, type FidelityReport, type KindSurvival, type SurvivalByKind } from "@context-engine/core/lab";
import { formatPercent, formatTokens, formatUsd } from "./numbers.js";

/** One engine's run on one transcript. */
export interface EvalRun {
  /** The transcript as the user named it. */
  transcript: string;
  format: string;
  messages: number;
  engine: string;
  report: FidelityReport;
}

/** The setting every run of one eval shares. */
export interface EvalSetting {
  window: number;
  model: string;
  provider: string;
}

/** Runs grouped by transcript, in the order given. */
export function byTranscript(runs: readonly EvalRun[]): EvalRun[][] {
  const groups = new Map<string, EvalRun[]>();
  for (const run of runs) groups.set(run.transcript, [...(groups.get(run.transcript) ?? []), run]);
  return [...groups.values()];
}

/** Kinds shown, with their row labels (identifiers are shown as the tail's references). */
export const SHOWN_KINDS = [
  ["path", "paths kept"],
  ["error", "errors kept"],
  ["command", "acting commands kept"],
  ["read", "reads kept"],
  ["ask", "user asks kept"],
] as const;

/** "95.0 % (19/20)", or "—" when there was nothing to keep. */
export function keptCell(entry: KindSurvival): string {
  const share = survivalShare(entry);
  return share === undefined ? "—" : `${formatPercent(share)} (${entry.kept}/${entry.total})`;
}

/** "90.0 % after 5 (of 30 facts)", or "—" without compactions. */
export function retentionCell(report: Pick<FidelityReport, "firstChunk">): string {
  const retention = firstChunkRetention(report);
  if (retention === undefined) return "—";
  return `${formatPercent(retention.share)} after ${retention.after} (of ${report.firstChunk.facts} facts)`;
}

/** "0 of 40", or "12 of 40 FAILED (first: request 28)": requests that sent more than the window less the output reserve, which the API would reject (or leave no room to answer). */
export function overWindowCell(over: { failed: number; requests: number; firstRequest?: number | null }): string {
  if (over.failed === 0) return `0 of ${over.requests}`;
  return `${over.failed} of ${over.requests} FAILED${over.firstRequest !== undefined && over.firstRequest !== null ? ` (first: request ${over.firstRequest})` : ""}`;
}

/** Retention values shown in a row before the curve is cut in the middle. */
const CURVE_SHOWN = 8;

/** "100 → 95 → 90 %" over every compaction from the first chunk's ("100 → 98 → … → 80 → 78 %" for long ones). */
export function curveCell(report: Pick<FidelityReport, "firstChunk">): string {
  const curve = report.firstChunk.retained.map((s) => (s * 100).toFixed(0));
  if (curve.length === 0) return "—";
  const shown = curve.length <= CURVE_SHOWN ? curve : [...curve.slice(0, CURVE_SHOWN - 3), "…", ...curve.slice(-2)];
  const from = report.firstChunk.fromCompaction > 1 ? ` (from compaction ${report.firstChunk.fromCompaction})` : "";
  return `${shown.join(" → ")} %${from}`;
}

/** "kept through 15 compactions", "lost at compaction 7 (of 15)", or "—" when no compaction removed an ask. */
export function firstAskCell(report: Pick<FidelityReport, "firstChunk">): string {
  const ask = report.firstChunk.firstAsk;
  if (ask === undefined || ask.retained.length === 0) return "—";
  const lost = ask.retained.indexOf(false);
  const last = ask.fromCompaction + ask.retained.length - 1;
  return lost === -1 ? `kept through compaction ${last}` : `lost at compaction ${ask.fromCompaction + lost} (of ${last})`;
}

/** "2 of 31 stated" (the invented ones of all stated), or "—" when the engine stated none. */
export function inventedCell(invented: { stated: number; invented: number }): string {
  return invented.stated === 0 ? "—" : `${invented.invented} of ${invented.stated} stated`;
}

/**
 * What the summary model was shown, per kind, for runs whose summarizer was metered (an LLM
 * summarizer's prompts, built without calling a model), and the calls they take; none when no run was.
 */
export function promptRows(recall: ReadonlyArray<SurvivalByKind | undefined>, calls: ReadonlyArray<number | undefined>): string[][] {
  if (recall.every((r) => r === undefined)) return [];
  return [
    ...SHOWN_KINDS.map(([kind, label]) => [`summary model shown: ${label.replace(/ kept$/, "")}`, ...recall.map((r) => (r === undefined ? "—" : keptCell(r[kind])))]),
    ["summarizer calls", ...calls.map((n) => (n === undefined ? "—" : String(n)))],
  ];
}

/** The rows of one transcript's table: a label column, then one column per run (engine). */
export function evalRows(runs: readonly EvalRun[]): string[][] {
  const cell = (f: (run: EvalRun) => string) => runs.map(f);
  return [
    ["", ...runs.map((r) => r.engine)],
    ["compactions", ...cell((r) => String(r.report.compactions.length))],
    ["requests over the window less the output reserve", ...cell((r) => overWindowCell(r.report.overWindow))],
    ...SHOWN_KINDS.map(([kind, label]) => [label, ...cell((r) => keptCell(r.report.survival[kind]))]),
    ...promptRows(runs.map((r) => r.report.promptRecall), runs.map((r) => r.report.replay.totals.summaries?.calls)),
    ["tail references kept", ...cell((r) => keptCell(r.report.references))],
    ["first chunk retained", ...cell((r) => retentionCell(r.report))],
    ["retention per compaction", ...cell((r) => curveCell(r.report))],
    ["first compacted ask", ...cell((r) => firstAskCell(r.report))],
    ["invented paths and identifiers", ...cell((r) => inventedCell(r.report.invented))],
    ["summary tokens", ...cell((r) => (r.report.compactions.length === 0 ? "—" : `${formatTokens(r.report.summaryTokens.mean)} mean, ${formatTokens(r.report.summaryTokens.max)} max`))],
    ["cost (summaries included)", ...cell((r) => formatUsd(r.report.replay.totals.costWithSummariesUsd))],
    ["cache reads", ...cell((r) => formatPercent(r.report.replay.totals.cacheReadShare))],
    ["largest request", ...cell((r) => `${formatTokens(r.report.overWindow.peakTokens)} tokens`)],
  ];
}

/** One engine over several transcripts. */
export interface EngineTotals {
  engine: string;
  transcripts: number;
  compactions: number;
  /** Requests over the window less the output reserve (failures) and all requests, over every transcript. */
  overWindow: { failed: number; requests: number };
  survival: SurvivalByKind;
  /** What the summary model was shown (an LLM summarizer's prompts), when the summarizer was metered. */
  promptRecall: SurvivalByKind | undefined;
  /** Summarizer calls over every transcript, when metered. */
  summaryCalls: number | undefined;
  references: KindSurvival;
  /** Mean over the transcripts that compacted of their first chunk's retention (see firstChunkRetention). */
  firstChunkRetained: number | undefined;
  /** Paths and identifiers the engine stated, and how many of them its input never held. */
  invented: { stated: number; invented: number };
  /** The requests' cost and the summaries' (when priced), over every transcript. */
  costWithSummariesUsd: number;
}

/** Sums per engine over `runs`, in the order engines first appear. */
export function engineTotals(runs: readonly EvalRun[]): EngineTotals[] {
  const byEngine = new Map<string, EvalRun[]>();
  for (const run of runs) byEngine.set(run.engine, [...(byEngine.get(run.engine) ?? []), run]);
  return [...byEngine].map(([engine, list]) => {
    const retained = list.map((r) => firstChunkRetention(r.report)?.share).filter((s): s is number => s !== undefined);
    return {
      engine,
      transcripts: list.length,
      compactions: list.reduce((s, r) => s + r.report.compactions.length, 0),
      overWindow: { failed: list.reduce((s, r) => s + r.report.overWindow.failed, 0), requests: list.reduce((s, r) => s + r.report.overWindow.requests, 0) },
      survival: list.reduce((acc, r) => addSurvival(acc, r.report.survival), emptySurvival()),
      promptRecall: list.some((r) => r.report.promptRecall !== undefined) ? list.reduce((acc, r) => addSurvival(acc, r.report.promptRecall ?? emptySurvival()), emptySurvival()) : undefined,
      summaryCalls: list.some((r) => r.report.replay.totals.summaries !== undefined) ? list.reduce((s, r) => s + (r.report.replay.totals.summaries?.calls ?? 0), 0) : undefined,
      references: list.reduce((acc, r) => ({ total: acc.total + r.report.references.total, kept: acc.kept + r.report.references.kept }), { total: 0, kept: 0 }),
      firstChunkRetained: retained.length === 0 ? undefined : retained.reduce((a, b) => a + b, 0) / retained.length,
      invented: { stated: list.reduce((s, r) => s + r.report.invented.stated, 0), invented: list.reduce((s, r) => s + r.report.invented.invented, 0) },
      costWithSummariesUsd: list.reduce((s, r) => s + r.report.replay.totals.costWithSummariesUsd, 0),
    };
  });
}

/** The rows of the all-transcripts table. */
export function totalRows(totals: readonly EngineTotals[]): string[][] {
  const cell = (f: (t: EngineTotals) => string) => totals.map(f);
  return [
    ["", ...totals.map((t) => t.engine)],
    ["transcripts", ...cell((t) => String(t.transcripts))],
    ["compactions", ...cell((t) => String(t.compactions))],
    ["requests over the window less the output reserve", ...cell((t) => overWindowCell(t.overWindow))],
    ...SHOWN_KINDS.map(([kind, label]) => [label, ...cell((t) => keptCell(t.survival[kind]))]),
    ...promptRows(totals.map((t) => t.promptRecall), totals.map((t) => t.summaryCalls)),
    ["tail references kept", ...cell((t) => keptCell(t.references))],
    ["first chunk retained (mean)", ...cell((t) => (t.firstChunkRetained === undefined ? "—" : formatPercent(t.firstChunkRetained)))],
    ["invented paths and identifiers", ...cell((t) => inventedCell(t.invented))],
    ["cost (summaries included)", ...cell((t) => formatUsd(t.costWithSummariesUsd))],
  ];
}
