/**
 * The `simulate --html` page: one self-contained file (inline CSS, script and SVG; no network, no
 * external fonts) with the summary, the context and cost charts, the compactions with their cache
 * effect, notes, and every request.
 */
import type { ReplayReport, ReplayRequest } from "@context-engine/core/lab";
import { contextChart, costChart } from "./charts.js";
import { escapeHtml, jsonForScript } from "./escape.js";
import { formatPercent, formatTokens, formatUsd } from "./numbers.js";
import { REPORT_SCRIPT } from "./script.js";
import { pageStart } from "./page.js";
import { summariesLabel, summaryRows, unpricedNote } from "./summary.js";

/** What the page says about where the report came from. */
export interface ReportPageInfo {
  /** The transcript as the user named it. */
  transcript: string;
  /** e.g. "compressor — builtin (built-in)". */
  engineLabel: string;
  /** The prompt-caching banner line printed at start. */
  banner: string;
}

function tableHtml(headers: string[], rows: string[][], className: string): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<table class="${className}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function usdOrDash(usd: number | null): string {
  return usd === null ? "—" : formatUsd(usd);
}

function compactionsSection(report: ReplayReport): string {
  if (report.compactions.length === 0) return `<p class="muted">No compaction ran during this replay.</p>`;
  const rows = report.compactions.map((c) => [
    String(c.request),
    escapeHtml(c.layer),
    `${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)}`,
    formatTokens(c.cacheRewriteTokens),
    formatTokens(c.cacheReadTokens),
    usdOrDash(c.nextRequestCostUsd),
    usdOrDash(c.noCompactionCostUsd),
    c.recoveredAfterRequests === null ? "not within the replay" : `${c.recoveredAfterRequests} request${c.recoveredAfterRequests === 1 ? "" : "s"}`,
  ]);
  return tableHtml(
    ["request", "layer", "context tokens", "re-written to cache", "read from cache", "that request cost", "same request, no compaction", "cache recovered (≥ 80 % reads) after"],
    rows,
    "compactions",
  );
}

function requestEvent(r: ReplayRequest): string {
  const events: string[] = [];
  if (r.compacted) events.push(`${r.compacted.layer} compaction ${formatTokens(r.compacted.before)} → ${formatTokens(r.compacted.after)}`);
  if (r.compactionAborted) events.push(`${r.compactionAborted.layer} compaction aborted: ${r.compactionAborted.reason}`);
  if (r.summaries) events.push(`${summariesLabel(r.summaries.calls)} ${usdOrDash(r.summaries.costUsd)}`);
  if (r.fullMiss) events.push(`full cache miss (${r.fullMiss.replace("_", " ")})`);
  for (const n of r.notices ?? []) events.push(n);
  return escapeHtml(events.join("; "));
}

function requestsSection(report: ReplayReport): string {
  const rows = report.requests.map((r) => [
    String(r.index),
    String(r.messages),
    formatTokens(r.promptTokens),
    formatTokens(r.cacheRead),
    formatTokens(r.cacheWrite),
    formatTokens(r.uncached),
    usdOrDash(r.costUsd),
    formatUsd(r.cumulativeCostWithSummariesUsd),
    requestEvent(r),
  ]);
  const cumulative = report.totals.summaries?.calls ? "cumulative, summaries included" : "cumulative";
  return tableHtml(["request", "messages", "prompt tokens", "cache read", "cache write", "uncached", "cost", cumulative, "event"], rows, "requests");
}

/** The data the page's script reads for the hover read-out (one compact row per request). */
function scriptData(report: ReplayReport): unknown {
  return {
    requests: report.requests.map((r) => ({
      i: r.index,
      tokens: r.promptTokens,
      plain: r.noCompactionPromptTokens,
      read: r.cacheRead,
      write: r.cacheWrite,
      uncached: r.uncached,
      cost: r.costUsd ?? 0,
      cum: r.cumulativeCostWithSummariesUsd,
      cumNoCache: r.cumulativeUncachedCostUsd,
      cumPlain: r.cumulativeNoCompactionCostUsd,
      event: r.compacted ? `${r.compacted.layer} compaction` : r.fullMiss ? "full cache miss" : "",
    })),
  };
}

/** Renders the whole page. */
export function renderReportHtml(report: ReplayReport, info: ReportPageInfo): string {
  const context = contextChart(report);
  const cost = costChart(report);
  const summary = tableHtml(["", ""], summaryRows(report, info).map(([k, v]) => [escapeHtml(k), escapeHtml(v)]), "summary");
  const offChart = context.offChart.length > 0 ? `<p class="muted">Off the chart (far above the context sent): ${escapeHtml(context.offChart.join("; "))}.</p>` : "";
  const notes = report.notes.length > 0 ? `<h2>Notes</h2><ul class="notes">${report.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>` : "";
  const t = report.totals;
  const title = `Replay report — ${info.transcript}`;
  const unpriced = unpricedNote(report);
  const reads = `${formatPercent(t.cacheReadShare)} of input tokens were cache reads`;
  const lead = unpriced?.all
    ? `${reads}; the costs are unknown: ${escapeHtml(unpriced.text)}.`
    : `${reads}; the requests cost ${formatUsd(t.costUsd)} against ${formatUsd(t.noCachingCostUsd)} without prompt caching, and the replay${t.summaries?.calls ? " with its summaries" : ""} ${formatUsd(t.costWithSummariesUsd)} against ${formatUsd(t.noCompactionCostUsd)} without compaction.`;
  return `${pageStart(title, { inlineScript: true })}
<h1>${escapeHtml(title)}</h1>
<p class="banner">${escapeHtml(info.banner)}</p>
<p class="lead">${lead}</p>
<section><h2>Summary</h2>${summary}</section>
<section><h2>Context tokens per request</h2>
<figure>${context.svg}<figcaption>Prompt tokens of each request with the ${escapeHtml(report.engine)} engine (solid) and without compaction (dashed); horizontal lines are the agent trigger, gateway hygiene at 85 % and the window; markers show compactions (from the tokens before to the tokens after).</figcaption></figure>
${offChart}
</section>
<section><h2>Cumulative cost</h2>
<figure>${cost.svg}<figcaption>Running cost in USD as replayed, without prompt caching, and without compaction (same caching). Vertical markers are compactions.</figcaption></figure>
</section>
<section><h2>Compactions and their cache effect</h2>${compactionsSection(report)}</section>
${notes}
<section><details><summary>Every request (${report.requests.length})</summary>${requestsSection(report)}</details></section>
</main>
<div id="readout" class="readout" hidden></div>
<script type="application/json" id="replay-data">${jsonForScript(scriptData(report))}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
