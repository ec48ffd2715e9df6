/**
 * What `simulate` and `eval` say about engine outputs that break provider rules (docs/BEHAVIOUR.md,
 * "Invalid output"), and the exit code it makes: 1, unless `--allow-invalid`.
 */
import type { ReplayReport } from "@context-engine/core/lab";
import { EXIT_FAILURE, EXIT_OK } from "../errors.js";

/** One replay's refused outputs and whose they are (`label`: the engine as the report names it). */
export interface InvalidOutputRun {
  label: string;
  transcript?: string;
  report: Pick<ReplayReport, "invalidOutputs">;
}

/**
 * "error: engine head_tail returned 2 invalid outputs on t.json …; the first, before request 3 (agent):
 * messages[1] (tool, …): result has no matching tool call [orphan_tool_result]" for each run with any
 * (a `warning:` with `allowed`), then what the flag does.
 */
export function invalidOutputLines(runs: readonly InvalidOutputRun[], allowed: boolean): string[] {
  const lines: string[] = [];
  for (const { label, transcript, report } of runs) {
    const { count, first } = report.invalidOutputs;
    if (count === 0 || first === undefined) continue;
    const where = transcript === undefined ? "" : ` on ${transcript}`;
    const problem = first.problem === undefined ? first.text : `${first.problem.message} [${first.problem.code}]`;
    lines.push(
      `${allowed ? "warning" : "error"}: engine ${label} returned ${count} invalid output${count === 1 ? "" : "s"}${where}, each breaking provider rules (refused: the context was kept as it was); ` +
        `the first, before request ${first.request} (${first.layer}): ${problem}`,
    );
  }
  if (lines.length > 0 && !allowed) lines.push("error: a provider would reject these requests; fix the engine's output (sanitizeToolPairs repairs tool pairs), or pass --allow-invalid to exit 0 anyway");
  return lines;
}

/** The exit code of a command whose replays are `runs`: 1 when any refused an output and `--allow-invalid` was not given. */
export function invalidOutputExitCode(runs: readonly InvalidOutputRun[], allowed: boolean): number {
  return !allowed && runs.some((run) => run.report.invalidOutputs.count > 0) ? EXIT_FAILURE : EXIT_OK;
}
