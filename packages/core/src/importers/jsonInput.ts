/** Reading JSON and JSON Lines input with errors that name the file and line. */
import { z } from "zod";
import { TranscriptImportError } from "./types.js";

/** One non-empty line of a JSON Lines file: its 1-based number and parsed value (or why it failed). */
export type JsonLine = { line: number; value: unknown; error?: undefined } | { line: number; value?: undefined; error: string };

/** Parses `text` as JSON or throws a {@link TranscriptImportError}: `file: invalid JSON at line:col: reason`. */
export function parseJsonDocument(text: string, fileName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TranscriptImportError(`${fileName}: ${describeJsonError(text, error)}`);
  }
}

/**
 * `invalid JSON at line:col: reason` for a `JSON.parse` error on `text`; the reason loses the
 * position, line and quoted input Node appends to it.
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message
    .replace(/\s+in JSON at position \d+.*$/s, "")
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, "");
  return `invalid JSON at ${lineAndColumn(text, jsonErrorOffset(text, message))}: ${reason}`;
}

/** Whether `message` (a `JSON.parse` error on a text of `length` characters) only says the text ended early. */
function endsEarly(message: string, length: number): boolean {
  const position = /position (\d+)/.exec(message)?.[1];
  return /end of JSON input/i.test(message) || (position !== undefined && Number(position) >= length);
}

/**
 * The offset of the first character `JSON.parse` rejects in `text`: the `position N` of its message
 * when there is one, else found by bisection — the shortest prefix that fails other than by ending early.
 */
function jsonErrorOffset(text: string, message: string): number {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  if (endsEarly(message, text.length)) return text.length;
  const failsHere = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      return !endsEarly((error as Error).message, length);
    }
  };
  let low = 0; // a prefix of this length does not fail
  let high = text.length; // a prefix of this length fails
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (failsHere(middle)) high = middle;
    else low = middle;
  }
  return high - 1;
}

/** Parses `text` as JSON, returning `undefined` instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why `text` fails as one JSON document (`invalid JSON at line:col: reason`), when it looks like one —
 * it starts with `[`, or with `{` and its first line is not a whole JSON value (as in JSON Lines);
 * `undefined` when it parses or looks like something else.
 */
export function malformedJsonDocument(text: string): string | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("[") && !trimmed.startsWith("{")) return undefined;
  if (trimmed.startsWith("{") && tryParseJson(trimmed.split(/\r?\n/, 1)[0] ?? "") !== undefined) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return describeJsonError(text, error);
  }
}

/** Splits JSON Lines input into parsed lines; blank lines are skipped, bad lines carry their error. */
export function parseJsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === "") return;
    try {
      out.push({ line: index + 1, value: JSON.parse(raw) });
    } catch (error) {
      out.push({ line: index + 1, error: `invalid JSON: ${(error as Error).message}` });
    }
  });
  return out;
}

/** `line:col` (both 1-based) of the character at `offset` in `text`. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return `${before.split("\n").length}:${offset - lineStart + 1}`;
}

/** A short type name with its article for error texts: `null`, `an array`, `a string`… */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** `true` for a plain (non-array, non-null) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A zod error on one line, for warnings. */
export function zodErrorLine(error: z.ZodError): string {
  return z.prettifyError(error).replace(/\s*\n\s*/g, " ");
}
