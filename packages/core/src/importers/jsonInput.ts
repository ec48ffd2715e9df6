/** Reading JSON and JSON Lines input with errors that name the file and line. */
import { z } from "zod";
import { TranscriptImportError } from "./types.js";

/** One non-empty line of a JSON Lines file: its 1-based number and parsed value (or why it failed). */
export type JsonLine = { line: number; value: unknown; error?: undefined } | { line: number; value?: undefined; error: string };

/** Parses `text` as JSON or throws a {@link TranscriptImportError} naming `fileName` and the line. */
export function parseJsonDocument(text: string, fileName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TranscriptImportError(`${fileName}: invalid JSON${locate(text, error)}: ${(error as Error).message}`);
  }
}

/** Parses `text` as JSON, returning `undefined` instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
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

/** ` at line N` from a JSON.parse error's `position N`, when Node gives one. */
function locate(text: string, error: unknown): string {
  const match = /position (\d+)/.exec((error as Error).message ?? "");
  if (match?.[1] === undefined) return "";
  const offset = Number(match[1]);
  const line = text.slice(0, offset).split("\n").length;
  return ` at line ${line}`;
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
