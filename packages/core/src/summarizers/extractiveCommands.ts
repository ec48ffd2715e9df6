/**
 * How the ExtractiveSummarizer writes a command (docs/BEHAVIOUR.md, "The compression algorithm"): the
 * part that says what ran, not the directory it ran in. A leading `cd <dir> &&` (or `cd <dir>;`) is
 * dropped, a cut keeps the command's head, and repeats of one line collapse into one with a count. Pure.
 */
import { shorten } from "./extractiveText.js";

/** A leading `cd <dir> &&`, `cd <dir>;` or `cd <dir>` on a line of its own (the dir quoted or not; a `\` line continuation after it), as agents prefix their commands. */
const LEADING_CD = /^\s*cd\s+(?:"[^"]*"|'[^']*'|[^\s;&]+)[ \t]*(?:&&|;|\n)\s*(?:\\\s*\n\s*)?/;
/** Trailing plumbing that says nothing about what ran: `2>&1`, `| head -N`, `| tail -N`, `; echo "exit $?"`. */
const TRAILING_NOISE = /(?:\s*(?:2>&1|\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?|;\s*echo\s+["']?(?:exit|EXIT)[^;|&]*))+\s*$/;

/**
 * The distinctive form of a command: its first non-empty line (a trailing `\` dropped, "…" added when
 * more lines follow), every leading `cd <dir> &&` / `cd <dir>;` removed, output plumbing at its end
 * (`2>&1`, `| tail -20`) removed, whitespace collapsed. A command that is only a `cd` stays as written.
 */
export function normalizeCommand(command: string): string {
  let text = command.trim();
  for (let stripped = text.replace(LEADING_CD, ""); stripped !== text && stripped.trim() !== ""; stripped = text.replace(LEADING_CD, "")) text = stripped;
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  let first = (lines[0] ?? "").replace(/\\\s*$/, "").replace(/\s+/g, " ").trim();
  const bare = first.replace(TRAILING_NOISE, "").trim();
  if (bare !== "") first = bare;
  return lines.length > 1 ? `${first} …` : first;
}

/** The command as a summary shows it: {@link normalizeCommand}, then cut to `max` characters (its head kept). */
export function commandLabel(command: string, max: number): string {
  return shorten(normalizeCommand(command), max);
}

/** The count mark appended to a collapsed item. */
function countMark(count: number): string {
  return ` (×${count})`;
}

/** An item's text without a count mark ({@link collapseRepeats}), e.g. "ran `make` (×3)" → "ran `make`". */
export function withoutCount(item: string): { text: string; count: number } {
  const match = /^(.*) \(×(\d+)\)$/.exec(item);
  return match ? { text: match[1]!, count: Number(match[2]) } : { text: item, count: 1 };
}

/**
 * `items` with repeats of one item (compared with whitespace collapsed, counts of earlier collapses added)
 * collapsed into one carrying the count, `pytest -x (×4)`, at the place of its last occurrence: the
 * newest work stays last.
 */
export function collapseRepeats(items: readonly string[]): string[] {
  const counts = new Map<string, { text: string; count: number; last: number }>();
  items.forEach((item, index) => {
    const { text, count } = withoutCount(item);
    const key = text.replace(/\s+/g, " ").trim();
    const entry = counts.get(key);
    if (entry) {
      entry.count += count;
      entry.last = index;
    } else counts.set(key, { text, count, last: index });
  });
  return [...counts.values()].sort((a, b) => a.last - b.last).map(({ text, count }) => (count > 1 ? text + countMark(count) : text));
}
