/**
 * How the ExtractiveSummarizer writes a command (docs/BEHAVIOUR.md, "The compression algorithm"): the
 * part that says what ran, not the directory it ran in. Leading steps that only set the scene (`cd <dir> &&`,
 * `cd <dir>;`, an `echo "=== TESTS ==="` banner, `export X=1;`, `source .venv/bin/activate &&`) are dropped,
 * a cut keeps the command's head, and repeats of one line collapse into one with a count. Pure.
 */
import { isReadOnlyCommand } from "../facts/commandKinds.js";
import { shorten } from "./extractiveText.js";

/** One word or quoted string of a scene-setting step. */
const WORD = String.raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s;&|<>]+)`;
/** Silenced stderr or stdout after a step: `2>/dev/null`. */
const TO_NULL = String.raw`(?:[ \t]*\d?>[ \t]*/dev/null)?`;
/** A change of directory, silenced, with a fallback: `cd <dir> 2>/dev/null || cd /tmp`, `cd <dir> || exit 1`. */
const CD_STEP = String.raw`(?:cd|pushd)(?:[ \t]+${WORD})*${TO_NULL}(?:[ \t]*\|\|[ \t]*(?:cd(?:[ \t]+${WORD})*|exit(?:[ \t]+\d+)?|true)${TO_NULL})?`;
/**
 * A leading comment line, or a step that only sets the scene, then `&&`, `;` or a line end (a `\` line continuation after it):
 * `cd <dir>` (silenced or with a fallback: `cd <dir> 2>/dev/null || cd /tmp`), `pushd <dir>`, `export NAME=value…`, `source <file>` / `. <file>`, `set -e…`, or an `echo` /
 * `printf` of quoted or plain words with no redirection (a banner such as `echo "=== BUILD ==="`).
 */
const LEADING_SCENERY = new RegExp(String.raw`^\s*(?:#[^\n]*\n|(?:${CD_STEP}|(?:export|source|\.|set|echo|printf)(?:[ \t]+${WORD})*)[ \t]*(?:&&|;|\n))\s*(?:\\\s*\n\s*)?`);
/** Trailing plumbing that says nothing about what ran: `2>&1`, `| head -N`, `| tail -N`, `; echo "exit $?"`. */
const TRAILING_NOISE = /(?:\s*(?:2>&1|\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?|;\s*echo\s+["']?(?:exit|EXIT)[^;|&]*))+\s*$/;

/**
 * The distinctive form of a command: its first non-empty line (a trailing `\` dropped, "…" added when
 * more lines follow), every leading scene-setting step removed (`cd <dir> &&`, an `echo` banner, `export …;`), output plumbing at its end
 * (`2>&1`, `| tail -20`) removed, whitespace collapsed. A command that is only such steps stays as written.
 */
export function normalizeCommand(command: string): string {
  let text = command.trim();
  for (let stripped = text.replace(LEADING_SCENERY, ""); stripped !== text && stripped.trim() !== ""; stripped = text.replace(LEADING_SCENERY, "")) text = stripped;
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

/**
 * The outcome of a command whose exit 1 answered a question (facts/commandKinds.ts answerOfExit), as a
 * Done item writes it: the answer and the exit status, "no match (exit 1)".
 */
export function answerOutcome(answer: string): string {
  return `${answer} (exit 1)`;
}
/** An outcome written by {@link answerOutcome}. */
export const ANSWER_OUTCOME = /^(?:no match|false|differ) \(exit 1\)$/;
/** A Done item of a command: "ran `cmd`", then maybe " → outcome" and a count mark. */
const RAN_ITEM = /^ran `([^`]*)`(?: → (.*?))?(?: \(×\d+\))?$/;

/**
 * What a Done item records: `"acting"` for a command that changes or verifies something (a write, build,
 * test, install, move, delete, commit, lint), `"reading"` for one that only looked (`cat`, `grep`, `ls`),
 * `"answer"` for a search or check whose exit 1 only said no ({@link ANSWER_OUTCOME}), `"other"` for an
 * item that is no command (an edited file, a fixed failure). A command is read from the item's text,
 * unless `acting` (the labels of commands whose whole script acts, when the turns are at hand) holds its
 * label: a label is cut, and may lose the `> file` that made its command a write.
 */
export function doneItemKind(item: string, acting?: ReadonlySet<string>): "acting" | "reading" | "answer" | "other" {
  const match = RAN_ITEM.exec(item);
  if (match === null) return "other";
  if (match[2] !== undefined && ANSWER_OUTCOME.test(match[2])) return "answer";
  if (acting?.has(match[1]!)) return "acting";
  return isReadOnlyCommand(match[1]!.replace(/…$/, "")) ? "reading" : "acting";
}

/**
 * Done items with the commands that acted first, the commands that only read or found nothing after
 * them, each group in its order (`acting` as for {@link doneItemKind}).
 */
export function actingFirst(items: readonly string[], acting?: ReadonlySet<string>): string[] {
  const later = (item: string) => {
    const kind = doneItemKind(item, acting);
    return kind === "reading" || kind === "answer";
  };
  return [...items.filter((item) => !later(item)), ...items.filter(later)];
}
