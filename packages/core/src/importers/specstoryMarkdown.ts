/**
 * A line-based reader for SpecStory markdown (v2.1.0, and the older Cursor exports): splits a file into role sections
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
  /** Written by Cursor's exporter (an `_**Assistant**_` header): its tool renderings are read too. */
  cursor?: boolean;
  parts: SpecStoryPart[];
}

import { CURSOR_SEPARATOR, readCursorBlock } from "./specstoryCursor.js";
import { FenceTracker, splitToolBody, type SpecStoryToolBlock } from "./specstoryToolBody.js";

export type { SpecStoryToolBlock } from "./specstoryToolBody.js";

const HEADER = /^_\*\*(User|Agent|Assistant)( - sidechain)?(?: \(([^\n]*)\))?\*\*_\s*$/;
const HEADER_TIME = /(?:^|\s)(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})$/;
const TOOL_OPEN = /^<tool-use(\s[^>]*)?><details>\s*$/;
/** VS Code Copilot's rendering: the tags on lines of their own (`<tool-use …>`, then `<details>`). */
const TOOL_OPEN_TAG = /^<tool-use(\s[^>]*)?>\s*$/;
const TOOL_CLOSE = "</details></tool-use>";
const THINK_OPEN = "<think><details>";
const THINK_CLOSE = "</details></think>";
const LEGACY_TOOL = /^Tool use: \*\*([^*\n]+)\*\*(.*)$/;
const MESSAGE_ID_COMMENT = /^<!-- message-id: .* -->\s*$/;

/** A role header parsed from `line`, or `undefined`. */
function parseHeader(line: string): Omit<SpecStorySection, "line" | "parts"> | undefined {
  const match = HEADER.exec(line);
  if (match === null) return undefined;
  const role = match[1] === "User" ? "user" : "agent";
  const inner = (match[3] ?? "").trim();
  const time = HEADER_TIME.exec(inner);
  const header: Omit<SpecStorySection, "line" | "parts"> = { role, sidechain: match[2] !== undefined };
  if (match[1] === "Assistant") header.cursor = true;
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

/**
 * How many lines the tool block opening at `index` takes: 1 for `<tool-use …><details>`, 2 for the
 * tags on lines of their own (VS Code Copilot), 0 when no block opens there.
 */
function toolOpenLength(lines: string[], index: number): number {
  const line = lines[index] as string;
  if (TOOL_OPEN.test(line)) return 1;
  return TOOL_OPEN_TAG.test(line) && (lines[index + 1] ?? "").trim() === "<details>" ? 2 : 0;
}

/** How many lines the tool block's closing tags at `index` take (1 or 2, as when opening), else 0. */
function toolCloseLength(lines: string[], index: number): number {
  const line = (lines[index] ?? "").trimEnd();
  if (line === TOOL_CLOSE) return 1;
  return line.trim() === "</details>" && (lines[index + 1] ?? "").trim() === "</tool-use>" ? 2 : 0;
}

/** Reads the `<tool-use>` block opening at `start`; returns it and the index after it. */
function readToolBlock(lines: string[], start: number, fileName: string, warnings: string[]): { block: SpecStoryToolBlock; next: number } {
  const attributes = tagAttributes(lines[start] as string);
  const name = attributes["data-tool-name"] ?? "";
  let i = start + toolOpenLength(lines, start);
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
    if (!fences.inside && toolCloseLength(lines, k) > 0) {
      close = k;
      break;
    }
    fences.feed(line);
  }
  if (close === -1) {
    const where = `${fileName}:${start + 1}`;
    const bare = lines.findIndex((_line, k) => k >= i && toolCloseLength(lines, k) > 0);
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
  return { block, next: close + toolCloseLength(lines, close) };
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
    let joined = buffer.join("\n").trim();
    // A `---` opening an agent section's text after a block is SpecStory's separator, not the agent's text.
    if (current?.role === "agent" && (current.parts.length > 0 || current.cursor === true)) joined = joined.replace(/^(?:---[ \t]*(?:\n|$)\s*)+/, "");
    // Cursor's exporter also ends every part of a turn with one.
    if (current?.cursor === true) joined = joined.replace(/(?:(?:^|\n)---[ \t]*)+$/, "").trimEnd();
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
      if (CURSOR_SEPARATOR.test(line)) {
        flushText();
        i += 1;
        bufferStart = i;
        continue;
      }
      const cursorBlock = current?.cursor === true ? readCursorBlock(lines, i) : undefined;
      if (current !== undefined && cursorBlock !== undefined) {
        flushText();
        current.parts.push(cursorBlock.block);
        i = cursorBlock.next;
        bufferStart = i;
        continue;
      }
      if (current?.role === "agent" && toolOpenLength(lines, i) > 0) {
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
