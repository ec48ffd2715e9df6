/**
 * The descriptor pruning leaves in place of a cleared tool output, e.g.
 * "[terminal] ran `pytest` -> exit 1, 40 lines output": which tool, its key argument, and what came back;
 * the error signatures of the output follow on their own lines, so the summary can still name them.
 */
import { failedRead, stackTracedErrors, toolResultErrors } from "../facts/errorSignatures.js";
import { reportedExit, visibleExitCode } from "../facts/exitStatus.js";
import { parseToolArguments, readsContent, toolCallTarget } from "../facts/toolCallTargets.js";

/** Argument names that identify what a tool call did, in order of preference. */
export const KEY_ARGUMENT_NAMES = ["command", "cmd", "path", "file_path", "filename", "query", "url"] as const;

const MAX_ARGUMENT_CHARS = 80;
/** Characters of each error line a cleared output keeps. */
const KEPT_ERROR_LINE_CHARS = 120;
/** The key argument of a call (`command`, `path`, …) from its JSON arguments, as one short line. */
export function keyArgument(argumentsJson: string | undefined): { name: string; value: string } | undefined {
  if (argumentsJson === undefined || argumentsJson === "") return undefined;
  const record = parseToolArguments(argumentsJson);
  if (record === undefined) return undefined;
  for (const name of KEY_ARGUMENT_NAMES) {
    const value = record[name];
    if (typeof value === "string" && value.trim() !== "") return { name, value: oneLine(value, MAX_ARGUMENT_CHARS) };
    if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0) {
      return { name, value: oneLine(value.join(" "), MAX_ARGUMENT_CHARS) };
    }
  }
  return undefined;
}

/** The command or first path of a call whose arguments name no key argument (SpecStory's `{"input": …}`). */
function targetArgument(name: string, argumentsJson: string | undefined): { name: string; value: string } | undefined {
  if (argumentsJson === undefined || argumentsJson === "") return undefined;
  const target = toolCallTarget(name, argumentsJson);
  if (target.command !== undefined) return { name: "command", value: oneLine(target.command, MAX_ARGUMENT_CHARS) };
  const path = target.paths[0];
  return path === undefined ? undefined : { name: "path", value: oneLine(path, MAX_ARGUMENT_CHARS) };
}

/**
 * The error lines a cleared output keeps below its descriptor: its error signatures (see
 * facts/errorSignatures.ts; for a result flagged `is_error` without any, its first line). None for calls
 * that read content (a file, a search, `cat`), whose error-looking lines are content, unless the read
 * itself failed.
 */
export function keptErrorLines(toolName: string | undefined, argumentsJson: string | undefined, output: string, flagged: boolean): string[] {
  // the call was just read to describe it (toolCallTarget remembers it), so asking whether it reads is cheap
  const reads = toolName !== undefined && readsContent(toolName, argumentsJson ?? "");
  // an output that reports success has none but what it printed with a stack trace (a read: none)
  if (!flagged && reportedExit(output) === 0) return reads ? [] : stackTracedErrors(output).map(keptLine);
  if (reads && !failedRead(output, flagged)) return [];
  const { signatures } = toolResultErrors(output, flagged);
  return signatures.map(keptLine);
}

/** Number of lines of `text` (a trailing newline does not start a new line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  let at = text.indexOf("\n");
  while (at !== -1) {
    if (at !== text.length - 1) lines++;
    at = text.indexOf("\n", at + 1);
  }
  return lines;
}

function formatSize(chars: number): string {
  return chars < 1_024 ? `${chars} chars` : `${(chars / 1_024).toFixed(1)} KB`;
}

/** Whitespace other than single inner spaces, or a backtick: the text needs flattening. */
const NEEDS_FLATTENING = /[^\S ]|`| {2}|^ | $/;

/** An error line as kept below a descriptor: on a line of its own, so written as it was (backticks too), cut to {@link KEPT_ERROR_LINE_CHARS}. */
function keptLine(line: string): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return flat.length <= KEPT_ERROR_LINE_CHARS ? flat : `${flat.slice(0, KEPT_ERROR_LINE_CHARS - 1)}…`;
}

function oneLine(text: string, max: number): string {
  if (text.length <= max && !NEEDS_FLATTENING.test(text)) return text;
  const flat = text.replace(/\s+/g, " ").trim().replace(/`/g, "'");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * What a call's `command` argument did: ` ran \`pytest\`` for a shell command; for a file tool whose
 * `command` is its sub-command (OpenHands' editor: `{"command": "view", "path": …}`), the sub-command and
 * the file: ` view \`src/a.ts\``.
 */
function commandAction(toolName: string, argumentsJson: string | undefined, command: string): string {
  const target = toolCallTarget(toolName, argumentsJson ?? "");
  const path = target.command === undefined ? target.paths[0] : undefined;
  return path === undefined ? ` ran \`${command}\`` : ` ${command} \`${oneLine(path, MAX_ARGUMENT_CHARS)}\``;
}

/**
 * The descriptor of a cleared output: `[tool] ran \`cmd\` -> exit 1, 40 lines output` for commands,
 * `[tool] path/or/query -> 80 lines output (3.0 KB)` otherwise.
 */
export function describeToolOutput(toolName: string | undefined, argumentsJson: string | undefined, output: string, outputChars = output.length): string {
  const name = oneLine(toolName ?? "tool", 40) || "tool";
  const key = keyArgument(argumentsJson) ?? targetArgument(name, argumentsJson);
  let action = "";
  if (key) action = key.name === "command" || key.name === "cmd" ? commandAction(name, argumentsJson, key.value) : ` \`${key.value}\``;
  const exit = visibleExitCode(output);
  const lines = countLines(output);
  const amount = lines > 1 ? `${lines} lines output` : `${formatSize(outputChars)} output`;
  const outcome = exit !== undefined ? `exit ${exit}, ${amount}` : lines > 1 ? `${amount} (${formatSize(outputChars)})` : amount;
  return `[${name}]${action} -> ${outcome}`;
}
