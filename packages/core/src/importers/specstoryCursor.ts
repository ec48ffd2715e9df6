/**
 * The tool renderings of SpecStory histories written by Cursor (`_**User**_` / `_**Assistant**_`
 * headers): Cursor's exporter writes no `<tool-use>` tags, only these shapes, each a block of its own
 * between `---` / `_****_` separators:
 * - `Read file: <path>` → a `read_file` call (the file's text is not shown: an empty result);
 * - `<details>` + `<summary>Grep search for "…" • **n** files</summary>` (or `Searched codebase`,
 *   `Listed directory`, `Searched files`, `Searched web`) … `</details>` → the search with the
 *   listing as its output;
 * - a ```` ```bash ```` fence directly followed by a bare fence → `run_terminal_cmd` with the command
 *   as input and the bare fence as output (a lone `bash` fence stays text: it may be an example).
 * Only sections under an `_**Assistant**_` header are read this way; anything else stays text.
 */
import { parseFence, type SpecStoryToolBlock } from "./specstoryToolBody.js";

/** The empty header Cursor's exporter writes between the parts of one assistant turn. */
export const CURSOR_SEPARATOR = /^_\*\*\*\*_\s*$/;

const READ_FILE = /^Read file: (.+)$/;
const SUMMARY = /^<summary>(.*)<\/summary>\s*$/;
const SEARCHES: ReadonlyArray<[RegExp, string]> = [
  [/^Grep search for /, "grep_search"],
  [/^Searched codebase /, "codebase_search"],
  [/^Listed directory /, "list_dir"],
  [/^Listed current directory/, "list_dir"],
  [/^Searched files /, "file_search"],
  [/^Searched web /, "web_search"],
];
const SHELL_INFO = new Set(["bash", "sh", "shell", "zsh", "powershell"]);

function block(line: number, name: string, input: string, output?: string): SpecStoryToolBlock {
  const out: SpecStoryToolBlock = { kind: "tool", line: line + 1, name, input, isError: false };
  if (output !== undefined) out.output = output;
  return out;
}

/** The index of the fence closing the one opened at `start`, or -1. */
function fenceEnd(lines: string[], start: number): number {
  const open = parseFence(lines[start] as string);
  if (open === undefined) return -1;
  for (let k = start + 1; k < lines.length; k += 1) {
    const fence = parseFence(lines[k] as string);
    if (fence !== undefined && fence.char === open.char && fence.length >= open.length && fence.info === "") return k;
  }
  return -1;
}

function readSearch(lines: string[], start: number): { block: SpecStoryToolBlock; next: number } | undefined {
  const summary = SUMMARY.exec((lines[start + 1] ?? "").trim());
  if (summary === null) return undefined;
  const text = (summary[1] as string).trim();
  const name = SEARCHES.find(([pattern]) => pattern.test(text))?.[1];
  if (name === undefined) return undefined;
  const close = lines.findIndex((line, k) => k > start + 1 && line.trim() === "</details>");
  if (close === -1) return undefined;
  return { block: block(start, name, text, lines.slice(start + 2, close).join("\n").trim()), next: close + 1 };
}

function readCommand(lines: string[], start: number): { block: SpecStoryToolBlock; next: number } | undefined {
  const end = fenceEnd(lines, start);
  if (end === -1) return undefined;
  let k = end + 1;
  while (k < lines.length && (lines[k] as string).trim() === "") k += 1;
  const output = parseFence(lines[k] ?? "");
  if (output === undefined || output.info !== "") return undefined;
  const outputEnd = fenceEnd(lines, k);
  if (outputEnd === -1) return undefined;
  const command = lines.slice(start + 1, end).join("\n");
  return { block: block(start, "run_terminal_cmd", command, lines.slice(k + 1, outputEnd).join("\n")), next: outputEnd + 1 };
}

/** Reads the Cursor tool rendering that starts at `start`, if one does. */
export function readCursorBlock(lines: string[], start: number): { block: SpecStoryToolBlock; next: number } | undefined {
  const line = lines[start] as string;
  const read = READ_FILE.exec(line);
  if (read !== null) return { block: block(start, "read_file", (read[1] as string).trim()), next: start + 1 };
  if (line.trim() === "<details>") return readSearch(lines, start);
  const fence = parseFence(line);
  if (fence !== undefined && SHELL_INFO.has(fence.info.toLowerCase())) return readCommand(lines, start);
  return undefined;
}
