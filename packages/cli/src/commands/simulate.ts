/**
 * `context-engine simulate`: replays a transcript request by request through the resolved engine
 * (gateway hygiene and agent layer, compactions, cache breakpoints, usage fed back) and prints what it
 * cost; `--html` writes the self-contained report page.
 */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { promptCachingStatus } from "@context-engine/core";
import { replayConversation, type ReplayProgress, type ReplayReport } from "@context-engine/core/lab";
import { hostReplayOptions, meterSummaries, replayModel } from "../replaySetting.js";
import { parseCommandArgs, parsePositiveInt } from "../args.js";
import { UsageError } from "../errors.js";
import { invalidOutputExitCode, invalidOutputLines } from "../report/invalidOutputs.js";
import { table } from "../format.js";
import { SIMULATE_FLAGS } from "../commandFlags.js";
import { hostFromFlags } from "../hostFlags.js";
import type { CommandIO } from "../commandIO.js";
import { loadTranscript } from "../transcript.js";
import { renderReportHtml } from "../report/html.js";
import { formatTokens, formatUsd } from "../report/numbers.js";
import { summaryRows } from "../report/summary.js";
import { parseTimingFlag } from "../timingFlag.js";
import { runTimingComparison } from "./simulateTiming.js";

export { DEFAULT_SIMULATE_MODEL } from "../replaySetting.js";

/** Replays with at least this many requests show a progress bar on a terminal. */
export const PROGRESS_MIN_REQUESTS = 20;

/** Runs `simulate`. */
export async function runSimulate(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, SIMULATE_FLAGS);
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("expects exactly one transcript file");
  const contextLength = parsePositiveInt(values["context-length"], "--context-length");
  const policies = parseTimingFlag(values.timing);
  const transcript = await loadTranscript(io.cwd, file, values.format);
  if (policies !== undefined && policies.length > 1) {
    if (values.html !== undefined) throw new UsageError("--html writes the report of one replay: give --timing threshold or --timing cache_aware with it, not both");
    return runTimingComparison(io, { file, transcript, flags: values, contextLength, policies, allowInvalid: values["allow-invalid"] === true });
  }
  // a replay must not write into the configured stores (lcm's database): engines get scratch ones
  const host = await hostFromFlags(io.cwd, values, io.stderr, { scratch: true, timing: policies?.[0], wrapSummarizer: meterSummaries });

  const { model, provider } = replayModel(host, values, contextLength);
  const ttl = host.config.prompt_caching.cache_ttl;
  const status = promptCachingStatus(model, provider, ttl);

  io.stdout(status.banner);
  for (const warning of [...transcript.warnings, ...host.warnings]) io.stderr(`warning: ${warning}`);
  const showProgress = values.progress === true || process.stderr.isTTY === true;
  const bar = showProgress ? progressBar((text) => void process.stderr.write(text), values.progress === true) : undefined;
  const report = await replayConversation(transcript.messages, { engine: host.engine, model, provider, ...hostReplayOptions(host, model), ...(bar ? { onProgress: bar } : {}) });

  const engineLabel = `${host.engine.name} — ${host.engineSource} (${host.engineOrigin})`;
  const info = { transcript: `${file} (${transcript.format}, ${transcript.messages.length} messages)`, engineLabel, banner: status.banner };
  io.stdout(table(summaryRows(report, info)));
  const details = detailLines(report);
  if (details.length > 0) io.stdout(["", ...details].join("\n"));
  if (values.html) {
    const out = resolve(io.cwd, values.html);
    await writeFile(out, renderReportHtml(report, info));
    io.stdout(`\nwrote ${values.html}`);
  }
  const runs = [{ label: host.engine.name, report }];
  for (const line of invalidOutputLines(runs, values["allow-invalid"] === true)) io.stderr(line);
  return invalidOutputExitCode(runs, values["allow-invalid"] === true);
}

/** The compactions with their cache effect, then the notes. */
function detailLines(report: ReplayReport): string[] {
  const lines: string[] = [];
  if (report.compactions.length > 0) lines.push("compactions:");
  for (const c of report.compactions) {
    const recovered = !report.caching.enabled
      ? "prompt caching is off, so nothing is cached to lose"
      : c.recoveredAfterRequests === null
        ? "the cache did not recover within the replay"
        : `cache recovered after ${c.recoveredAfterRequests} request${c.recoveredAfterRequests === 1 ? "" : "s"}`;
    const next = c.nextRequestCostUsd === null ? "" : `; that request cost ${formatUsd(c.nextRequestCostUsd)} vs ${formatUsd(c.noCompactionCostUsd ?? 0)} without compacting`;
    lines.push(
      `  request ${String(c.request).padStart(3)}  ${c.layer.padEnd(7)}  ${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)} tokens; ` +
        `${formatTokens(c.cacheRewriteTokens)} re-written to the cache${next}; ${recovered}`,
    );
  }
  for (const request of report.requests) for (const notice of request.notices ?? []) lines.push(`  request ${request.index}: ${notice}`);
  if (report.notes.length > 0) lines.push("notes:", ...report.notes.map((n) => `  - ${n}`));
  return lines;
}

/**
 * A one-line progress bar redrawn in place with `\r` (cleared at the end). Without `always`, short
 * replays (under {@link PROGRESS_MIN_REQUESTS} requests) show none.
 */
export function progressBar(write: (text: string) => void, always: boolean): (progress: ReplayProgress) => void {
  const width = 30;
  let last = -1;
  return ({ done, total }) => {
    if (!always && total < PROGRESS_MIN_REQUESTS) return;
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (percent === last && done !== total) return;
    last = percent;
    const filled = Math.round((percent / 100) * width);
    write(`\rreplaying [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} requests`);
    if (done === total) write("\n");
  };
}
