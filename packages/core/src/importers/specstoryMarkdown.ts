/**
 * A line-based reader for SpecStory markdown (v2.1.0): splits a file into role sections
 * (`_**User (time)**_`, `_**Agent (model time)**_`) and each agent section into text, thinking and
 * tool blocks. No markdown library: only role headers, `<tool-use …><details>` … `</details></tool-use>`
 * blocks, `<think><details>` … `</details></think>` blocks, plain `Tool use: **name**` lines (older
 * and Gemini CLI renderings) and code fences are recognized; everything else is text, kept as written.
 *
 * Tool blocks are SpecStory's rendering of one call and its result: the input as the provider's
 * formatter wrote it, then the output as a trailing ```` ```text ```` (or bare ```` ``` ````) fence.
 * Only long fences (four or more backticks, which newer SpecStory wraps around output that itself
 * holds fences) hide headers and `</details></tool-use>` lines, so a transcript quoted in such an
 * output stays part of it. Short fences are not trusted for that: older renderings wrap output in
 * plain ```` ``` ```` without escaping its inner fences, which a truncated output leaves unbalanced.
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

/** A part of a section: text (as written), a skipped thinking block, or a tool block. */
export type SpecStoryPart = { kind: "text"; line: number; text: string } | { kind: "thinking"; line: number } | SpecStoryToolBlock;

/** One `_**User**_` or `_**Agent**_` section. */
export interface SpecStorySection {
  role: "user" | "agent";
  /** 1-based line of the header. */
  line: number;
  model?: string;
  /** The header's time as ISO 8601, when it has one. */
  timestamp?: string;
  sidechain: boolean;
  parts: SpecStoryPart[];
}

const HEADER = /^_\*\*(User|Agent)( - sidechain)?(?: \(([^\n]*)\))?\*\*_\s*$/;
const HEADER_TIME = /(?:^|\s)(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})$/;
const TOOL_OPEN = /^<tool-use(\s[^>]*)?><details>\s*$/;
const TOOL_CLOSE = "</details></tool-use>";
const THINK_OPEN = "<think><details>";
const THINK_CLOSE = "</details></think>";
const LEGACY_TOOL = /^Tool use: \*\*([^*\n]+)\*\*(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const MESSAGE_ID_COMMENT = /^<!-- message-id: .* -->\s*$/;

/** A role header parsed from `line`, or `undefined`. */
function parseHeader(line: string): Omit<SpecStorySection, "line" | "parts"> | undefined {
  const match = HEADER.exec(line);
  if (match === null) return undefined;
  const role = match[1] === "User" ? "user" : "agent";
  const inner = (match[3] ?? "").trim();
  const time = HEADER_TIME.exec(inner);
  const header: Omit<SpecStorySection, "line" | "parts"> = { role, sidechain: match[2] !== undefined };
  if (time !== null) {
    const offset = time[3] === "Z" ? "Z" : (time[3] as string).replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2");
    header.timestamp = `${time[1]}T${time[2]}${offset}`;
  }
  const model = (time === null ? inner : inner.slice(0, inner.length - time[0].length)).trim();
  if (role === "agent" && model !== "") header.model = model;
  return header;
}

/** `true` for a role header line. */
export function isSpecStoryHeader(line: string): boolean {
  return HEADER.test(line);
}

/**
 * Tracks whether a line sequence is inside a fenced code block (CommonMark rules, simplified). Fences
 * with a shorter run than `minLength` are ignored, so a tracker with `minLength` 4 follows only the
 * long fences SpecStory wraps around output that itself contains fences.
 */
class FenceTracker {
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
function parseFence(line: string): { char: string; length: number; info: string } | undefined {
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
function splitToolBody(body: string[]): { input: string; output?: string; isError: boolean } {
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

/** The summary's text after `Tool use: **name**` (or the whole custom summary). */
function summaryDetail(summary: string, name: string): string {
  const prefix = `Tool use: **${name}**`;
  return (summary.startsWith(prefix) ? summary.slice(prefix.length) : summary).trim();
}

function joinInput(...pieces: string[]): string {
  return pieces.filter((p) => p !== "").join("\n\n");
}

/** Attribute values of a `<tool-use …>` opening tag (SpecStory writes them unescaped, in double quotes). */
function tagAttributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)="([^"]*)"/g)) out[match[1] as string] = match[2] as string;
  return out;
}

/** The index of the next role header from `start` that is not inside a long fence (else the end). */
function untilNextHeader(lines: string[], start: number): number {
  const fences = new FenceTracker(4);
  for (let i = start; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (!fences.inside && HEADER.test(line)) return i;
    fences.feed(line);
  }
  return lines.length;
}

/** Reads the `<tool-use>` block opening at `start`; returns it and the index after it. */
function readToolBlock(lines: string[], start: number, fileName: string, warnings: string[]): { block: SpecStoryToolBlock; next: number } {
  const attributes = tagAttributes(lines[start] as string);
  const name = attributes["data-tool-name"] ?? "";
  let i = start + 1;
  let summary = "";
  if ((lines[i] ?? "").startsWith("<summary>")) {
    const summaryLines: string[] = [];
    let end = i;
    while (end < lines.length && !(lines[end] as string).includes("</summary>") && end - i < 50) end += 1;
    if (end < lines.length && (lines[end] as string).includes("</summary>")) {
      for (let k = i; k <= end; k += 1) summaryLines.push(lines[k] as string);
      summary = summaryLines.join("\n").replace(/^<summary>/, "").replace(/<\/summary>\s*$/, "");
      i = end + 1;
    }
  }
  // Only long fences protect a closing tag: short ones inside older, unadapted output fences are
  // often unbalanced (truncated output), so they cannot be trusted to hide a `</details></tool-use>`.
  const fences = new FenceTracker(4);
  let close = -1;
  for (let k = i; k < lines.length; k += 1) {
    const line = lines[k] as string;
    if (!fences.inside && line.trimEnd() === TOOL_CLOSE) {
      close = k;
      break;
    }
    fences.feed(line);
  }
  if (close === -1) {
    const where = `${fileName}:${start + 1}`;
    const bare = lines.findIndex((line, k) => k >= i && line.trimEnd() === TOOL_CLOSE);
    const nextHeader = untilNextHeader(lines, i);
    close = bare !== -1 && bare < nextHeader ? bare : nextHeader;
    warnings.push(
      close === bare
        ? `${where}: tool-use block has an unclosed code fence; taken to end at line ${close + 1}`
        : `${where}: tool-use block is never closed; taken to end before line ${close + 1}`,
    );
  }
  const split = splitToolBody(lines.slice(i, close));
  const block: SpecStoryToolBlock = { kind: "tool", line: start + 1, name, input: joinInput(summaryDetail(summary, name), split.input), isError: split.isError };
  if (attributes["data-tool-type"] !== undefined) block.toolType = attributes["data-tool-type"];
  if (split.output !== undefined) block.output = split.output;
  return { block, next: close < lines.length && (lines[close] as string).trimEnd() === TOOL_CLOSE ? close + 1 : close };
}

/** Reads a plain `Tool use: **name** …` block (it runs to the end of its section). */
function readLegacyToolBlock(lines: string[], start: number): { block: SpecStoryToolBlock; next: number } {
  const match = LEGACY_TOOL.exec(lines[start] as string) as RegExpExecArray;
  const next = untilNextHeader(lines, start + 1);
  const split = splitToolBody(lines.slice(start + 1, next));
  const block: SpecStoryToolBlock = { kind: "tool", line: start + 1, name: (match[1] as string).trim(), input: joinInput((match[2] as string).trim(), split.input), isError: split.isError };
  if (split.output !== undefined) block.output = split.output;
  return { block, next };
}

/** Skips the thinking block opening at `start`; returns the index after it. */
function skipThinking(lines: string[], start: number, fileName: string, warnings: string[]): number {
  const nextHeader = untilNextHeader(lines, start + 1);
  for (let k = start; k < nextHeader; k += 1) {
    if ((lines[k] as string).trimEnd().endsWith(THINK_CLOSE)) return k + 1;
  }
  warnings.push(`${fileName}:${start + 1}: thinking block is never closed; skipped to line ${nextHeader + 1}`);
  return nextHeader;
}

/** Removes the `---` separator SpecStory writes before a header of another role. */
function dropSeparator(section: SpecStorySection): void {
  const last = section.parts[section.parts.length - 1];
  if (last?.kind !== "text") return;
  const text = last.text.replace(/(?:^|\n)---\s*$/, "").trimEnd();
  if (text === "") section.parts.pop();
  else last.text = text;
}

/** Reads SpecStory markdown into sections; unreadable parts are reported in `warnings` as `file:line`. */
export function readSpecStorySections(text: string, fileName: string, warnings: string[]): SpecStorySection[] {
  const lines = text.split(/\r?\n/);
  const sections: SpecStorySection[] = [];
  let current: SpecStorySection | undefined;
  let buffer: string[] = [];
  let bufferStart = 0;
  // Fences in section text: a short one hides block openings, only a long one hides a header (a
  // header always starts a new section otherwise, so an unclosed fence in text cannot swallow the rest).
  const fences = new FenceTracker();

  const flushText = () => {
    const joined = buffer.join("\n").trim();
    if (joined !== "" && current !== undefined) current.parts.push({ kind: "text", line: bufferStart + 1, text: joined });
    buffer = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const header = fences.insideLong ? undefined : parseHeader(line);
    if (header !== undefined) {
      flushText();
      fences.reset();
      if (current !== undefined && current.role !== header.role) dropSeparator(current);
      current = { ...header, line: i + 1, parts: [] };
      sections.push(current);
      i += 1;
      if (MESSAGE_ID_COMMENT.test(lines[i] ?? "")) i += 1;
      bufferStart = i;
      continue;
    }
    if (!fences.inside) {
      if (current?.role === "agent" && TOOL_OPEN.test(line)) {
        flushText();
        const { block, next } = readToolBlock(lines, i, fileName, warnings);
        current.parts.push(block);
        i = next;
        bufferStart = i;
        continue;
      }
      if (current?.role === "agent" && line.startsWith(THINK_OPEN)) {
        flushText();
        current.parts.push({ kind: "thinking", line: i + 1 });
        i = skipThinking(lines, i, fileName, warnings);
        bufferStart = i;
        continue;
      }
      if (current?.role === "agent" && LEGACY_TOOL.test(line)) {
        flushText();
        const { block, next } = readLegacyToolBlock(lines, i);
        current.parts.push(block);
        i = next;
        bufferStart = i;
        continue;
      }
    }
    fences.feed(line);
    if (current === undefined) {
      const trimmed = line.trim();
      if (trimmed !== "" && !/^<!--.*-->$/.test(trimmed) && !/^# /.test(trimmed)) {
        warnings.push(`${fileName}:${i + 1}: text before the first role header; skipped`);
      }
    } else {
      if (buffer.length === 0) bufferStart = i;
      buffer.push(line);
    }
    i += 1;
  }
  flushText();
  return sections;
}

/** `true` when `text` looks like SpecStory markdown (its header comment, or a role header early on). */
export function looksLikeSpecStory(text: string): boolean {
  const head = text.slice(0, 4000);
  if (head.includes("<!-- Generated by SpecStory")) return true;
  return head.split(/\r?\n/).slice(0, 40).some((line) => HEADER.test(line));
}
