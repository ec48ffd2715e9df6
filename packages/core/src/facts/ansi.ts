/**
 * Terminal escape sequences (colours, cursor moves, hyperlinks) in captured command output: they say
 * nothing a summary or an error check needs, hide an `error:` at a line's start from the patterns, and
 * cost a summary model tokens. Pure.
 */

/** CSI sequences (`ESC [ … final`), OSC sequences (`ESC ] … BEL` or `ESC ] … ESC \`), and two-byte escapes. */
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** `text` without terminal escape sequences (itself, at the cost of one native search, when it holds none). */
export function withoutAnsi(text: string): string {
  return text.includes("\u001b") ? text.replace(ESCAPE_SEQUENCE, "") : text;
}
