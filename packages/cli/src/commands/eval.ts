/**
 * `context-engine eval <engine[,engine…]> <transcript…>`: replays each transcript through each engine in
 * a fixed window (64,000 tokens unless `--window`), and reports what survived each compaction — file
 * paths, real errors, acting commands, reads, the user's asks, identifiers the kept tail refers back to —
 * with the first chunk's retention over later compactions, summary tokens, cost and cache reads; and
 * what the summary model is shown of the same facts (the prompts an LLM summarizer sends, built without
 * calling a model: the host's summarizer is metered) and the summarizer calls. A request that sent more
 * than the window less the output reserve counts as a failure of its engine, in each table and in a line per engine. Engines are
 * resolved strictly (a name that does not resolve is an error, not a fallback) and stores are scratch.
 */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { promptCachingStatus } from "@context-engine/core";
import { evaluateFidelity, firstChunkRetention, MeteredSummarizer } from "@context-engine/core/lab";
import { parseCommandArgs, parsePositiveInt } from "../args.js";
import { DEFAULT_EVAL_WINDOW, EVAL_FLAGS } from "../commandFlags.js";
import { UsageError } from "../errors.js";
import { invalidOutputExitCode, invalidOutputLines } from "../report/invalidOutputs.js";
import { grid } from "../format.js";
import { hostFromFlags } from "../hostFlags.js";
import type { CommandIO } from "../commandIO.js";
import { renderEvalHtml } from "../report/evalHtml.js";
import { byTranscript, engineTotals, evalRows, totalRows, type EvalRun, type EvalSetting } from "../report/evalRows.js";
import { loadTranscript, type LoadedTranscript } from "../transcript.js";
import { progressBar } from "./simulate.js";
import { hostReplayOptions, meterSummaries, replayModel } from "../replaySetting.js";
import { parseTimingFlag, type CompressionTiming } from "../timingFlag.js";

/** The engines of the first argument: "compressor" or "compressor,lcm". */
export function parseEngineList(text: string): string[] {
  const engines = text.split(",").map((name) => name.trim());
  if (engines.some((name) => name === "")) throw new UsageError(`the engine list '${text}' has an empty name (use a,b to compare engines)`);
  return [...new Set(engines)];
}

/**
 * The runs of each transcript: each engine once, or once per policy with `--timing both` (labelled
 * "compressor (threshold)", "compressor (cache_aware)" so the tables show them side by side).
 */
export function evalEngines(engines: readonly string[], policies: readonly CompressionTiming[] | undefined): Array<{ engine: string; timing: CompressionTiming | undefined; label: string }> {
  if (policies === undefined || policies.length === 1) return engines.map((engine) => ({ engine, timing: policies?.[0], label: engine }));
  return engines.flatMap((engine) => policies.map((timing) => ({ engine, timing, label: `${engine} (${timing})` })));
}

/** Runs `eval`. */
export async function runEval(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, EVAL_FLAGS);
  const [engineList, ...files] = positionals;
  if (engineList === undefined || files.length === 0) throw new UsageError("expects the engines (a name, or a,b to compare) and at least one transcript");
  const engines = parseEngineList(engineList);
  const window = parsePositiveInt(values.window, "--window") ?? DEFAULT_EVAL_WINDOW;
  const policies = parseTimingFlag(values.timing);
  const transcripts: Array<{ file: string; loaded: LoadedTranscript }> = [];
  for (const file of files) transcripts.push({ file, loaded: await loadTranscript(io.cwd, file, values.format) });

  const showProgress = values.progress === true || process.stderr.isTTY === true;
  const warned = new Set<string>();
  const warn = (line: string) => {
    if (!warned.has(line)) io.stderr(`warning: ${line}`);
    warned.add(line);
  };
  let setting: (EvalSetting & { ttl: "5m" | "1h" }) | undefined;
  const runs: EvalRun[] = [];
  for (const { file, loaded } of transcripts) {
    for (const warning of loaded.warnings) warn(`${file}: ${warning}`);
    for (const { engine, timing, label } of evalEngines(engines, policies)) {
      const host = await hostFromFlags(io.cwd, { config: values.config, root: values.root, engine, strict: true }, io.stderr, { scratch: true, timing, wrapSummarizer: meterSummaries }); // an eval never writes into the configured stores
      for (const warning of host.warnings) warn(warning);
      const { model, provider } = replayModel(host, values, window);
      setting = { window, model, provider, ttl: host.config.prompt_caching.cache_ttl };
      if (showProgress) io.stderr(`${label} on ${file}:`);
      const bar = showProgress ? progressBar((text) => void process.stderr.write(text), values.progress === true) : undefined;
      const prompts = host.summarizer instanceof MeteredSummarizer ? { prompts: host.summarizer } : {};
      const report = await evaluateFidelity(loaded.messages, { engine: host.engine, model, provider, ...hostReplayOptions(host, model), ...prompts, ...(bar ? { onProgress: bar } : {}) });
      runs.push({ transcript: file, format: loaded.format, messages: loaded.messages.length, engine: label, report });
    }
  }
  const { ttl, ...resolved } = setting!;

  if (values.json) io.stdout(JSON.stringify(evalJson(runs, resolved), null, 2));
  else io.stdout(evalText(runs, resolved));
  if (values.html) {
    await writeFile(resolve(io.cwd, values.html), renderEvalHtml(runs, { ...resolved, banner: promptCachingStatus(resolved.model, resolved.provider, ttl).banner }));
    if (!values.json) io.stdout(`\nwrote ${values.html}`);
  }
  const checked = runs.map((run) => ({ label: run.engine, transcript: run.transcript, report: run.report.replay }));
  for (const line of invalidOutputLines(checked, values["allow-invalid"] === true)) io.stderr(line);
  return invalidOutputExitCode(checked, values["allow-invalid"] === true);
}

/** The text report: one table per transcript (engines side by side), then the totals when there are several transcripts. */
export function evalText(runs: readonly EvalRun[], setting: EvalSetting): string {
  const limit = runs[0]?.report.overWindow.limitTokens;
  const line = limit === undefined ? "" : ` (${limit.toLocaleString("en-US")} tokens a request, after a ${(setting.window - limit).toLocaleString("en-US")}-token output reserve)`;
  const lines = [`eval: ${setting.window.toLocaleString("en-US")}-token window${line}, ${setting.model} via ${setting.provider}; a fact survives when the engine's own text (its summary) still names it`];
  for (const group of byTranscript(runs)) {
    const first = group[0]!;
    lines.push("", `${first.transcript} (${first.format}, ${first.messages} messages)`, grid(evalRows(group)));
    lines.push(...group.map((run) => failureLine(run, setting.window)).filter((line): line is string => line !== undefined));
  }
  if (byTranscript(runs).length > 1) lines.push("", "all transcripts", grid(totalRows(engineTotals(runs))));
  return lines.join("\n");
}

/** "sliding_window failed 12 of 40 requests: …" for a run with requests over the window less the output reserve, else undefined. */
export function failureLine(run: EvalRun, window: number): string | undefined {
  const { failed, requests, firstRequest, peakTokens, limitTokens } = run.report.overWindow;
  if (failed === 0) return undefined;
  const fmt = (n: number) => n.toLocaleString("en-US");
  return (
    `${run.engine} failed ${failed} of ${requests} requests: they sent more than ${fmt(limitTokens)} tokens, the ${fmt(window)}-token window less the ${fmt(window - limitTokens)}-token output reserve ` +
    `(first: request ${firstRequest}, largest ${fmt(peakTokens)} tokens), which the API rejects or leaves no room to answer; its cost counts them as if they had been answered`
  );
}

/** The JSON report: the setting, each run (per compaction, with the facts that did not survive) and the totals per engine. */
export function evalJson(runs: readonly EvalRun[], setting: EvalSetting): unknown {
  return {
    ...setting,
    runs: runs.map((run) => ({
      transcript: run.transcript,
      format: run.format,
      messages: run.messages,
      engine: run.engine,
      survival: run.report.survival,
      promptRecall: run.report.promptRecall ?? null,
      references: run.report.references,
      firstChunk: { ...run.report.firstChunk, retention: firstChunkRetention(run.report) ?? null },
      summaryTokens: run.report.summaryTokens,
      costUsd: run.report.replay.totals.costUsd,
      summaries: run.report.replay.totals.summaries ?? null,
      costWithSummariesUsd: run.report.replay.totals.costWithSummariesUsd,
      cacheReadShare: run.report.replay.totals.cacheReadShare,
      requests: run.report.replay.totals.requests,
      overWindow: run.report.overWindow,
      invalidOutputs: run.report.replay.invalidOutputs,
      compactions: run.report.compactions,
    })),
    totals: engineTotals(runs),
  };
}
