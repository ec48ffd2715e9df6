/**
 * What a tool call did, read off its name and arguments as the corpus transcripts record them: the shell
 * script it ran (a `command`/`cmd` argument, or SpecStory's `input` text with the script in backticks or a
 * fenced block after a description line), the files it named (`file_path`, `path`, `filename`, …, or a
 * SpecStory `input` that is one backticked path), and whether its output is file content (a read, a view,
 * `cat`/`sed -n`/`nl`/`head`/`grep` …), whose lines are not errors. The eval's own reading: it shares no
 * code with the summarizers. Pure.
 */

/** What one tool call did. */
export interface CallReading {
  /** The shell script it ran, when it ran one. */
  script?: string;
  /** Files and folders it named. */
  paths: string[];
  /** True when its output is file or search content rather than the result of an action. */
  showsContent: boolean;
}

/** Tool names that run a shell script (Claude Code, Codex CLI, OpenHands, SWE-agent function calling). */
const SHELL_TOOLS = /^(bash|shell|exec_command|execute_bash|terminal|run_command|run_shell_command|local_shell|execute_command)$/i;
/** Tool names whose output is file or search content. */
const CONTENT_TOOLS = /^(read|read_file|view|open|ls|glob|grep|search|search_file|search_dir|find_file|notebookread|webfetch|websearch)$/i;
/** Argument names that hold a path. */
const PATH_KEYS = ["file_path", "path", "filename", "notebook_path", "file", "dir", "directory"];
/** Shell programs whose output is file or search content. */
const CONTENT_PROGRAMS = /^(cat|sed|nl|head|tail|less|more|grep|rg|ag|find|ls|tree|wc|diff|git (show|diff|log|grep|blame)|jq)\b/;

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: raw };
  } catch {
    return { input: raw };
  }
}

/**
 * The code of a SpecStory `input`: a backticked span on its first line (Codex CLI's `exec_command`
 * writes its command there and may follow it with its output in a fence), else the body of its first
 * fenced block (Claude Code's description line, then the script), else its first backticked span.
 */
export function codeOfInput(input: string): string | undefined {
  const firstLine = /^\s*`([^`\n]+)`/.exec(input);
  if (firstLine) return firstLine[1]!;
  const fenced = /```[\w-]*\n([\s\S]*?)(?:\n```|$)/.exec(input);
  if (fenced) return fenced[1]!;
  const inline = /`([^`\n]+)`/.exec(input);
  return inline ? inline[1]! : undefined;
}

/** The first program of a script (after `cd …`/`sudo`/assignments), for telling reads from actions. */
function firstProgram(script: string): string {
  const segments = script.split(/\n|&&|;|\|\|/).map((s) => s.trim()).filter((s) => s !== "" && !/^(cd|export|set|#)\b/.test(s));
  return (segments[0] ?? "").replace(/^(sudo|env|time)\s+/, "").replace(/^(\w+=\S*\s+)+/, "");
}

/** Reads one tool call. */
export function readToolCall(name: string, rawArguments: string): CallReading {
  const args = parseArgs(rawArguments);
  const input = typeof args.input === "string" ? args.input : undefined;
  let script: string | undefined;
  if (SHELL_TOOLS.test(name)) {
    const command = args.command ?? args.cmd ?? args.script;
    if (typeof command === "string") script = command;
    else if (Array.isArray(command)) script = command.filter((part): part is string => typeof part === "string").join(" ").replace(/^(bash|sh|zsh) -l?c /, "");
    else if (input !== undefined) script = codeOfInput(input) ?? input;
  }
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "" && !value.includes("\n")) paths.push(value.trim());
  }
  if (script === undefined && input !== undefined) {
    // SpecStory: Read/Edit/Write/apply_patch name their file in backticks ("`./pkg/cmd/resume.go`", "**Update: `docs/x.md`**").
    const named = /^(?:\*\*\w+: )?`([^`\s]+)`/.exec(input.trim());
    if (named && /[/.]/.test(named[1]!)) paths.push(named[1]!);
  }
  const viewCommand = typeof args.command === "string" && /^view$/i.test(args.command);
  const showsContent = CONTENT_TOOLS.test(name) || viewCommand || (script !== undefined && CONTENT_PROGRAMS.test(firstProgram(script)));
  return { ...(script !== undefined ? { script } : {}), paths, showsContent };
}
