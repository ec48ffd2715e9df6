/**
 * Real errors in command output or pasted text, as one-line signatures: compiler diagnostics
 * (`file:line:col`, `error TS2322`, `error[E0308]`), failing tests (pytest `FAILED`, go `--- FAIL:`,
 * jest `✕`), the final line of a Python traceback, `ERROR:` lines, Claude Code's `<tool_use_error>`,
 * `make: ***`, `npm ERR!`, panics and shell failures. Prose that merely mentions an error is not one.
 * What the summarizers keep and the verbatim guard reads; the eval counts errors with its own detectors (eval/detectors/).
 */
import { withoutAnsi } from "./ansi.js";
import { reportedExit } from "./exitStatus.js";

/** Longest signature kept, in characters (longer lines are cut with "…"). */
export const MAX_SIGNATURE_CHARS = 200;
/** Distinct signatures taken from one text (a compiler run can print hundreds of the same kind). */
export const MAX_SIGNATURES_PER_TEXT = 6;

/** Line patterns of a real error, tried on each trimmed line. */
const ERROR_LINE_PATTERNS: readonly RegExp[] = [
  // Go, gcc/clang, tsc --pretty=false, eslint-unix: path:line:col[:] message (not a warning or note).
  /^[\w@~./\\-]+\.[A-Za-z][\w]{0,9}:\d+:\d+:?\s+(?!warning\b|note\b|info\b|hint\b)\S/i,
  // tsc: path(line,col): error TS2322: …
  /^[\w@~./\\-]+\.[A-Za-z][\w]{0,9}\(\d+,\d+\):\s+error\b/,
  /\berror TS\d{3,5}\b/,
  // rustc/cargo/git/clang: "error: …", "error[E0308]: …".
  /^error(?:\[E\d{3,5}\])?:\s*\S/,
  // pytest: FAILED tests/x.py::test_y; ERROR collecting / ERROR tests/x.py
  /^(?:FAILED|ERROR)\s+\S+(?:::|\.py\b)/,
  // pytest's assertion detail: "E       assert 422 == 201", "E   AssertionError: expected 201"
  /^E {2,}\S/,
  // go test: --- FAIL: TestX (0.00s) / FAIL pkg 0.01s
  /^--- FAIL:\s*\S/,
  // go test: t.Errorf lines (path_test.go:88: got 3, want 1)
  /^[\w./-]+_test\.go:\d+: \S/,
  /^FAIL\s+\S/,
  // jest / vitest: ✕ name, × name, ● Suite › test
  /^[✕✗×]\s+\S/,
  /^●\s+.+›/,
  // Exceptions: ValueError: …, TypeError: …, java.lang.NullPointerException: …, Error: …
  /^(?:Uncaught\s+)?(?:[A-Za-z_][\w$]*\.)*(?:[A-Z][\w$]*)?(?:Error|Exception)(?::\s*\S|$)/,
  /(?:^|[\s[(])ERROR(?:\]|:)/,
  /^make(?:\[\d+\])?: \*\*\* /,
  /^npm (?:ERR!|error) /,
  /^(?:fatal|panic): \S/,
  /^thread '.*' panicked at\b/,
  /\bSegmentation fault\b|\bcore dumped\b/,
  /^(?:\(eval\)|[\w./-]+)(?::\d+)?: (?:command not found: \S|\S+: command not found\b)/,
  /^(?:\S+: )?(?:cannot access|can't open|cannot open) .*No such file or directory/,
  // a shell or a tool naming what it could not find: "/bin/bash: line 1: x: No such file or directory", "ls: a.go: No such file or directory"
  /^(?:\/[\w/]*\/)?[\w.-]+: (?:line \d+: )?.*: (?:No such file or directory|Permission denied)$/,
  // Python's OSError as tools print it: "Ran into [Errno 2] No such file or directory: '/workspace/x.py'"
  /\[Errno \d+\] \S/,
  // a step that says it failed, and why: "apply_patch verification failed: …", "Search failed: bubbletea: …"
  /^[A-Za-z][\w -]{0,40} failed: \S/,
  // SWE-agent's linter refusing an edit
  /^Your proposed edit has introduced new syntax error/,
  // the flake8 findings listed under it ("- E999 IndentationError: unexpected indent", "- F821 undefined name 'x'")
  /^- [EF]\d{3} \S/,
  // javac, gcc without a column: "Foo.java:12: error: cannot find symbol", "x.c:3: fatal error: y.h: No such file"
  /^[\w@~./\\-]+\.[A-Za-z]\w{0,9}:\d+: (?:fatal )?error:\s*\S/,
  /^(?:\S+: )?fatal error: \S/,
  // the JVM: an uncaught exception and its cause; Maven's test summary; Gradle and Ant
  /^Exception in thread "[^"]*" \S/,
  /^Caused by: [\w.$]+(?:Error|Exception)\b/,
  /^Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9])/,
  /^(?:BUILD FAILED\b|FAILURE: Build failed\b)/,
  // MSVC and C#: "error C2065: …", "error CS0103: …", "error LNK2019: …"
  /\berror (?:CS|C|LNK)\d{4}:/,
  // linkers
  /\bundefined reference to [`'"]/,
  // Python's unittest summary; Node's coded errors; a bundler that cannot resolve a module
  /^FAILED \((?:failures|errors)=\d+/,
  /^(?:[A-Z]\w*)?Error \[[A-Z][A-Z_]+\]: \S/,
  /^Module not found: \S/,
];

/** Words, in the cases {@link ERROR_LINE_PATTERNS} accept them, of which every error line holds one. */
const ERROR_WORD_HINT = /rror|RROR|Exception|FAIL|make|npm|fatal|panic|Segmentation|core dumped|command not found|o such file|ermission denied|failed: |Errno |Failures: [1-9]|undefined reference|Module not found|- [EF]\d{3} |(?<![^\n])E {2}/;
/** Positions (`file:12:5`, `(12,5)`, `x_test.go:88`), of which an error line without a hint word holds one. */
const ERROR_PLACE_HINT = /\d:\d|\(\d+,\d+\)|\.go:\d/;
/** The test runners' failure marks (`×` is apart: it alone fits in one-byte strings, which a search for the rest skips). */
const ERROR_MARK_HINT = /[✕✗●]/;

/**
 * True when `text` holds something every line matching one of {@link ERROR_LINE_PATTERNS} contains (a
 * superset, a few native scans): text without it has no error line, so most outputs are never split into
 * lines or tried pattern by pattern. Three simple searches run about twice as fast as one
 * case-insensitive alternation of them all.
 */
export function hasErrorHint(text: string): boolean {
  return ERROR_WORD_HINT.test(text) || ERROR_PLACE_HINT.test(text) || ERROR_MARK_HINT.test(text) || text.includes("×");
}

/** The hints of {@link hasErrorHint} as global searches (none matches across a line break). */
const HINT_SEARCHES: readonly RegExp[] = [ERROR_WORD_HINT, ERROR_PLACE_HINT, ERROR_MARK_HINT].map((hint) => new RegExp(hint.source, "g"));

/**
 * The lines of `text` (split at "\n") for which {@link hasErrorHint} holds, in order: each hint is
 * searched through the whole text once, skipping to the next line after a hit, so lines without a
 * hint are never cut out or tested one by one.
 */
export function hintedLines(text: string): string[] {
  const starts: number[] = [];
  const lineOf = (at: number): number => {
    starts.push(text.lastIndexOf("\n", at - 1) + 1);
    const end = text.indexOf("\n", at);
    return end === -1 ? text.length : end + 1;
  };
  for (const search of HINT_SEARCHES) {
    search.lastIndex = 0;
    for (let match = search.exec(text); match !== null; match = search.exec(text)) search.lastIndex = lineOf(match.index);
  }
  for (let at = text.indexOf("×"); at !== -1; at = text.indexOf("×", lineOf(at)));
  if (starts.length === 0) return [];
  starts.sort((a, b) => a - b);
  const lines: string[] = [];
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    if (k > 0 && start === starts[k - 1]) continue;
    const end = text.indexOf("\n", start);
    lines.push(text.slice(start, end === -1 ? text.length : end));
  }
  return lines;
}

/** Lines that look like errors but report success or are headers of a listing. */
const NOT_AN_ERROR = /^(?:0 errors?\b|no errors?\b|FAIL(?:ED)?:?\s*0\b)|\b0 failed\b/i;

/** Collapses whitespace and cuts to {@link MAX_SIGNATURE_CHARS}. */
function signatureOf(line: string): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_SIGNATURE_CHARS ? flat : `${flat.slice(0, MAX_SIGNATURE_CHARS - 1).trimEnd()}…`;
}

/** True when the trimmed `line` reports a real error by itself. */
export function isErrorLine(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed === "" || NOT_AN_ERROR.test(trimmed)) return false;
  return ERROR_LINE_PATTERNS.some((pattern) => pattern.test(trimmed));
}

/** The text inside each `<tool_use_error>…</tool_use_error>` (Claude Code's refused tool calls). */
function toolUseErrors(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/<tool_use_error>([\s\S]*?)(?:<\/tool_use_error>|$)/g)) {
    const first = (match[1] ?? "").trim().split("\n")[0] ?? "";
    if (first.trim() !== "") out.push(first);
  }
  return out;
}

/**
 * The final line of each Python traceback in `lines`: the first unindented line after
 * "Traceback (most recent call last):" and its indented frames (`ValueError: bad value`).
 */
function tracebackFinals(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.includes("Traceback (most recent call last)")) continue;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === "" || /^\s/.test(line)) continue;
      if (/^(?:During handling|The above exception)/.test(line)) break;
      out.push(line);
      i = j;
      break;
    }
  }
  return out;
}

/** A line that only heads an error, its message on the next line (OpenHands' file editor: "ERROR:\nInvalid `path` parameter: …"). */
const BARE_ERROR_HEADER = /^[ \t]*(ERROR|Error):?[ \t]*\r?\n\s*(\S[^\n]*)/gm;

/** Each bare error header of `text` joined to the message under it ("ERROR: Invalid `path` parameter: …"). */
function headedErrors(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(BARE_ERROR_HEADER)) out.push(`${match[1]}: ${match[2]!.trim()}`);
  return out;
}

/** True for a line that is only an error header ("ERROR:", "Error"), whose message is the next line. */
function isBareHeader(line: string): boolean {
  return /^\s*(?:ERROR|Error):?\s*$/.test(line);
}

/**
 * The error signatures of `text` in order of appearance, one line each, whitespace collapsed, at most
 * {@link MAX_SIGNATURES_PER_TEXT} distinct ones (terminal colours left out): `<tool_use_error>` texts, bare error headers with the
 * message under them, traceback final lines, then every line matching a real-error pattern.
 */
export function errorSignatures(raw: string, max = MAX_SIGNATURES_PER_TEXT): string[] {
  if (raw === "") return [];
  const text = withoutAnsi(raw);
  const found = text.includes("<tool_use_error>") ? toolUseErrors(text) : [];
  if (text.includes("ERROR") || text.includes("Error")) found.push(...headedErrors(text));
  if (text.includes("Traceback (most recent call last)")) found.push(...tracebackFinals(text.split("\n")));
  for (const line of hintedLines(text)) if (!line.includes("tool_use_error>") && !isBareHeader(line) && isErrorLine(line)) found.push(line);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of found) {
    const signature = signatureOf(line);
    if (signature === "" || seen.has(signature)) continue;
    seen.add(signature);
    out.push(signature);
    if (out.length >= max) break;
  }
  return out;
}

/** A shell's own prefix on the lines it complains on ("/bin/bash: line 1: …", "(eval):3: …", "zsh: …"). */
const SHELL_PREFIX = /^(?:\/[\w/]*\/)?(?:bash|sh|zsh|dash)(?::| line \d+:)|^\(eval\):/;

/**
 * The error signatures of a command whose output is content (`cat`, `head`, `grep`, …): only the lines
 * where the program or the shell complains in its own name (`head: cannot open 'x' for reading: No such
 * file or directory`, `/bin/bash: line 1: x: No such file or directory`); the content it printed is not
 * read for errors. `program` is the command's first word.
 */
export function ownErrorSignatures(output: string, program: string): string[] {
  const own = `${program}: `;
  if (!output.includes(own) && !/bash|sh:|\(eval\)/.test(output)) return [];
  const lines = output.split("\n").filter((line) => (line.startsWith(own) || SHELL_PREFIX.test(line)) && isErrorLine(line));
  return lines.length === 0 ? [] : errorSignatures(lines.join("\n"));
}

/** The errors one tool result reports. */
export interface ToolResultErrors {
  /** Its error signatures; for a result flagged `is_error` without any, its first line. */
  signatures: string[];
  /** Its non-zero exit status, when it shows one and no signature explains it. */
  failedExit?: number;
}

/**
 * The errors of a tool result (`output`, whether the result was `flagged` with `is_error`): its error
 * signatures; else a non-zero exit; else, when flagged, its first line. A result that reports exit
 * status 0 (and is not flagged) succeeded: its error-looking lines are not errors, except an exception
 * printed with its stack trace (see {@link stackTracedErrors}). Outputs of calls that read content (see
 * readsContent) should not be passed here.
 */
export function toolResultErrors(output: string, flagged: boolean): ToolResultErrors {
  const exit = reportedExit(output);
  if (exit === 0 && !flagged) return { signatures: stackTracedErrors(output) };
  const signatures = errorSignatures(output);
  if (signatures.length > 0) return { signatures };
  if (exit !== undefined && exit !== 0) return { signatures: [], failedExit: exit };
  if (!flagged) return { signatures: [] };
  const first = output.split("\n").find((line) => line.trim() !== "");
  return { signatures: first === undefined ? [] : [signatureOf(first)] };
}

/** A stack frame line, JavaScript's and the JVM's: "    at f (file.js:3:9)", "\tat com.acme.Pool.get(Pool.java:41)". */
const STACK_FRAME = /^\s+at [\w$.<[]/;

/**
 * The errors a program printed with their stack trace although it exited 0 (a script that catches an
 * exception and logs it, a reproduction that shows the bug): exception lines right above a stack frame
 * ("Error: …" then "    at f (file.js:3:9)"), and Python tracebacks' final lines. What else an output
 * that reports success prints is not an error. Only outputs naming an error or exception and holding a
 * frame or a traceback are split (most successful outputs are passed over by two native searches).
 */
export function stackTracedErrors(output: string): string[] {
  if (!output.includes("rror") && !output.includes("xception")) return [];
  const traceback = output.includes("Traceback (most recent call last)");
  if (!traceback && !output.includes("    at ") && !output.includes("\tat ")) return [];
  const lines = output.split("\n");
  const found = traceback ? tracebackFinals(lines) : [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (STACK_FRAME.test(lines[i + 1]!) && !STACK_FRAME.test(lines[i]!) && isErrorLine(lines[i]!)) found.push(lines[i]!);
  }
  return found.length === 0 ? [] : errorSignatures(found.join("\n"));
}

/**
 * True when a call that reads content failed outright: flagged `is_error`, a non-zero exit reported, or
 * the tool answering with an error instead of content (its first line an error header: "ERROR:",
 * "Error: …"). The output of such a read is its failure, not content.
 */
export function failedRead(output: string, flagged: boolean): boolean {
  if (flagged) return true;
  const exit = reportedExit(output);
  if (exit !== undefined) return exit !== 0;
  const first = output.trimStart().slice(0, 200).split("\n", 1)[0]!;
  return /^(?:ERROR|Error)(?::.*)?$/.test(first.trimEnd());
}
