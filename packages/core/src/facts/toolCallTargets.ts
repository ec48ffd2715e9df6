/**
 * What a tool call works on: the files named in its arguments (with what it does to them) and the shell
 * command it runs. Reads JSON arguments (`path`, `file_path`, `command`, …, editor sub-commands such as
 * `str_replace_editor`'s `view`) and SpecStory's `{"input": "…"}` text (backticked commands and paths,
 * `**Update: \`path\`**` patch headers, `- key: \`value\`` lists). Pure.
 */
import { findPaths } from "./paths.js";

/** Argument keys that name the file a tool works on. */
const PATH_KEYS = ["path", "file_path", "filepath", "filename", "file", "target_file", "notebook_path"] as const;
const PATH_LIST_KEYS = ["paths", "files", "file_paths"] as const;
const COMMAND_KEYS = ["command", "cmd", "script"] as const;
/** Editor sub-commands that arrive in a `command` argument next to a `path`. */
const EDITOR_COMMANDS: Readonly<Record<string, string>> = { view: "read", create: "created", str_replace: "edited", insert: "edited", undo_edit: "edited", write: "written" };
/** Tool names whose free-text input is a shell command. */
const COMMAND_TOOL = /bash|shell|exec|terminal|run_?command|command|powershell|cmd\b/i;
/** Patch headers of SpecStory's apply_patch input: `**Update: \`path\`**`. */
const PATCH_HEADER = /\*\*(Add|Update|Delete|Move(?: to)?):\s*`([^`\n]+)`\*\*/g;
const PATCH_ACTION: Readonly<Record<string, string>> = { Add: "created", Update: "edited", Delete: "deleted", Move: "edited", "Move to": "created" };
/** Interpreters whose `-c`/`-lc` argument is the real command (`["bash", "-lc", "ls"]`). */
const SHELL_WRAPPER = /^(?:ba|z|da|fi)?sh$|^pwsh$|^powershell$/;

/** What one tool call works on. */
export interface ToolCallTarget {
  /** Files named in the arguments. */
  paths: string[];
  /** What the call does to `paths`: read, edited, created, written, deleted, or "used by <tool>". */
  action: string;
  /** The shell command it runs (only when it names no file). */
  command?: string;
}

type Args = Record<string, unknown>;

/** The last arguments parsed and what they parsed to: describing one call reads its arguments up to three times. */
let lastParsed: { raw: string; args: Readonly<Args> | undefined } = { raw: "", args: undefined };

/**
 * A tool call's JSON arguments as an object (undefined when they are not a JSON object), remembered for
 * the last text asked about. The object is shared: read it, never change it.
 */
export function parseToolArguments(raw: string): Readonly<Args> | undefined {
  if (raw === lastParsed.raw) return lastParsed.args;
  let args: Args | undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    args = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Args) : undefined;
  } catch {
    args = undefined;
  }
  lastParsed = { raw, args };
  return args;
}

function stringArg(args: Args | undefined, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args?.[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/** A command given as an argv array: `["bash", "-lc", "ls -la"]` → "ls -la", else the words joined. */
function commandOfArray(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string")) return undefined;
  const words = value as string[];
  if (words.length >= 3 && SHELL_WRAPPER.test(words[0]!.split("/").pop() ?? "") && /^-\w*c$/.test(words[1]!)) return words.slice(2).join(" ").trim();
  return words.join(" ").trim();
}

function commandArg(args: Args | undefined): string | undefined {
  const text = stringArg(args, COMMAND_KEYS);
  if (text) return text;
  for (const key of COMMAND_KEYS) {
    const joined = commandOfArray(args?.[key]);
    if (joined) return joined;
  }
  return undefined;
}

function pathArgs(args: Args | undefined): string[] {
  const paths: string[] = [];
  const single = stringArg(args, PATH_KEYS);
  if (single) paths.push(single);
  for (const key of PATH_LIST_KEYS) {
    const value = args?.[key];
    if (Array.isArray(value)) paths.push(...value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim()));
  }
  return [...new Set(paths)];
}

/** read / edited / created / written / deleted, from an editor sub-command or the tool name. */
function fileAction(toolName: string, args: Args | undefined): string {
  const sub = stringArg(args, ["command", "mode", "action"]);
  if (sub && EDITOR_COMMANDS[sub]) return EDITOR_COMMANDS[sub]!;
  const name = toolName.toLowerCase();
  if (/create|new_file|mkfile/.test(name)) return "created";
  if (/edit|replace|patch|apply|modify|update|insert/.test(name)) return "edited";
  if (/write|save/.test(name)) return "written";
  if (/read|view|cat|open|show|get|load/.test(name)) return "read";
  if (/delete|remove|rm\b/.test(name)) return "deleted";
  return `used by ${toolName}`;
}

/** SpecStory's `**Input:**` block: `- key: \`value\`` lines as arguments. */
function inputList(text: string): Args | undefined {
  const args: Args = {};
  for (const match of text.matchAll(/^- ([\w.-]+): `([^`\n]*)`\s*$/gm)) args[match[1]!] = match[2]!;
  return Object.keys(args).length > 0 ? args : undefined;
}

/** Inline code spans outside fenced blocks, in order. */
function inlineSpans(text: string): string[] {
  const withoutFences = text.replace(/```[\s\S]*?(?:```|$)/g, " ");
  return [...withoutFences.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim()).filter((s) => s !== "");
}

/**
 * The last code in `text`: a fenced block's body or an inline span; a span left open at the end (its
 * argument was truncated) counts up to the end.
 */
function lastCode(text: string): string | undefined {
  let last: { at: number; code: string } | undefined;
  for (const match of text.matchAll(/```[^\n]*\n([\s\S]*?)(?:```|$)/g)) last = { at: match.index ?? 0, code: match[1]!.trim() };
  const withoutFences = text.replace(/```[\s\S]*?(?:```|$)/g, (block) => " ".repeat(block.length));
  for (const match of withoutFences.matchAll(/`([^`\n]+)(?:`|$)/g)) if (!last || (match.index ?? 0) > last.at) last = { at: match.index ?? 0, code: match[1]!.trim() };
  return last?.code || undefined;
}

/** A fenced block marked as a shell script, its body in group 1 (up to its closing fence on a line of its own, or the end). */
const SHELL_FENCE = /^```(?:bash|sh|shell|zsh|console)[ \t]*\n([\s\S]*?)(?:\n```[ \t]*(?=\n|(?![\s\S]))|(?![\s\S]))/m;

/** A SpecStory `input` text read as well as it can be. */
function targetOfInput(name: string, input: string): ToolCallTarget {
  const listed = inputList(input);
  if (listed) return targetOfArgs(name, listed);
  const patched = [...input.matchAll(PATCH_HEADER)];
  if (patched.length > 0) {
    return { paths: [...new Set(patched.map((m) => m[2]!.trim()))], action: PATCH_ACTION[patched[0]![1]!] ?? "edited" };
  }
  if (COMMAND_TOOL.test(name)) {
    // SpecStory's Codex `exec_command`: the command on the first line in backticks, then its output fenced
    // (whose own fences, or a cut, would otherwise pass for the last code)
    // Claude Code's Bash: a description line, then the script in a shell fence (which may itself hold
    // backticks and escaped fences, so the last code would be a span inside it)
    const command = /^`([^`\n]+)`[ \t]*(?:\n|$)/.exec(input)?.[1]?.trim() || SHELL_FENCE.exec(input)?.[1]?.trim() || lastCode(input);
    return command ? { paths: [], action: `used by ${name}`, command } : { paths: [], action: `used by ${name}` };
  }
  const action = fileAction(name, undefined);
  if (action.startsWith("used by") || /glob|grep|search|find/i.test(name)) return { paths: [], action };
  const paths = inlineSpans(input).filter((span) => !/\s/.test(span) && findPaths(span).length > 0);
  return { paths: [...new Set(paths)], action };
}

function targetOfArgs(name: string, args: Args | undefined): ToolCallTarget {
  const paths = pathArgs(args);
  if (paths.length > 0) return { paths, action: fileAction(name, args) };
  const command = commandArg(args);
  if (command && !EDITOR_COMMANDS[command]) return { paths: [], action: `used by ${name}`, command };
  return { paths: [], action: fileAction(name, args) };
}

/** The last call read by {@link toolCallTarget} and its target (describing a pruned output reads its call twice). */
let lastTarget: { name: string; argumentsJson: string; target: ToolCallTarget } | undefined;

/** The files and command of a tool call named `name` with JSON `argumentsJson` (anything unparsable names nothing). */
export function toolCallTarget(name: string, argumentsJson: string): ToolCallTarget {
  // the last call's target is remembered; callers get their own copy, free to change
  if (lastTarget === undefined || lastTarget.name !== name || lastTarget.argumentsJson !== argumentsJson) {
    const args = parseToolArguments(argumentsJson);
    const keys = args ? Object.keys(args) : [];
    const target = args && keys.length === 1 && typeof args.input === "string" ? targetOfInput(name, args.input) : targetOfArgs(name, args);
    lastTarget = { name, argumentsJson, target };
  }
  return { ...lastTarget.target, paths: [...lastTarget.target.paths] };
}

/** Tool names whose output is file content, a listing or a web page. */
const READING_TOOL = /read|view|cat|open|show|grep|glob|search|find|list|ls\b|fetch|web|browse/i;

/**
 * True when the output of the call `name(argumentsJson)` is content rather than the result of running
 * something: a file read, a search, a listing, a web page, or a command such as `cat` or `grep`.
 * Error-looking lines in such output are content, not errors.
 */
export function readsContent(name: string, argumentsJson: string): boolean {
  const target = toolCallTarget(name, argumentsJson);
  if (target.command !== undefined) return isReadingCommand(target.command);
  return target.action === "read" || READING_TOOL.test(name);
}

/** Commands whose output is file content or a listing, not the result of running something. */
const READING_COMMAND = /^(?:sudo\s+)?(?:cat|head|tail|less|more|bat|nl|sed\s+-n|awk|grep|egrep|rg|ag|ack|find|fd|ls|tree|wc|jq|yq|file|stat|git\s+(?:diff|show|log|blame|grep|status)|gh\s+(?:pr|issue)\s+view|curl|wget)\b/;

/** True when `command` prints files or listings (`cat`, `grep`, `sed -n`, `git diff`, …): error-looking lines in its output are content. */
export function isReadingCommand(command: string): boolean {
  const first = command.trim().replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, "");
  return READING_COMMAND.test(first);
}
