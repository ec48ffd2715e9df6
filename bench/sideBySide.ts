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

/** "12.3x faster" / "0.5x (slower)", or "–" without an upstream figure. */
export function ratioCell(row: SideBySideRow): string {
  if (row.upstreamMs === null) return "– (no upstream counterpart)";
  if (row.upstreamMs === undefined) return "– (anchor unavailable)";
  const ratio = row.upstreamMs / row.oursMs;
  return `${ratio.toFixed(1)}x${ratio < 1 ? " (slower)" : ""}`;
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
