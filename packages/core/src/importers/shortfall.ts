/**
 * The warning an import gets when its result looks like a misread (a silent misimport is worse than
 * an error): no assistant turns, no tool calls, or far fewer user turns than the file's role headers
 * promise. It names the format the file was read as and whether that was detected or asked for, so a
 * wrong guess is visible.
 */
import type { ImportResult } from "./types.js";

/** SpecStory user headers (`_**User**_`, `_**User (time)**_`), sidechains left out as the importer does. */
const SPECSTORY_USER_HEADER = /^_\*\*User(?: \([^\n]*\))?\*\*_\s*$/gm;

/** How many user turns the file's own headers promise, when its format has such headers. */
function promisedUserTurns(result: ImportResult, text: string): number | undefined {
  if (result.format === "specstory") return text.match(SPECSTORY_USER_HEADER)?.length ?? 0;
  return undefined;
}

/**
 * The shortfall warning for `result` read from `text`, or `undefined` when nothing looks missing. A
 * file is short when fewer than half the user turns its headers promise came out.
 */
export function importShortfall(result: ImportResult, text: string, fileName: string, detected: boolean): string | undefined {
  const problems: string[] = [];
  const users = result.messages.filter((m) => m.role === "user").length;
  const promised = promisedUserTurns(result, text);
  if (promised !== undefined && users * 2 < promised) problems.push(`${users} user turns from ${promised} user headers`);
  if (!result.messages.some((m) => m.role === "assistant")) problems.push("no assistant turns");
  if (!result.messages.some((m) => (m.tool_calls?.length ?? 0) > 0)) problems.push("no tool calls");
  if (problems.length === 0) return undefined;
  const how = detected ? "detected from its content" : "as asked";
  const list = problems.length === 1 ? problems[0] : `${problems.slice(0, -1).join(", ")} and ${problems.at(-1)}`;
  return `${fileName}: read as ${result.format} (${how}), but it gave ${list}; if that format is wrong, name the right one explicitly`;
}
