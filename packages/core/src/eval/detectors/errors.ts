/**
 * Real errors in what a command printed or a user pasted, line by line, as they appear in the corpus:
 * Python tracebacks (their final `XxxError: …` line), `error: …`/`Error: …`/`ERROR: …`/`fatal: …`/`panic: …`
 * lines, compiler diagnostics `file.go:12:3: …` and `error[E0308]`, test failures (`FAILED …`, `--- FAIL: …`,
 * `E   AssertionError`), `command not found` and `No such file or directory`, Claude Code's
 * `<tool_use_error>`, SWE-agent's "introduced new syntax error(s)" and Codex CLI's "apply_patch verification
 * failed"; and the non-zero exit a runner reports (`Exit code 1`, `Process exited with code 2`,
 * `[Command finished with exit code 1]`, `///PROCESS-DONE:1:PROCESS-DONE///`, mini-swe-agent's
 * `<returncode>1</returncode>`). The eval's own reading:
 * it shares no code with the summarizers. Pure.
 */

/** Longest error text kept, in characters. */
export const ERROR_CHARS = 100;
/** Most errors taken from one output (a test run can print hundreds). */
export const MAX_ERRORS_PER_TEXT = 6;

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Lines that are an error by themselves. */
const ERROR_LINE: RegExp[] = [
  /^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)(?::\s.*|$)/, // Python, JS: ValueError: x, TypeError: y
  /^E\s{2,}\S.*/, // pytest assertion detail
  /^error(?:\[\w+\])?:\s*\S.*/i, // rustc, git, npm, go tool, generic "Error: …"
  /^(?:fatal|panic|FATAL|Fatal error):\s*\S.*/,
  /^npm ERR! .*\S/,
  /^FAILED\s+\S.*/, // pytest summary
  /^--- FAIL: \S.*/, // go test
  /^FAIL\s+\S+/, // go test package
  /^CMake Error\b.*/,
  /^\.{0,2}\/?[\w@./-]+\.[A-Za-z]{1,5}:\d+(?::\d+)?:\s*(?:error|undefined|cannot|syntax error|expected|unexpected)\b.*/i, // compilers, type checkers
  /^[\w@./-]+\.[A-Za-z]{1,5}\(\d+,\d+\): error .*/, // tsc
  /^SyntaxError\b.*/,
  /^.*: command not found$/,
  /^.*\bNo such file or directory\b.*/,
  /^.*\bPermission denied\b.*/,
  /^Ran into \[Errno \d+\].*/, // OpenHands file editor
  /^Your proposed edit has introduced new syntax error.*/, // SWE-agent
  /^apply_patch verification failed.*/, // Codex CLI
  /^.*\bTool execution failed\b.*/,
];

/** Lines that are not an error even when they look like one. */
const NOT_ERROR = /^(?:error: 0\b|errors?: none\b|0 errors?\b|Error: Process completed with exit code 0)/i;

function clip(line: string): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_CHARS ? flat.slice(0, ERROR_CHARS).trimEnd() : flat;
}

/** The error lines of `text`, each once, at most {@link MAX_ERRORS_PER_TEXT}. */
export function errorLines(text: string): string[] {
  const found: string[] = [];
  const add = (line: string): void => {
    const clipped = clip(line);
    if (clipped.length >= 6 && !found.includes(clipped) && found.length < MAX_ERRORS_PER_TEXT) found.push(clipped);
  };
  const clean = text.replace(ANSI, "");
  for (const match of clean.matchAll(/<tool_use_error>([\s\S]*?)<\/tool_use_error>/g)) add(match[1]!.split("\n")[0]!);
  const lines = clean.split("\n").map((l) => l.replace(/^\s*\d+[\t→|]\s?/, "").trimEnd());
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || NOT_ERROR.test(line) || /^<\/?tool_use_error>/.test(line)) return;
    if (/^(?:ERROR|Error):?$/.test(line)) {
      const next = lines.slice(index + 1).find((l) => l.trim() !== "");
      if (next !== undefined) add(next);
      return;
    }
    if (ERROR_LINE.some((pattern) => pattern.test(line))) add(line);
  });
  return found;
}

/** Exit reports of the runners in the corpus, the code in group 1. */
const EXIT_REPORTS: RegExp[] = [
  /^Exit code:? (-?\d+)\s*$/m, // Claude Code
  /^Process exited with code (-?\d+)/m, // Codex CLI
  /\[(?:The command completed|Command finished) with exit code (-?\d+)\.?\]/, // OpenHands
  /\/\/\/PROCESS-DONE:(-?\d+):PROCESS-DONE\/\/\//, // SWE-agent
  /Process completed with exit code (-?\d+)/, // GitHub Actions logs
  /^<returncode>(-?\d+)<\/returncode>/m, // mini-swe-agent's observation template
];

/** The non-zero exit code a runner reported in `text`, or undefined. */
export function failedExit(text: string): number | undefined {
  for (const pattern of EXIT_REPORTS) {
    const match = pattern.exec(text);
    if (match) {
      const code = Number(match[1]);
      return code === 0 ? undefined : code;
    }
  }
  return undefined;
}
