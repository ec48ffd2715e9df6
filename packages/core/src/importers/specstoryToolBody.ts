/**
 * The body of one SpecStory tool block split into its input and output (see `specstoryMarkdown.ts`
 * for the block shapes), and the fence tracking both files share. Two body layouts exist: a trailing
 * output fence (Claude Code, Codex CLI, Gemini CLI renderings) and labelled parts (`Parameters:`,
 * `Additional data:`, `Result:`, `Status: **…**`, written for VS Code Copilot).
 */

/** One tool call as rendered: the call's input text and, when the block shows one, its output. */
export interface SpecStoryToolBlock {
  kind: "tool";
  /** 1-based line of the block's first line. */
  line: number;
  name: string;
  /** SpecStory's `data-tool-type` (`shell`, `read`, `write`, …), when given. */
  toolType?: string;
  /** The summary's text after `Tool use: **name**`, then the body before the output. */
  input: string;
  /** The output fence's text; `undefined` when the block shows no output. */
  output?: string;
  /** The output came under an `**Error:**` label. */
  isError: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Tracks whether a line sequence is inside a fenced code block (CommonMark rules, simplified). Fences
 * with a shorter run than `minLength` are ignored, so a tracker with `minLength` 4 follows only the
 * long fences SpecStory wraps around output that itself contains fences.
 */
export class FenceTracker {
  private open: { char: string; length: number } | undefined;

  constructor(private readonly minLength = 3) {}

  get inside(): boolean {
    return this.open !== undefined;
  }

  /** Inside a fence of at least four backticks or tildes. */
  get insideLong(): boolean {
    return (this.open?.length ?? 0) >= 4;
  }

  reset(): void {
    this.open = undefined;
  }

  /** Feeds one line; returns `"open"`, `"close"` or `undefined`. */
  feed(line: string): "open" | "close" | undefined {
    const fence = parseFence(line);
    if (fence === undefined || fence.length < this.minLength) return undefined;
    if (this.open === undefined) {
      this.open = { char: fence.char, length: fence.length };
      return "open";
    }
    if (fence.char === this.open.char && fence.length >= this.open.length && fence.info === "") {
      this.open = undefined;
      return "close";
    }
    return undefined;
  }
}

/** A fence line's character, run length and info string. */
export function parseFence(line: string): { char: string; length: number; info: string } | undefined {
  const match = FENCE.exec(line);
  if (match === null) return undefined;
  const run = match[1] as string;
  const info = (match[2] as string).trim();
  if (run[0] === "`" && info.includes("`")) return undefined;
  return { char: run[0] as string, length: run.length, info };
}

/**
 * Splits a tool body into input and output. The output is the trailing fence: it must close the body
 * and open with a bare or `text` fence of the same length. Fences with another info string
 * (```` ```bash ````, ```` ```md ````) belong to the input and are skipped whole; lines inside the
 * output are not looked at, so fences quoted in an output cannot move its start.
 */
export function splitToolBody(body: string[]): { input: string; output?: string; isError: boolean } {
  const labelled = splitLabelledBody(body);
  if (labelled !== undefined) return labelled;
  let last = body.length - 1;
  while (last >= 0 && (body[last] as string).trim() === "") last -= 1;
  const closing = last >= 0 ? parseFence(body[last] as string) : undefined;
  if (closing !== undefined && closing.info === "") {
    const inputFences = new FenceTracker();
    for (let i = 0; i < last; i += 1) {
      const line = body[i] as string;
      const fence = inputFences.inside ? undefined : parseFence(line);
      if (fence !== undefined && fence.char === closing.char && fence.length === closing.length && (fence.info === "" || fence.info === "text")) {
        return outputFrom(body, i, last);
      }
      inputFences.feed(line);
    }
  }
  const answer = last >= 0 ? /^\*\*Answer:\*\* (.*)$/.exec(body[last] as string) : null;
  if (answer !== null) return { input: body.slice(0, last).join("\n").trim(), output: answer[1] as string, isError: false };
  return { input: body.join("\n").trim(), isError: false };
}

/** Input before line `start`, output between `start` and `end` (the fence lines), error label noted. */
function outputFrom(body: string[], start: number, end: number): { input: string; output: string; isError: boolean } {
  const inputLines = body.slice(0, start);
  let label = inputLines.length - 1;
  while (label >= 0 && (inputLines[label] as string).trim() === "") label -= 1;
  const labelText = label >= 0 ? (inputLines[label] as string).trim() : "";
  const isError = labelText === "**Error:**";
  if (isError || labelText === "**Result:**") inputLines.splice(label);
  return { input: inputLines.join("\n").trim(), output: body.slice(start + 1, end).join("\n"), isError };
}


const PART_LABEL = /^(Parameters|Additional data|Result):\s*$/;
const STATUS = /^Status: \*\*([^*]+)\*\*\s*$/;

/** The lines between an opening fence and its closing fence when `lines` is exactly one fence. */
function unfenced(lines: string[]): string {
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && (lines[first] as string).trim() === "") first += 1;
  while (last >= first && (lines[last] as string).trim() === "") last -= 1;
  const open = first < last ? parseFence(lines[first] as string) : undefined;
  const close = open !== undefined ? parseFence(lines[last] as string) : undefined;
  if (open !== undefined && close !== undefined && close.char === open.char && close.length >= open.length && close.info === "") {
    return lines.slice(first + 1, last).join("\n");
  }
  return lines.slice(first, last + 1).join("\n");
}

/**
 * VS Code Copilot's labelled body: `Parameters:` (the call's arguments), `Additional data:` (VS Code's
 * own bookkeeping, left out), `Result:` (the output) and `Status: **…**` (an error when it says
 * `error` or `failed`). `undefined` when the body has no `Parameters:` or `Result:` label outside a fence.
 */
function splitLabelledBody(body: string[]): { input: string; output?: string; isError: boolean } | undefined {
  const parts = new Map<string, string[]>([["", []]]);
  let label = "";
  let status: string | undefined;
  const fences = new FenceTracker();
  for (const line of body) {
    if (!fences.inside) {
      const heading = PART_LABEL.exec(line);
      if (heading !== null) {
        label = heading[1] as string;
        parts.set(label, []);
        continue;
      }
      const state = STATUS.exec(line);
      if (state !== null) {
        status = (state[1] as string).trim();
        label = "Status";
        continue;
      }
    }
    fences.feed(line);
    if (label !== "Status") parts.get(label)?.push(line);
  }
  if (!parts.has("Parameters") && !parts.has("Result")) return undefined;
  const input = [unfenced(parts.get("") ?? []), unfenced(parts.get("Parameters") ?? [])].filter((p) => p !== "").join("\n\n");
  const result = parts.get("Result");
  const isError = status !== undefined && /^(error|failed)$/i.test(status);
  return result === undefined ? { input, isError } : { input, output: unfenced(result), isError };
}
