/**
 * The descriptor pruning leaves in place of a cleared tool output, e.g.
 * "[terminal] ran `pytest` -> exit 1, 40 lines output": which tool, its key argument, and what came back;
 * the evidence of a failure follows on its own lines (clearedEvidence.ts), so the summary can still name it.
 */
import { visibleExitCode } from "../facts/exitStatus.js";
import { parseToolArguments, toolCallTarget } from "../facts/toolCallTargets.js";

/** Argument names that identify what a tool call did, in order of preference. */
export const KEY_ARGUMENT_NAMES = ["command", "cmd", "path", "file_path", "filename", "query", "url"] as const;

const MAX_ARGUMENT_CHARS = 80;
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
