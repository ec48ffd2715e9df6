/** The report's two charts: context tokens per request (thresholds, compactions) and cumulative cost. */
import type { ReplayReport } from "@context-engine/core/lab";
import { lineChart, type ChartMarker, type ChartRule } from "./lineChart.js";
import { formatCompact, formatTokens, formatUsd } from "./numbers.js";
import { triggerPercent } from "./trigger.js";

const WIDTH = 960;
const HEIGHT = 320;

/** Reference lines further above the data than this factor are left off the chart (and named in the caption). */
export const RULE_OFF_CHART_FACTOR = 3;

/** A chart and the reference lines that did not fit on it. */
export interface RenderedChart {
  svg: string;
  offChart: string[];
}

function compactionMarkers(report: ReplayReport, withRange: boolean): ChartMarker[] {
  const markers: ChartMarker[] = report.compactions.map((c) => ({
    at: c.request,
    ...(withRange ? { from: c.tokensBefore, to: c.tokensAfter } : {}),
    label: `request ${c.request}: ${c.layer} compaction, ${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)} tokens, ${formatTokens(c.cacheRewriteTokens)} re-written to the cache`,
    className: `compaction-marker m-${c.layer}`,
    data: { layer: c.layer },
  }));
  for (const miss of report.fullMisses) {
    markers.push({ at: miss.request, label: miss.note, className: "miss-marker", data: { reason: miss.reason } });
  }
  return markers;
}

/** Context tokens sent per request, with and without compaction, the thresholds and the compactions. */
export function contextChart(report: ReplayReport): RenderedChart {
  const context = report.requests.map((r) => r.promptTokens);
  const plain = report.requests.map((r) => r.noCompactionPromptTokens);
  const dataMax = Math.max(1, ...context, ...plain);
  const same = report.thresholdTokens === report.hygieneThresholdTokens;
  const candidates: ChartRule[] = [
    { id: "agent-threshold", label: `${same ? "agent & gateway" : "agent"} ${triggerPercent(report.thresholdTokens, report.contextLength)} ${formatCompact(report.thresholdTokens)}`, value: report.thresholdTokens, className: "r-agent" },
    ...(same ? [] : [{ id: "gateway-threshold", label: `gateway ${triggerPercent(report.hygieneThresholdTokens, report.contextLength)} ${formatCompact(report.hygieneThresholdTokens)}`, value: report.hygieneThresholdTokens, className: "r-gateway" }]),
    { id: "context-window", label: `window ${formatCompact(report.contextLength)}`, value: report.contextLength, className: "r-window" },
  ];
  const fits = (r: ChartRule) => r.value <= dataMax * RULE_OFF_CHART_FACTOR;
  const rules = candidates.filter(fits);
  const offChart = candidates.filter((r) => !fits(r)).map((r) => `${r.id.replace(/-/g, " ")} at ${formatTokens(r.value)} tokens`);
  const svg = lineChart({
    id: "context-chart",
    title: "Context tokens per request",
    width: WIDTH,
    height: HEIGHT,
    count: report.requests.length,
    series: [
      { id: "context", label: "context sent (with compaction)", values: context, className: "s-context" },
      { id: "no-compaction", label: "without compaction", values: plain, className: "s-nocompact" },
    ],
    rules,
    markers: compactionMarkers(report, true),
    formatY: formatCompact,
    xLabel: "request",
  });
  return { svg, offChart };
}

/** Cumulative cost: as replayed, without prompt caching, and without compaction. */
export function costChart(report: ReplayReport): RenderedChart {
  const svg = lineChart({
    id: "cost-chart",
    title: "Cumulative cost in USD",
    width: WIDTH,
    height: HEIGHT,
    count: report.requests.length,
    series: [
      { id: "cost", label: report.totals.summaries?.calls ? "cost as replayed, summaries included" : "cost as replayed", values: report.requests.map((r) => r.cumulativeCostWithSummariesUsd), className: "s-context" },
      { id: "no-caching", label: "without prompt caching", values: report.requests.map((r) => r.cumulativeUncachedCostUsd), className: "s-nocache" },
      { id: "no-compaction-cost", label: "without compaction", values: report.requests.map((r) => r.cumulativeNoCompactionCostUsd), className: "s-nocompact" },
    ],
    markers: compactionMarkers(report, false),
    formatY: formatUsd,
    xLabel: "request",
  });
  return { svg, offChart: [] };
}
