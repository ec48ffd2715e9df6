/**
 * Denser forms of summary items, used before any item is dropped (docs/BEHAVIOUR.md, "The compression algorithm"):
 * Relevant Files grouped by directory and notes as shell brace lists (`src/app/{main.py, models.py} — edited`), long asks and
 * error lines cut shorter. Every packed form can be read back ({@link expandPathGroups}), so a later
 * compaction merges files as before. Pure.
 */
import { shorten } from "./extractiveText.js";
import type { SectionItems } from "./summaryLayout.js";

/** A Relevant Files line holding several files of one directory that share their notes: `dir/{a.ts, b.ts} — notes`. */
const PATH_GROUP = /^(.*\/)\{([^{}]+)\}(?: — (.+))?$/;
/** Separates the files of a group line (a shell brace list, spaces allowed after the commas). */
const FILE_SEPARATOR = ", ";

/** The directory part of a path ("" for a bare name), with its trailing "/"; a folder's own trailing "/" is part of its name. */
function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/", path.length - 2);
  return slash <= 0 ? "" : path.slice(0, slash + 1);
}

/** An item's path and notes ("path — notes"). */
function splitItem(item: string): { path: string; notes: string } {
  const cut = item.indexOf(" — ");
  return cut === -1 ? { path: item, notes: "" } : { path: item.slice(0, cut), notes: item.slice(cut + 3) };
}

/** The group an item joins: its directory and notes, or undefined when it cannot be grouped. */
function groupKey(item: string): string | undefined {
  const { path, notes } = splitItem(item);
  const dir = directoryOf(path);
  const name = path.slice(dir.length);
  if (dir === "" || name === "" || /[{},\s]/.test(path)) return undefined;
  return `${dir}\u0000${notes}`;
}

/**
 * Relevant Files items ("path — notes") with the files of one directory that share their notes written
 * on one line as a shell brace list, `dir/{a.ts, b.ts} — edited`, at the place of the first of them
 * (docs/BEHAVIOUR.md, "The compression algorithm"). Files alone in their group, items `include` says no
 * to, and paths that would break the form (holding a brace, a comma or a space) stay as they are.
 */
export function groupPaths(items: readonly string[], include: (index: number) => boolean = () => true): string[] {
  const keys = items.map((item, index) => (include(index) ? groupKey(item) : undefined));
  const members = new Map<string, string[]>();
  items.forEach((item, i) => {
    const key = keys[i];
    if (key === undefined) return;
    const { path } = splitItem(item);
    members.set(key, [...(members.get(key) ?? []), path.slice(directoryOf(path).length)]);
  });
  const out: string[] = [];
  const written = new Set<string>();
  items.forEach((item, i) => {
    const key = keys[i];
    const group = key === undefined ? undefined : members.get(key);
    if (key === undefined || group === undefined || group.length < 2) out.push(item);
    else if (!written.has(key)) {
      written.add(key);
      const { path, notes } = splitItem(item);
      out.push(`${directoryOf(path)}{${group.join(FILE_SEPARATOR)}}${notes === "" ? "" : ` — ${notes}`}`);
    }
  });
  return out;
}

/** Relevant Files items with every group line ({@link groupPaths}) read back into one "path — notes" item per file. */
export function expandPathGroups(items: readonly string[]): string[] {
  return items.flatMap((item) => {
    const match = PATH_GROUP.exec(item);
    if (!match) return [item];
    const notes = match[3] === undefined ? "" : ` — ${match[3]}`;
    return match[2]!.split(",").map((name) => name.trim()).filter((name) => name !== "").map((name) => `${match[1]}${name}${notes}`);
  });
}

/** True for a Relevant Files line that groups several files. */
export function isPathGroup(item: string): boolean {
  return PATH_GROUP.test(item);
}

/** Characters an ask, constraint, blocker, decision or error line keeps once packed: enough for its distinctive words. */
export const PACKED_LINE_CHARS = 130;
/** Later asks that keep {@link PACKED_LINE_CHARS} once packed: the latest; older ones keep {@link OLDER_ASK_CHARS}. */
const LATEST_ASKS_AT_LENGTH = 4;
/** Characters an older later ask keeps once packed (with its "Later: " mark). */
const OLDER_ASK_CHARS = 64;
/** Sections whose long lines are cut to {@link PACKED_LINE_CHARS} when packing; the first goal item is kept whole. */
const CUT_LONG: ReadonlySet<string> = new Set(["## Goal", "## Constraints & Preferences", "### Blocked", "## Key Decisions", "## Critical Context"]);

/** Marks a Done item whose failure later edits fixed: "ran `x` → fixed by a later edit: <error>". */
export const FIXED_LATER_MARK = "→ fixed by a later edit:";
/** A Done item whose outcome is a failure (not a search or check whose exit 1 said no: "→ no match (exit 1)"). */
export const FAILED_OUTCOME = /→ (?!(?:no match|false|differ) \(exit 1\)(?: \(×\d+\))?$).*(?:\bexit [1-9]\d*|\b[1-9]\d* failed\b|\berrors?\b|\bfailed\b|Error\b)/;
/** A Done item of a command with what it printed, and the count of its repeats: "ran `x` → 3 passed (×2)". */
const COMMAND_OUTCOME = /^(ran `[^`]*`) → .*?( \(×\d+\))?$/;

/** A Done item without the outcome of a command that did not fail (the command says what ran; a failure stays whole). */
function withoutQuietOutcome(item: string): string {
  if (FAILED_OUTCOME.test(item)) return item;
  const match = COMMAND_OUTCOME.exec(item);
  return match ? match[1]! + (match[2] ?? "") : item;
}

/** Notes that say only that a file was named: a packed Relevant Files item drops them (a bare path says as much). */
const PLAIN_NOTE = / — (?:mentioned|in a command)$/;

/** A Relevant Files item without a note that only says it was named. */
function withoutPlainNote(item: string): string {
  return item.replace(PLAIN_NOTE, "");
}

/** Characters a packed blocker keeps of what failed (its command or files) and of its error. */
const BLOCKER_LABEL_CHARS = 40;
const BLOCKER_ERROR_CHARS = PACKED_LINE_CHARS - BLOCKER_LABEL_CHARS;
/** A Blocked item: what failed (`ran \`cmd\`` or the files acted on), then its error. */
const BLOCKER = /^(ran `[^`]*`|[^:]+): (.+)$/;

/** A Blocked item cut to {@link PACKED_LINE_CHARS} with the error's head kept: the label is cut first. */
function packedBlocker(item: string): string {
  const match = BLOCKER.exec(item);
  if (match === null || item.length <= PACKED_LINE_CHARS) return shorten(item, PACKED_LINE_CHARS);
  const error = shorten(match[2]!, Math.max(BLOCKER_ERROR_CHARS, PACKED_LINE_CHARS - match[1]!.length - 2));
  return `${shorten(match[1]!, PACKED_LINE_CHARS - error.length - 2)}: ${error}`;
}

/**
 * The sections with long lines of asks, constraints, blockers, decisions and errors cut to
 * {@link PACKED_LINE_CHARS} (the first goal item whole), and commands that did not fail listed
 * without what they printed.
 */
export function cutLongLines(sections: SectionItems): SectionItems {
  const out: SectionItems = {};
  for (const [heading, items] of Object.entries(sections) as Array<[keyof SectionItems, string[] | undefined]>) {
    if (items === undefined) continue;
    if (heading === "### Done") out[heading] = items.map(withoutQuietOutcome);
    else if (heading === "## Goal") out[heading] = items.map((item, i) => (i === 0 ? item : shorten(item, i >= items.length - LATEST_ASKS_AT_LENGTH ? PACKED_LINE_CHARS : OLDER_ASK_CHARS)));
    else if (heading === "## Relevant Files") out[heading] = items.map(withoutPlainNote);
    else if (heading === "### Blocked") out[heading] = items.map(packedBlocker);
    else out[heading] = CUT_LONG.has(heading) ? items.map((item) => shorten(item, PACKED_LINE_CHARS)) : [...items];
  }
  return out;
}

/**
 * The characters each Relevant Files item takes once grouped ({@link groupPaths}): a file sharing its
 * group costs its name plus its share of the directory and notes written once; a file alone, its line.
 */
export function groupedCosts(items: readonly string[]): number[] {
  const keys = items.map((item) => groupKey(item));
  const size = new Map<string, number>();
  for (const key of keys) if (key !== undefined) size.set(key, (size.get(key) ?? 0) + 1);
  return items.map((item, i) => {
    const key = keys[i];
    const n = key === undefined ? 1 : size.get(key)!;
    if (key === undefined || n < 2) return item.length + 3;
    const { path, notes } = splitItem(item);
    const dir = directoryOf(path);
    return path.length - dir.length + FILE_SEPARATOR.length + Math.ceil((dir.length + notes.length + 8) / n);
  });
}
