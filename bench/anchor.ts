/**
 * The upstream yardstick: `../shared/anchors/hermes_compress.py` (upstream Hermes' ContextCompressor with a
 * stubbed summarizer, timed on fresh data) run on the same transcript in the same bench run. When
 * `../shared` (next to the repository) or `python3` is missing, the anchor is unavailable and no ratio is
 * printed: a ratio is never computed against a remembered constant.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatMessage } from "@context-engine/core";

/** The repository's root folder. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
/** `../shared` next to the repository: the anchors and the corpus. */
export const sharedDir = join(repoRoot, "..", "shared");
const anchorScript = join(sharedDir, "anchors", "hermes_compress.py");

/** One run of the anchor script: messages in and out, warm fresh-data times, and the process's cold costs. */
export interface AnchorFigures {
  in: number;
  out: number;
  median_ms: number;
  min_ms: number;
  import_ms: number;
  first_ms: number;
}

/** Why the anchor cannot run here, or undefined when it can. */
export function anchorUnavailable(): string | undefined {
  if (!existsSync(anchorScript)) return `${anchorScript} not found`;
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
  } catch {
    return "python3 not found";
  }
  return undefined;
}

/** The line a bench prints instead of a ratio when the anchor cannot run. */
export function unavailableLine(reason: string): string {
  return `anchor unavailable (${reason}): no ratio`;
}

/** Runs the anchor on `messages` (written to a temporary JSON file) with `runs` timed runs; undefined when unavailable. */
export function runAnchor(messages: ChatMessage[], options: { runs?: number; contextLength?: number } = {}): AnchorFigures | undefined {
  if (anchorUnavailable() !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "ce-anchor-"));
  try {
    const file = join(dir, "transcript.json");
    writeFileSync(file, JSON.stringify(messages));
    const args = [anchorScript, file, "--runs", String(options.runs ?? 7), "--context-length", String(options.contextLength ?? 200_000)];
    const output = execFileSync("python3", args, { encoding: "utf8", maxBuffer: 1 << 20 });
    return JSON.parse(output.trim().split("\n").at(-1)!) as AnchorFigures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
