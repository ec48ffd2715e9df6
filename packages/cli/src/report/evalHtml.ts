/**
 * The `eval --html` page: one self-contained file (inline CSS and SVG; nothing fetched) with, per
 * transcript, the engines side by side, a chart of how much of the first compaction's facts each engine
 * still holds after each later compaction, and the facts each compaction lost.
 */
import type { CompactionFidelity } from "@context-engine/core/lab";
import { escapeHtml } from "./escape.js";
import { byTranscript, engineTotals, evalRows, totalRows, type EvalRun, type EvalSetting } from "./evalRows.js";
import { lineChart } from "./lineChart.js";
import { pageStart } from "./page.js";

/** Line classes of the report stylesheet, one per engine (repeating after the last). */
const SERIES_CLASSES = ["s-context", "s-nocache", "s-nocompact"];
/** Lost facts shown per compaction. */
const LOST_SHOWN = 12;

/** CSS of the eval page beyond the shared stylesheet. */
const EVAL_STYLE = `
table.eval td:first-child { color: var(--muted); white-space: nowrap; }
h3 { font-size: 14px; margin: 14px 0 4px; }
`;

/** What the page says about the setting. */
export interface EvalPageInfo extends EvalSetting {
  /** The prompt-caching banner of the model. */
  banner: string;
}

function rowsTable(rows: string[][], className: string): string {
  const [head = [], ...body] = rows;
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const tr = body.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("\n");
  return `<table class="${className}"><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

/** Retention of the first chunk's facts per engine, from 100 % before any compaction. */
function retentionChart(group: readonly EvalRun[], id: string): string {
  const series = group.map((run, i) => ({
    id: `retention-${run.engine}`,
    label: run.engine,
    values: [100, ...run.report.firstChunk.retained.map((share) => share * 100)],
    className: SERIES_CLASSES[i % SERIES_CLASSES.length]!,
  }));
  const count = Math.max(2, ...series.map((s) => s.values.length));
  return lineChart({ id, title: "First chunk's facts retained after each compaction", width: 960, height: 260, count, series, formatY: (v) => `${Math.round(v)} %`, xLabel: "compactions" });
}

function lostList(compaction: CompactionFidelity): string {
  const items = compaction.lost.slice(0, LOST_SHOWN).map((fact) => `<li><span class="muted">${escapeHtml(fact.kind)}</span> ${escapeHtml(fact.text)}</li>`);
  const more = compaction.lost.length > LOST_SHOWN ? `<li class="muted">… and ${compaction.lost.length - LOST_SHOWN} more listed in --json</li>` : "";
  return items.length === 0 ? `<p class="muted">nothing lost</p>` : `<ul class="notes">${items.join("")}${more}</ul>`;
}

function lostSection(run: EvalRun): string {
  if (run.report.compactions.length === 0) return "";
  const parts = run.report.compactions.map(
    (c) => `<h3>${escapeHtml(run.engine)}: compaction ${c.number} (request ${c.request}, ${escapeHtml(c.layer)}, ${c.removedMessages} messages removed, ${c.summaryTokens} summary tokens)</h3>${lostList(c)}`,
  );
  return `<details><summary>What ${escapeHtml(run.engine)} lost at each compaction</summary>${parts.join("\n")}</details>`;
}

function transcriptSection(group: readonly EvalRun[], index: number): string {
  const first = group[0]!;
  const compacted = group.some((run) => run.report.compactions.length > 0);
  const chart = compacted
    ? `<figure>${retentionChart(group, `retention-chart-${index}`)}<figcaption>Share of the facts removed by the first compaction (paths, errors, commands, asks) that each engine's text still names after each compaction.</figcaption></figure>`
    : `<p class="muted">No engine compacted this transcript at this window.</p>`;
  return `<section><h2>${escapeHtml(first.transcript)} <span class="muted">(${escapeHtml(first.format)}, ${first.messages} messages)</span></h2>
${rowsTable(evalRows(group), "eval")}
${chart}
${group.map(lostSection).join("\n")}
</section>`;
}

/** Renders the whole page. */
export function renderEvalHtml(runs: readonly EvalRun[], info: EvalPageInfo): string {
  const groups = byTranscript(runs);
  const engines = [...new Set(runs.map((r) => r.engine))];
  const title = `Eval — ${engines.join(" vs ")}`;
  const totals = groups.length > 1 ? `<section><h2>All transcripts</h2>${rowsTable(totalRows(engineTotals(runs)), "eval")}</section>` : "";
  return `${pageStart(title, { style: EVAL_STYLE })}
<h1>${escapeHtml(title)}</h1>
<p class="banner">${escapeHtml(info.banner)}</p>
<p class="lead">Each transcript replayed in a ${info.window.toLocaleString("en-US")}-token window with ${escapeHtml(info.model)} via ${escapeHtml(info.provider)}. At each compaction, the facts of the messages the engine removed (file paths, real errors, commands, the user's asks) are looked for in the text the engine wrote (its summary); a path, command or error must appear as written, an ask by at least half of its distinctive words.</p>
${totals}
${groups.map(transcriptSection).join("\n")}
</main>
</body>
</html>
`;
}
