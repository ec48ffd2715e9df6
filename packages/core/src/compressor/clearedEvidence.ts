/**
 * The evidence a cleared tool output keeps below its descriptor, step 3 of
 * (docs/BEHAVIOUR.md, "The compression algorithm"): the lines that say why a command failed — failing
 * tests first, then compiler diagnostics, a traceback's last line, the program's own complaint
 * (`usage: …`, `fatal: …`) — bounded to {@link KEPT_EVIDENCE_CHARS} characters in all, so the summary
 * model and the agent still see what went wrong. A successful read keeps none: its descriptor is one
 * line. Pure.
 */
import { errorSignatures, failedRead, stackTracedErrors } from "../facts/errorSignatures.js";
import { reportedExit } from "../facts/exitStatus.js";
import { readsContent, toolCallTarget } from "../facts/toolCallTargets.js";
import { answerOfExit } from "../facts/commandKinds.js";

/** Characters of evidence one cleared output keeps, all its lines together. */
export const KEPT_EVIDENCE_CHARS = 300;
/**
 * Characters of evidence the summary model reads of one cleared output in the range it summarizes: that
 * range leaves the conversation, so the bound for the agent's context does not apply there, and a linter's
 * or a test run's tenth error line is as much a fact to keep as its first.
 */
export const SUMMARY_EVIDENCE_CHARS = 2_000;
/** Characters of one evidence line (a longer line is cut with "…"). */
const KEPT_LINE_CHARS = 200;
/** A line cut to fit the rest of the bound keeps at least this much, else it is left out. */
const MIN_CUT_CHARS = 40;

/** Error signatures read from one output before the bound picks among them (failing tests may come late). */
const MAX_CANDIDATES = 24;

/** The test runners' lines naming a failing test (pytest, go test, jest/vitest, JUnit). */
const FAILING_TEST = /^(?:(?:FAILED|ERROR)\s+\S+(?:::|\.py\b)|--- FAIL:|FAIL\s+\S|[✕✗×]\s+\S|●\s+.+›|Tests run: \d+, Failures:)/;

/**
 * Lines a runner wraps an output in, not what the program printed: exit trailers and headers (Claude Code,
 * Codex CLI, OpenHands, Gemini CLI, SWE-agent's sentinel), mini-swe-agent's `<returncode>`/`<output>` tags, Codex's timing.
 */
const RUNNER_LINE = /^(?:<\/?(?:returncode|output|output_head|output_tail|elided_chars|warning)>.*|Exit [Cc]ode:? ?-?\d*.*|exit code:? ?-?\d+.*|Process (?:exited|completed) with (?:exit )?code \d+.*|\/\/\/PROCESS-DONE:-?\d+:PROCESS-DONE\/\/\/|\[(?:The command|Command) (?:completed|finished) with exit code.*|Wall time:.*|Output:|Chunk ID:.*|Original token count:.*|Command:.*|Directory:.*|Stdout:.*|Stderr:.*|Signal:.*|Background PIDs:.*|Process Group PGID:.*|Error: \(none\)|\d+ characters elided)$/;

/** A program printing how it is called because it was called wrongly. */
const USAGE_LINE = /^(?:usage|Usage|USAGE):\s*\S/;

/** The lines of `output` the program printed (runner wrappers and blank lines left out), trimmed. */
function printedLines(output: string): string[] {
  return output.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !RUNNER_LINE.test(line));
}

/**
 * What a failed command said about its failure when no line of it is a known error: its `usage:` lines,
 * else its last printed line (where a program states why it stopped).
 */
function complaint(output: string): string[] {
  const lines = printedLines(output);
  const usage = lines.filter((line) => USAGE_LINE.test(line));
  if (usage.length > 0) return usage.slice(0, 1);
  const last = lines[lines.length - 1];
  return last === undefined ? [] : errorSignatures(last).length > 0 ? errorSignatures(last) : [last];
}

/** One line as kept: whitespace collapsed, cut to `max` characters with "…". */
function keptLine(line: string, max: number): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * `lines` within {@link KEPT_EVIDENCE_CHARS} in all: the failing tests' lines first, then the rest in
 * order, each at most {@link KEPT_LINE_CHARS}; the line that does not fit is cut to the room left (when
 * that is at least {@link MIN_CUT_CHARS}) and the rest left out.
 */
export function boundedEvidence(lines: readonly string[], max = KEPT_EVIDENCE_CHARS): string[] {
  const flat = [...new Set(lines.map((line) => keptLine(line, KEPT_LINE_CHARS)).filter((line) => line !== ""))];
  const ordered = [...flat.filter((line) => FAILING_TEST.test(line)), ...flat.filter((line) => !FAILING_TEST.test(line))];
  const out: string[] = [];
  let room = max;
  for (const line of ordered) {
    if (line.length <= room) {
      out.push(line);
      room -= line.length;
      continue;
    }
    if (room >= MIN_CUT_CHARS || out.length === 0) out.push(keptLine(line, Math.max(MIN_CUT_CHARS, room)));
    break;
  }
  return out;
}

/**
 * The lines a cleared output's evidence is chosen from, before any bound (read once, bounded for the
 * agent and for the summary model alike): for an output that reports success, only what it printed with
 * a stack trace (a read: nothing); for a comparison whose exit 1 says its files differ, nothing (what it
 * printed is the difference); for a read that did not fail, nothing (its error-looking lines are content);
 * else its error signatures (facts/errorSignatures.ts), and for a failure (a non-zero exit, or `flagged`
 * with `is_error`) that has none, the program's complaint.
 */
export function evidenceCandidates(toolName: string | undefined, argumentsJson: string | undefined, output: string, flagged: boolean): string[] {
  // the call was just read to describe it (toolCallTarget remembers it), so asking whether it reads is cheap
  const reads = toolName !== undefined && readsContent(toolName, argumentsJson ?? "");
  const exit = reportedExit(output);
  // files that differ (`diff`, `git diff --exit-code`: exit 1) printed their difference, not a failure
  const command = toolName === undefined ? undefined : toolCallTarget(toolName, argumentsJson ?? "").command;
  const answered = !flagged && command !== undefined && answerOfExit(command, exit) === "differ";
  if (!flagged && (exit === 0 || answered)) return reads || answered ? [] : stackTracedErrors(output);
  if (reads && !failedRead(output, flagged)) return [];
  const signatures = errorSignatures(output, MAX_CANDIDATES);
  const failed = flagged || (exit !== undefined && exit !== 0);
  if (!failed) return signatures;
  const usage = /usage:/i.test(output) ? printedLines(output).filter((line) => USAGE_LINE.test(line)).slice(0, 1) : [];
  return signatures.length > 0 ? [...signatures, ...usage] : complaint(output);
}
