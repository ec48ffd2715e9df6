/**
 * The side-by-side figures of a bench run (ours, upstream, ratio), collected as the benchmarks print
 * them, and the same table as README-ready markdown (`pnpm bench --markdown`) with the machine and date.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";

/**
 * One measured line: what was timed, on what, ours and upstream's median (undefined: anchor unavailable;
 * null: upstream has nothing to compare, such as our command line).
 */
export interface SideBySideRow {
  kind: "warm" | "cold";
  measure: string;
  data: string;
  oursMs: number;
  upstreamMs: number | undefined | null;
  /**
   * Upstream/ours of each round when the two were measured in paired rounds (ours, then upstream, back to
   * back): the ratio shown is their median, with their range, instead of the ratio of the two medians.
   */
  pairedRatios?: readonly number[];
}

const rows: SideBySideRow[] = [];

/** Records a row for the summary table. */
export function recordSideBySide(row: SideBySideRow): void {
  rows.push(row);
}

/** The rows recorded so far in this process. */
export function sideBySideRows(): readonly SideBySideRow[] {
  return rows;
}

/** Milliseconds as printed everywhere in the benches: two decimals under 10 ms, one above. */
export function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * "12.3x" / "0.5x (slower)", or "–" without an upstream figure; for paired rounds the median ratio and
 * the rounds' range: "4.0x (3.6–4.4x over 3 rounds)".
 */
export function ratioCell(row: SideBySideRow): string {
  if (row.upstreamMs === null) return "– (no upstream counterpart)";
  if (row.upstreamMs === undefined) return "– (anchor unavailable)";
  const paired = row.pairedRatios !== undefined && row.pairedRatios.length > 1 ? row.pairedRatios : undefined;
  const ratio = paired ? median(paired) : row.upstreamMs / row.oursMs;
  const slower = ratio < 1 ? " (slower)" : "";
  if (!paired) return `${ratio.toFixed(1)}x${slower}`;
  return `${ratio.toFixed(1)}x${slower} (${Math.min(...paired).toFixed(1)}–${Math.max(...paired).toFixed(1)}x over ${paired.length} rounds)`;
}

/** The machine the figures were taken on: CPU model, cores, memory, load average, Node and Python versions. */
export function machineLine(): string {
  let python = "no python3";
  try {
    python = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    // keep "no python3"
  }
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0]!.toFixed(1)} at the end, Node ${process.version}, ${python}`;
}

/** The recorded rows as a markdown table, headed by the machine and the date (UTC). */
export function sideBySideMarkdown(date = new Date()): string {
  const lines = [
    `${machineLine()}, ${date.toISOString().slice(0, 10)}:`,
    "",
    "| | measure | data | ours | upstream | ratio |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.kind} | ${r.measure} | ${r.data} | ${formatMs(r.oursMs)} ms | ${typeof r.upstreamMs === "number" ? `${formatMs(r.upstreamMs)} ms` : "–"} | ${ratioCell(r)} |`),
  ];
  return lines.join("\n");
}
