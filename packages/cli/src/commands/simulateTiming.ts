/**
 * `simulate --timing both`: the transcript replayed once per `compression.timing` policy, each on a
 * fresh scratch host, and printed side by side — cost, compactions, largest request against the
 * window, and what the compactions kept (docs/BEHAVIOUR.md, "Cache-aware timing").
 */
import { promptCachingStatus } from "@context-engine/core";
import { evaluateFidelity } from "@context-engine/core/lab";
import { invalidOutputExitCode, invalidOutputLines } from "../report/invalidOutputs.js";
import { grid } from "../format.js";
import { hostFromFlags, type HostFlags } from "../hostFlags.js";
import type { CommandIO } from "../commandIO.js";
import { hostReplayOptions, meterSummaries, replayModel } from "../replaySetting.js";
import { timingRows, type TimingRun } from "../report/timingRows.js";
import type { CompressionTiming } from "../timingFlag.js";
import type { LoadedTranscript } from "../transcript.js";

/** What the comparison replays. */
export interface TimingComparison {
  file: string;
  transcript: LoadedTranscript;
  flags: HostFlags & { model?: string | undefined; provider?: string | undefined };
  contextLength: number | undefined;
  policies: readonly CompressionTiming[];
  /** `--allow-invalid`: exit 0 even when an output broke provider rules. */
  allowInvalid: boolean;
}

/** Replays the transcript under each policy and prints the side-by-side table. */
export async function runTimingComparison(io: CommandIO, { file, transcript, flags, contextLength, policies, allowInvalid }: TimingComparison): Promise<number> {
  const runs: TimingRun[] = [];
  const notes: string[] = [];
  let setting: { model: string; provider: string; window: number; ttl: "5m" | "1h"; engine: string } | undefined;
  for (const [i, policy] of policies.entries()) {
    // each policy on its own scratch host; the host's notices are shown once
    const host = await hostFromFlags(io.cwd, flags, i === 0 ? io.stderr : undefined, { scratch: true, timing: policy, wrapSummarizer: meterSummaries });
    if (i === 0) for (const warning of [...transcript.warnings, ...host.warnings]) io.stderr(`warning: ${warning}`);
    const { model, provider, window } = replayModel(host, flags, contextLength);
    setting = { model, provider, window, ttl: host.config.prompt_caching.cache_ttl, engine: host.engine.name };
    if (policy === "cache_aware" && (host.engine as { cacheTiming?: unknown }).cacheTiming === undefined) {
      notes.push(`engine ${host.engine.name} has no cache-aware timing: its cache_aware column is its own trigger`);
    }
    const report = await evaluateFidelity(transcript.messages, { engine: host.engine, model, provider, ...hostReplayOptions(host, model) });
    if (i === 0 && report.replay.timing === "cadence") notes.push("the transcript has no timestamps: requests are 20 s apart, so the cache never expires between them");
    runs.push({ policy, report });
  }
  const s = setting!;
  io.stdout(promptCachingStatus(s.model, s.provider, s.ttl).banner);
  io.stdout(`timing: ${file} (${transcript.format}, ${transcript.messages.length} messages), engine ${s.engine}, ${s.model} via ${s.provider}, ${s.window.toLocaleString("en-US")}-token window, ${s.ttl} cache TTL`);
  io.stdout(grid(timingRows(runs, s.window)));
  if (notes.length > 0) io.stdout(["notes:", ...notes.map((n) => `  - ${n}`)].join("\n"));
  const checked = runs.map((run) => ({ label: `${s.engine} (${run.policy})`, report: run.report.replay }));
  for (const line of invalidOutputLines(checked, allowInvalid)) io.stderr(line);
  return invalidOutputExitCode(checked, allowInvalid);
}
