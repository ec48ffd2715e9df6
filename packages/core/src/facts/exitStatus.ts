/**
 * Exit statuses in command output, read two ways: {@link reportedExit}, strict (what the error facts
 * trust: "Exit code 1" on a line of its own, `"exit_code": 2`, "exited with code 127"), and
 * {@link visibleExitCode}, lenient (what a cleared output's descriptor shows: also "exit 1", "return
 * code 3"). Both look only at the ends of an output, and only from the first keyword on: a pattern is
 * run from a little before the first place a keyword every match contains occurs, so text without one
 * costs a native substring search and nothing else.
 */

/**
 * Patterns whose every match contains a hint: the first match of the first pattern that matches (in
 * order), looked for from `lookback` characters before the hint's first occurrence (every match
 * starts at most that far before its hint). Patterns carry the `g` flag so a search can start there.
 */
export interface HintedPatterns {
  hint: RegExp;
  lookback: number;
  patterns: readonly RegExp[];
}

/** The first capture of the first pattern of `set` that matches `text`, as a number; undefined when none does. */
export function hintedNumber(text: string, set: HintedPatterns): number | undefined {
  const at = text.search(set.hint);
  if (at === -1) return undefined;
  for (const pattern of set.patterns) {
    pattern.lastIndex = Math.max(0, at - set.lookback);
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

/** `output` itself when short, else its two ends of `chars` characters (`tailFirst` orders them). */
function ends(output: string, chars: number, tailFirst: boolean): string[] {
  if (output.length <= chars * 2) return [output];
  const head = output.slice(0, chars);
  const tail = output.slice(-chars);
  return tailFirst ? [tail, head] : [head, tail];
}

/** Characters at each end of an output searched by {@link reportedExit}. */
const REPORTED_SCAN_CHARS = 400;
/** The patterns of {@link reportedExit}. */
export const REPORTED_EXIT: HintedPatterns = {
  // "Exit code" … "exitCode" … "returncode" … "Command failed with" … "[The command completed with exit code": the hint sits at most 29 characters in
  hint: /xit|eturncode|failed with|PROCESS-DONE/,
  lookback: 30,
  patterns: [
    // SWE-agent's sentinel: "///PROCESS-DONE:1:PROCESS-DONE///"
    /\/\/\/PROCESS-DONE:(-?\d{1,3}):PROCESS-DONE\/\/\//g,
    // mini-swe-agent's observation: "<returncode>1</returncode>\n<output>…"
    /<returncode>\s*(-?\d{1,3})\s*<\/returncode>/g,
    // Claude Code "Exit code 1", Codex CLI "Exit code: 1", Gemini CLI "Exit Code: 1"
    /^(?:Exit [Cc]ode|exit code|Exit status|exit status)[: ]\s*(-?\d{1,3})\b/gm,
    // OpenHands' trailer: "[The command completed with exit code 1.]", "[Command finished with exit code 0]"
    /^\[(?:The command|Command) (?:completed|finished) with exit code (-?\d{1,3})\.?\]/gm,
    /["']?(?:exit_code|exitCode|returncode)["']?\s*[:=]\s*(-?\d{1,3})\b/g,
    /\b(?:Process|Command|command|process) (?:exited|failed|completed) with (?:exit )?(?:code|status) (-?\d{1,3})\b/g,
    /\bexited with (?:exit )?(?:code|status) (-?\d{1,3})\b/g,
  ],
};

/** The exit status an output reports ("Exit code 1" first or last, mini-swe-agent's `<returncode>1</returncode>`, `"exit_code": 2`, "exited with code 127", OpenHands' "[The command completed with exit code 1.]"), 0 included, or undefined. */
export function reportedExit(output: string): number | undefined {
  for (const text of ends(output, REPORTED_SCAN_CHARS, false)) {
    const code = hintedNumber(text, REPORTED_EXIT);
    if (code !== undefined) return code;
  }
  return undefined;
}

/** The non-zero exit status an output reports (see {@link reportedExit}), or undefined (none, or 0). */
export function nonZeroExit(output: string): number | undefined {
  const code = reportedExit(output);
  return code === 0 ? undefined : code;
}

/** Characters at each end of an output searched by {@link visibleExitCode}. */
const VISIBLE_SCAN_CHARS = 600;
/** The patterns of {@link visibleExitCode}. */
export const VISIBLE_EXIT: HintedPatterns = {
  hint: /exit|return|PROCESS-DONE/i,
  // a quote may open `"exit_code"`, three slashes SWE-agent's sentinel
  lookback: 3,
  patterns: [
    /\/\/\/PROCESS-DONE:(-?\d{1,3}):PROCESS-DONE\/\/\//g,
    /<returncode>\s*(-?\d{1,3})\s*<\/returncode>/g,
    /["']?(?:exit_code|exitCode|exit code|exit status|returncode|return code)["']?\s*[:=]?\s*(-?\d{1,3})\b/gi,
    /\bexit(?:ed)?(?: with)?(?: code| status)?\s*[:=]?\s*(-?\d{1,3})\b/gi,
  ],
};

/** The exit code an output shows ("exit code: 1", `"exit_code": 2`, "exited with 127", "exit 1"), if visible; its end is read first. */
export function visibleExitCode(output: string): number | undefined {
  for (const text of ends(output, VISIBLE_SCAN_CHARS, true)) {
    const code = hintedNumber(text, VISIBLE_EXIT);
    if (code !== undefined) return code;
  }
  return undefined;
}
