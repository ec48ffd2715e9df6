/**
 * Why a plugin did not load, with its place: `<file>:<line>:<column>: <message>` and the source line
 * under it (docs/BEHAVIOUR.md, "Engines and resolution"). A syntax error carries its position in the
 * message jiti gives it (babel's 0-based column); any other error is placed at the first frame of its
 * stack inside the plugin, by line only (jiti keeps a TypeScript file's lines, not its columns).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { errorText } from "../errorText.js";

/** A position in a source file: 1-based line and, when known, column. */
export interface SourcePosition {
  file: string;
  line: number;
  column?: number;
}

/** A load error as the host reports it. */
export interface LocatedLoadError {
  /** Where it happened, when known. */
  position?: SourcePosition;
  /** The message alone, one line (without jiti's `ParseError:` framing). */
  message: string;
  /** `<file>:<line>:<column>: <message>` and the source line (a caret under the column when known); the message alone without a position. */
  text: string;
}

/** jiti's parse error: "ParseError: <message>  \n <file>:<line>:<column>" with babel's 0-based column. */
const PARSE_ERROR = /^(?:ParseError: )?([^\n]*?)\s*\n\s*(\S[^\n]*?):(\d+):(\d+)\s*$/;
/** One stack frame's place: "at f (/x/y.ts:3:9)" or "at /x/y.ts:3:9" (a file:// URL too). */
const STACK_FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?(?:\/|[A-Za-z]:[\\/])[^():]*?):(\d+):(\d+)\)?$/;

/**
 * `error` placed in its source: its parse position, else the first stack frame inside `scope` (the
 * plugin's folder or file; without one, a stack is not read: a package's frames are not the user's code).
 */
export function describeLoadError(error: unknown, scope?: string): LocatedLoadError {
  const raw = error instanceof Error ? error.message : String(error);
  const parse = PARSE_ERROR.exec(raw);
  if (parse) return located(parse[1]!.replace(/^ParseError: /, ""), { file: parse[2]!, line: Number(parse[3]), column: Number(parse[4]) + 1 });
  const position = error instanceof Error && scope !== undefined ? stackPosition(error.stack ?? "", scope) : undefined;
  return position ? located(errorText(error), position) : { message: errorText(error), text: errorText(error) };
}

function stackPosition(stack: string, scope: string): SourcePosition | undefined {
  for (const line of stack.split("\n").slice(1)) {
    const frame = STACK_FRAME.exec(line);
    if (!frame) continue;
    const file = frame[1]!.startsWith("file://") ? fileURLToPath(frame[1]!) : frame[1]!;
    if (file === scope || file.startsWith(scope.endsWith("/") ? scope : `${scope}/`)) return { file, line: Number(frame[2]) };
  }
  return undefined;
}

function located(message: string, position: SourcePosition): LocatedLoadError {
  const column = position.column;
  const head = `${position.file}:${position.line}${column !== undefined ? `:${column}` : ""}: ${message}`;
  const source = sourceLine(position.file, position.line);
  if (source === undefined) return { position, message, text: head };
  const gutter = String(position.line);
  const caret = column === undefined ? [] : [`${" ".repeat(gutter.length)} | ${source.slice(0, column - 1).replace(/[^\t]/g, " ")}^`];
  return { position, message, text: [head, `${gutter} | ${source}`, ...caret].join("\n") };
}

/** Line `line` (1-based) of `file`, or undefined when it cannot be read. */
function sourceLine(file: string, line: number): string | undefined {
  try {
    return readFileSync(file, "utf8").split(/\r?\n/)[line - 1];
  } catch {
    return undefined;
  }
}

/**
 * The report of `error` that made `what` fail ("Context engine 'x' in <dir> failed to load"), `outcome`
 * appended to what happened (" — falling back to built-in compressor", or nothing): placed, it is
 * `<file>:<line>:<column>: <message> (<what><outcome>)` over the source line; otherwise `<what>: <message><outcome>`.
 */
export function loadFailureText(what: string, error: unknown, scope: string | undefined, outcome = ""): string {
  const described = describeLoadError(error, scope);
  if (!described.position) return `${what}: ${described.text}${outcome}`;
  const [head, ...source] = described.text.split("\n");
  return [`${head} (${what[0]!.toLowerCase()}${what.slice(1)}${outcome})`, ...source].join("\n");
}
