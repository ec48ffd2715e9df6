/**
 * A small SVG line chart (no chart library): series as paths over request numbers, horizontal
 * reference lines, vertical event markers, axes with round ticks. Returns SVG markup; the page's
 * script adds the hover read-out using the `data-plot` geometry.
 */
import { escapeHtml } from "./escape.js";

/** One line of the chart. */
export interface ChartSeries {
  id: string;
  label: string;
  values: readonly number[];
  /** CSS class of the path (colour, dash). */
  className: string;
}

/** A horizontal line at `value` (e.g. a threshold). */
export interface ChartRule {
  id: string;
  label: string;
  value: number;
  className: string;
}

/** A vertical marker at request `at`, drawn from `from` to `to` (or across the plot when both are absent). */
export interface ChartMarker {
  at: number;
  from?: number;
  to?: number;
  label: string;
  className: string;
  /** Extra `data-*` attributes. */
  data?: Record<string, string>;
}

/** What {@link lineChart} draws. */
export interface LineChartSpec {
  id: string;
  title: string;
  width: number;
  height: number;
  /** Number of x positions (requests). */
  count: number;
  series: ChartSeries[];
  rules?: ChartRule[];
  markers?: ChartMarker[];
  formatY: (value: number) => string;
  xLabel: string;
}

const MARGIN = { top: 16, right: 150, bottom: 40, left: 64 };
/** Approximate width of a legend character at the chart's 12px font. */
const LEGEND_CHAR_WIDTH = 6.6;

/** Round tick values from 0 to at least `max` (steps of 1, 2 or 5 × 10^k), about `target` of them. */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function round(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

/** The chart as one `<svg>` element. */
export function lineChart(spec: LineChartSpec): string {
  const plotWidth = spec.width - MARGIN.left - MARGIN.right;
  const plotHeight = spec.height - MARGIN.top - MARGIN.bottom;
  const peak = Math.max(0, ...spec.series.flatMap((s) => s.values), ...(spec.rules ?? []).map((r) => r.value));
  const ticks = niceTicks(peak);
  const yMax = ticks[ticks.length - 1] as number;
  const x = (i: number): number => MARGIN.left + (spec.count <= 1 ? plotWidth / 2 : (i / (spec.count - 1)) * plotWidth);
  const y = (v: number): number => MARGIN.top + plotHeight - (yMax === 0 ? 0 : (v / yMax) * plotHeight);
  const parts: string[] = [];

  parts.push(`<g class="axis y-axis">`);
  for (const t of ticks) {
    parts.push(`<line class="grid" x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${round(y(t))}" y2="${round(y(t))}"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${round(y(t) + 4)}" text-anchor="end">${escapeHtml(spec.formatY(t))}</text>`);
  }
  parts.push(`</g><g class="axis x-axis">`);
  // x positions are whole numbers (requests, compactions): no ticks between them.
  for (const t of niceTicks(Math.max(1, spec.count - 1), 8).filter((t) => t <= spec.count - 1 && Number.isInteger(t))) {
    parts.push(`<text x="${round(x(t))}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${t}</text>`);
  }
  parts.push(`<text class="axis-label" x="${MARGIN.left + plotWidth / 2}" y="${spec.height - 4}" text-anchor="middle">${escapeHtml(spec.xLabel)}</text>`);
  parts.push(`<line class="axis-line" x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${MARGIN.top + plotHeight}" y2="${MARGIN.top + plotHeight}"/></g>`);

  for (const rule of spec.rules ?? []) {
    const ry = round(y(rule.value));
    parts.push(
      `<g class="rule ${escapeHtml(rule.className)}" data-rule="${escapeHtml(rule.id)}"><line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${ry}" y2="${ry}"/>` +
        `<text x="${MARGIN.left + plotWidth + 6}" y="${round(y(rule.value) + 4)}">${escapeHtml(rule.label)}</text></g>`,
    );
  }
  for (const s of spec.series) {
    if (s.values.length === 0) continue;
    const d = s.values.map((v, i) => `${i === 0 ? "M" : "L"}${round(x(i))},${round(y(v))}`).join(" ");
    parts.push(`<path class="series ${escapeHtml(s.className)}" data-series="${escapeHtml(s.id)}" d="${d}"><title>${escapeHtml(s.label)}</title></path>`);
  }
  for (const m of spec.markers ?? []) {
    const top = m.from === undefined ? MARGIN.top : y(Math.max(m.from, m.to ?? 0));
    const bottom = m.to === undefined ? MARGIN.top + plotHeight : y(Math.min(m.from ?? 0, m.to));
    const data = Object.entries(m.data ?? {}).map(([k, v]) => ` data-${escapeHtml(k)}="${escapeHtml(v)}"`).join("");
    parts.push(
      `<g class="marker ${escapeHtml(m.className)}" data-request="${m.at}"${data}><title>${escapeHtml(m.label)}</title>` +
        `<line x1="${round(x(m.at))}" x2="${round(x(m.at))}" y1="${round(top)}" y2="${round(bottom)}"/>` +
        `<circle cx="${round(x(m.at))}" cy="${round(top)}" r="4.5"/></g>`,
    );
  }
  let legendX = MARGIN.left;
  const legend = spec.series.map((s) => {
    const item = `<g class="legend-item" transform="translate(${legendX},0)"><line class="${escapeHtml(s.className)}" x1="0" x2="22" y1="-4" y2="-4"/><text x="28" y="0">${escapeHtml(s.label)}</text></g>`;
    legendX += 28 + s.label.length * LEGEND_CHAR_WIDTH + 24;
    return item;
  });
  const plot = JSON.stringify({ left: MARGIN.left, top: MARGIN.top, width: plotWidth, height: plotHeight, count: spec.count });
  return [
    `<svg class="chart" id="${escapeHtml(spec.id)}" viewBox="0 0 ${spec.width} ${spec.height + 24}" role="img" aria-label="${escapeHtml(spec.title)}" data-plot="${escapeHtml(plot)}" xmlns="http://www.w3.org/2000/svg">`,
    `<g transform="translate(0,24)">`,
    ...parts,
    `<line class="cursor" x1="0" x2="0" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" visibility="hidden"/>`,
    `</g><g class="legend" transform="translate(0,14)">${legend.join("")}</g>`,
    `</svg>`,
  ].join("\n");
}
