/**
 * The side-by-side table of `--timing both` (docs/BEHAVIOUR.md, "Cache-aware timing"): per
 * `compression.timing` policy, what the replay cost, how often it compacted, its largest request
 * against the window, and what the compactions kept (the eval's fidelity).
 */
import type { FidelityReport, KindSurvival } from "@context-engine/core/lab";
import type { CompressionTiming } from "../timingFlag.js";
import { keptCell, overWindowCell, retentionCell, SHOWN_KINDS } from "./evalRows.js";
import { formatPercent, formatTokens, formatUsd } from "./numbers.js";

/** One policy's replay of one transcript (or its sums over several). */
export interface TimingRun {
  policy: CompressionTiming;
  report: FidelityReport;
}

/** The facts of the shown kinds (paths, errors, commands, asks) that the compactions removed, and how many the engine's text kept. */
export function shownFactsKept(report: Pick<FidelityReport, "survival">): KindSurvival {
  return SHOWN_KINDS.reduce((sum, [kind]) => ({ total: sum.total + report.survival[kind].total, kept: sum.kept + report.survival[kind].kept }), { total: 0, kept: 0 });
}

/** The largest request's prompt tokens of a replay (0 without requests). */
export function largestRequest(report: FidelityReport): number {
  return report.replay.requests.reduce((max, r) => Math.max(max, r.promptTokens), 0);
}

/** "$1.23 (−18.0 % vs threshold)": a cost, and after the first column its change against the first. */
function costCell(run: TimingRun, first: TimingRun): string {
  const cost = run.report.replay.totals.costWithSummariesUsd;
  const base = first.report.replay.totals.costWithSummariesUsd;
  if (run === first || base <= 0) return formatUsd(cost);
  const change = cost / base - 1;
  return `${formatUsd(cost)} (${change < 0 ? "−" : "+"}${formatPercent(Math.abs(change))} vs ${first.policy})`;
}

/** The rows: a label column, then one column per policy. */
export function timingRows(runs: readonly TimingRun[], window: number): string[][] {
  const first = runs[0]!;
  const cell = (f: (run: TimingRun) => string) => runs.map(f);
  return [
    ["compression.timing", ...runs.map((r) => r.policy)],
    ["cost (summaries included)", ...cell((r) => costCell(r, first))],
    ["compactions", ...cell((r) => String(r.report.compactions.length))],
    ["largest request", ...cell((r) => `${formatTokens(largestRequest(r.report))} of the ${formatTokens(window)}-token window`)],
    ["requests over the window less the output reserve", ...cell((r) => overWindowCell(r.report.overWindow))],
    ["cache reads", ...cell((r) => formatPercent(r.report.replay.totals.cacheReadShare))],
    ["facts kept (paths, errors, commands, asks)", ...cell((r) => keptCell(shownFactsKept(r.report)))],
    ["first chunk retained", ...cell((r) => retentionCell(r.report))],
  ];
}
