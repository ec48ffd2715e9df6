/** The summary rows shared by the `simulate` table and the HTML page. */
import type { ReplayReport } from "@context-engine/core/lab";
import { formatPercent, formatTokens, formatUsd, shareOf } from "./numbers.js";
import { triggerPercent, triggerReason } from "./trigger.js";

/**
 * Why the costs are missing or partial: undefined when every request is priced, else a sentence naming
 * the unpriced models (`all` is true when no request has a price, so every cost is unknown).
 */
export function unpricedNote(report: ReplayReport): { all: boolean; text: string } | undefined {
  const models = report.totals.unpricedModels;
  if (models.length === 0) return undefined;
  const all = report.requests.every((r) => r.costUsd === null);
  const text = `no price for ${models.join(", ")}${all ? "" : ": its requests are left out"} (add it under prices: in the config)`;
  return { all, text };
}

/** "1 summary", "3 summaries". */
export function summariesLabel(count: number): string {
  return `${count} summar${count === 1 ? "y" : "ies"}`;
}

/**
 * "3 summaries $0.12 (gpt-4o-mini)": what the engine's summaries cost, when the replay metered any; with
 * the calls sent as the conversation's suffix and the share of their input read from the cache.
 */
export function summaryCostText(report: ReplayReport): string | undefined {
  const s = report.totals.summaries;
  if (s === undefined || s.calls === 0) return undefined;
  const count = summariesLabel(s.calls);
  if (s.costUsd === null) return `${count} unpriced (no price for ${s.model}: add it under prices: in the config)`;
  const suffix = s.suffixCalls ? `; ${s.suffixCalls} as the conversation's suffix, ${formatPercent(shareOf(s.cacheReadTokens ?? 0, s.inputTokens))} of the summaries' input read from the cache` : "";
  return `${count} ${formatUsd(s.costUsd)} (${s.model}${suffix})`;
}

/** The summary as [label, value] rows. */
export function summaryRows(report: ReplayReport, info: { transcript: string; engineLabel: string }): [string, string][] {
  const t = report.totals;
  const unpriced = unpricedNote(report);
  const summaries = summaryCostText(report);
  const requests = `${formatUsd(t.costUsd)} (ideal cache ${formatUsd(t.idealCostUsd)})`;
  const total = summaries ? `${formatUsd(t.costWithSummariesUsd)}: requests ${requests}, ${summaries}` : requests;
  const costRows: [string, string][] = unpriced?.all
    ? [["total cost", `— (${unpriced.text})`]]
    : [
        ["total cost", `${total}${unpriced ? `; ${unpriced.text}` : ""}`],
        ["vs no caching", `${formatUsd(t.noCachingCostUsd)} — the requests cost ${formatPercent(shareOf(t.costUsd, t.noCachingCostUsd))} of it`],
        ["vs no compaction", `${formatUsd(t.noCompactionCostUsd)} — the replay costs ${formatPercent(shareOf(t.costWithSummariesUsd, t.noCompactionCostUsd))} of it${summaries ? ", its summaries included" : ""}`],
      ];
  const aborted = t.abortedCompactions > 0 ? `; ${t.abortedCompactions} attempt${t.abortedCompactions === 1 ? "" : "s"} left the conversation unchanged` : "";
  return [
    ["transcript", info.transcript],
    ["engine", info.engineLabel],
    ["model", `${report.model} via ${report.provider}, ${formatTokens(report.contextLength)}-token window`],
    [
      "thresholds",
      `agent trigger ${formatTokens(report.thresholdTokens)} tokens (${triggerReason(report)}); ` +
        `gateway hygiene ${formatTokens(report.hygieneThresholdTokens)} tokens (${triggerPercent(report.hygieneThresholdTokens, report.contextLength)})`,
    ],
    ["requests", `${formatTokens(t.requests)} (times ${report.timing === "transcript" ? "from the transcript's timestamps" : "at a fixed cadence: the transcript has no timestamps"})`],
    ["compactions", `${t.compactions} (agent ${t.compactionsByLayer.agent}, gateway ${t.compactionsByLayer.gateway})${aborted}`],
    ["peak context", `${formatTokens(t.peakContextTokens)} tokens (${formatTokens(t.noCompactionPeakTokens)} without compaction)`],
    ["final context", `${formatTokens(t.finalContextTokens)} tokens`],
    ["cache reads", `${formatPercent(t.cacheReadShare)} of ${formatTokens(t.inputTokens)} input tokens (ideal ${formatPercent(t.idealCacheReadShare)})`],
    ...costRows,
  ];
}
