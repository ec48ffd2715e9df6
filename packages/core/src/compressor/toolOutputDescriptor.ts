/**
 * The descriptor pruning leaves in place of a cleared tool output, e.g.
 * "[terminal] ran `pytest` -> exit 1, 40 lines output": which tool, its key argument, and what came back;
 * the error signatures of the output follow on their own lines, so the summary can still name them.
 */
import { toolResultErrors } from "../facts/errorSignatures.js";
import { visibleExitCode } from "../facts/exitStatus.js";
import { readsContent, toolCallTarget } from "../facts/toolCallTargets.js";

/** Argument names that identify what a tool call did, in order of preference. */
export const KEY_ARGUMENT_NAMES = ["command", "cmd", "path", "file_path", "filename", "query", "url"] as const;

const MAX_ARGUMENT_CHARS = 80;
/** Characters of each error line a cleared output keeps. */
const KEPT_ERROR_LINE_CHARS = 120;
/** The key argument of a call (`command`, `path`, …) from its JSON arguments, as one short line. */
export function keyArgument(argumentsJson: string | undefined): { name: string; value: string } | undefined {
  if (argumentsJson === undefined || argumentsJson === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
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
 * that read content (a file, a search, `cat`), whose error-looking lines are content.
 */
export function keptErrorLines(toolName: string | undefined, argumentsJson: string | undefined, output: string, flagged: boolean): string[] {
  const { signatures } = toolResultErrors(output, flagged);
  // most outputs have none: the call's arguments are read only when there is something to keep
  if (signatures.length === 0 || (toolName !== undefined && readsContent(toolName, argumentsJson ?? ""))) return [];
  return signatures.map((line) => oneLine(line, KEPT_ERROR_LINE_CHARS));
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
 * The descriptor of a cleared output: `[tool] ran \`cmd\` -> exit 1, 40 lines output` for commands,
 * `[tool] path/or/query -> 80 lines output (3.0 KB)` otherwise.
 */
export function describeToolOutput(toolName: string | undefined, argumentsJson: string | undefined, output: string, outputChars = output.length): string {
  const name = oneLine(toolName ?? "tool", 40) || "tool";
  const key = keyArgument(argumentsJson) ?? targetArgument(name, argumentsJson);
  let action = "";
  if (key) action = key.name === "command" || key.name === "cmd" ? ` ran \`${key.value}\`` : ` \`${key.value}\``;
  const exit = visibleExitCode(output);
  const lines = countLines(output);
  const amount = lines > 1 ? `${lines} lines output` : `${formatSize(outputChars)} output`;
  const outcome = exit !== undefined ? `exit ${exit}, ${amount}` : lines > 1 ? `${amount} (${formatSize(outputChars)})` : amount;
  return `[${name}]${action} -> ${outcome}`;
}
