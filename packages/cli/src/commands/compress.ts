/** `context-engine compress`: runs the resolved engine over a transcript and prints before/after. */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { defaultTokenCounter, validateConversation, type ChatMessage, type TokenCounter } from "@context-engine/core";
import { parseCommandArgs, parsePositiveInt } from "../args.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";
import type { CommandIO } from "../commandIO.js";
import { loadTranscript } from "../transcript.js";
import { COMPRESS_FLAGS } from "../commandFlags.js";
import { hostFromFlags } from "../hostFlags.js";
import { formatNumber, messageLine, table } from "../format.js";

/** Runs `compress`. */
export async function runCompress(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, COMPRESS_FLAGS);
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("expects exactly one transcript file");
  const contextLength = parsePositiveInt(values["context-length"], "--context-length");
  const transcript = await loadTranscript(io.cwd, file, values.format);
  // the output is shown and checked here (the "valid" row), invalid or not
  const host = await hostFromFlags(io.cwd, values, io.stderr, { validateOutput: false });
  if (contextLength) host.engine.updateModel({ ...host.model, contextLength });
  for (const warning of [...transcript.warnings, ...host.warnings]) io.stderr(`warning: ${warning}`);

  // the compressor's own counter: what it counted (the tail, the output) is not counted again
  const counter = defaultTokenCounter();
  const before = transcript.messages;
  const started = performance.now();
  const after = await host.engine.compress(before, { force: true, ...(values.focus ? { focusTopic: values.focus } : {}) });
  const elapsed = performance.now() - started;
  const problems = validateConversation(after, { allowPendingToolCalls: true });
  const beforeTokens = tokensBefore(host.engine, before, counter);
  const afterTokens = counter.countMessages(after);

  const rows: [string, string][] = [
    ["transcript", `${file} (${transcript.format})`],
    ["engine", `${host.engine.name} — ${host.engineSource} (${host.engineOrigin})`],
    ["model", `${host.model.model}, ${formatNumber(host.engine.contextLength)} tokens, threshold ${formatNumber(host.engine.thresholdTokens)}`],
    ["before", `${formatNumber(before.length)} messages, ${formatNumber(beforeTokens.tokens)} tokens${beforeTokens.estimated ? " (the compressor's estimate)" : ""}`],
    ["after", `${formatNumber(after.length)} messages, ${formatNumber(afterTokens)} tokens (${beforeTokens.tokens > 0 ? ((afterTokens / beforeTokens.tokens) * 100).toFixed(1) : "0"} % of before)`],
    ...reportRows(host.engine),
    ["valid", problems.length === 0 ? "yes — passes validateConversation()" : `NO — ${problems.length} problems: ${problems[0]!.message}`],
    ["time", `${elapsed.toFixed(1)} ms`],
  ];
  io.stdout(table(rows));
  if (!values.quiet) {
    io.stdout("\nafter:");
    after.forEach((m, i) => io.stdout(messageLine(i, m, counter.countMessages([m]))));
  }
  if (values.out) {
    await writeFile(resolve(io.cwd, values.out), JSON.stringify(after, null, 2) + "\n");
    io.stdout(`\nwrote ${values.out}`);
  }
  return problems.length === 0 ? EXIT_OK : EXIT_FAILURE;
}

/**
 * The size of the transcript before compaction: the engine's own figure when its `lastCompression`
 * report has one for these messages (the built-in compressor counts exactly only what it keeps and
 * estimates the rest; no decision here depends on the difference), else an exact count.
 */
function tokensBefore(engine: object, before: ChatMessage[], counter: TokenCounter): { tokens: number; estimated: boolean } {
  const report = (engine as { lastCompression?: { messagesBefore?: unknown; tokensBefore?: unknown } }).lastCompression;
  if (report?.messagesBefore === before.length && typeof report.tokensBefore === "number") return { tokens: report.tokensBefore, estimated: true };
  return { tokens: counter.countMessages(before), estimated: false };
}

/** Rows from the engine's `lastCompression` report, when it keeps one (the built-in compressor does). */
function reportRows(engine: object): [string, string][] {
  const report = (engine as { lastCompression?: Record<string, unknown> }).lastCompression;
  if (!report) return [];
  const rows: [string, string][] = [];
  if (report.aborted) rows.push(["aborted", String(report.abortReason ?? report.reason ?? "yes")]);
  if (report.summarizer !== undefined) rows.push(["summarizer", `${String(report.summarizer)}${report.fallbackUsed ? " (fallback)" : ""}`]);
  if (typeof report.droppedMessages === "number") rows.push(["summarized", `${formatNumber(report.droppedMessages)} messages into one summary${typeof report.summaryTokens === "number" ? ` of ${formatNumber(report.summaryTokens)} tokens` : ""}`]);
  const verbatim = report.verbatim as { checked: number; removed: number; flagged: number } | undefined;
  if (verbatim) rows.push(["verbatim", `${formatNumber(verbatim.checked)} facts checked against the turns; invented: ${verbatim.removed} removed, ${verbatim.flagged} flagged`]);
  return rows;
}
