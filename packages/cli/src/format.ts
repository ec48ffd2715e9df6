/** Plain-text output helpers for the CLI: aligned tables and one-line message previews. */
import { contentText, type ChatMessage } from "@context-engine/core";

/**
 * 1234567 → "1,234,567", as `toLocaleString("en-US")` writes it, without loading the locale data that
 * its first call costs a fresh process (30-50 ms).
 */
export function formatNumber(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Two aligned columns. */
export function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}

/** `[ 12] assistant   340 tok  I'll run the tests… [calls: terminal]` */
export function messageLine(index: number, message: ChatMessage, tokens: number): string {
  const text = contentText(message.content).replace(/\s+/g, " ").trim();
  const calls = message.tool_calls?.length ? ` [calls: ${message.tool_calls.map((c) => c.function.name).join(", ")}]` : "";
  const preview = text.length > 70 ? text.slice(0, 69) + "…" : text;
  return `[${String(index).padStart(3)}] ${message.role.padEnd(9)} ${String(tokens).padStart(6)} tok  ${preview}${calls}`;
}

/** Rows of cells as aligned columns (each column as wide as its widest cell), two spaces apart. */
export function grid(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd()).join("\n");
}
