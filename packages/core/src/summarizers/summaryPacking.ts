/**
 * Denser forms of summary items, used before any item is dropped (docs/BEHAVIOUR.md, "The compression algorithm"):
 * Relevant Files grouped by directory (`src/app/{main.py: written; models.py: edited}`), long asks and
 * error lines cut shorter. Every packed form can be read back ({@link expandPathGroups}), so a later
 * compaction merges files as before. Pure.
 */
import { shorten } from "./extractiveText.js";
import type { SectionItems } from "./summaryLayout.js";

/** A Relevant Files line holding several files of one directory: `dir/{name: notes; name}`. */
const PATH_GROUP = /^(.*\/)\{(.+)\}$/;
/** Separates the files of a group line. */
const FILE_SEPARATOR = "; ";

/** The directory part of a path ("" for a bare file name), with its trailing "/". */
function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "" : path.slice(0, slash + 1);
}

/**
 * Relevant Files items ("path — notes") with the files of each directory that holds two or more on one
 * line, `dir/{a.ts: edited, read; b.ts}`, at the place of the directory's first file. Files alone in
 * their directory, items `include` says no to, and names that would break the form (holding "; ", "{",
 * "}" or ": ") stay as they are.
 */
export function groupPaths(items: readonly string[], include: (index: number) => boolean = () => true): string[] {
  const parsed = items.map((item, index) => {
    const cut = item.indexOf(" — ");
    const path = cut === -1 ? item : item.slice(0, cut);
    const notes = cut === -1 ? "" : item.slice(cut + 3);
    const dir = directoryOf(path);
    const name = path.slice(dir.length);
    const groupable = include(index) && dir !== "" && name !== "" && !/[{};]|: /.test(path) && !notes.includes(";");
    return { item, dir: groupable ? dir : undefined, entry: notes === "" ? name : `${name}: ${notes}` };
  });
  const members = new Map<string, string[]>();
  for (const { dir, entry } of parsed) if (dir !== undefined) members.set(dir, [...(members.get(dir) ?? []), entry]);
  const out: string[] = [];
  const written = new Set<string>();
  for (const { item, dir } of parsed) {
    const group = dir === undefined ? undefined : members.get(dir);
    if (dir === undefined || group === undefined || group.length < 2) out.push(item);
    else if (!written.has(dir)) {
      written.add(dir);
      out.push(`${dir}{${group.join(FILE_SEPARATOR)}}`);
    }
  }
  return out;
}

/** Relevant Files items with every group line ({@link groupPaths}) read back into one "path — notes" item per file. */
export function expandPathGroups(items: readonly string[]): string[] {
  return items.flatMap((item) => {
    const match = PATH_GROUP.exec(item);
    if (!match) return [item];
    return match[2]!.split(FILE_SEPARATOR).map((entry) => {
      const colon = entry.indexOf(": ");
      return colon === -1 ? match[1] + entry : `${match[1]}${entry.slice(0, colon)} — ${entry.slice(colon + 2)}`;
    });
  });
}

/** True for a Relevant Files line that groups several files. */
export function isPathGroup(item: string): boolean {
  return PATH_GROUP.test(item);
}

/** Characters an ask, constraint, blocker, decision or error line keeps once packed: enough for its distinctive words. */
export const PACKED_LINE_CHARS = 130;
/** Sections whose long lines are cut to {@link PACKED_LINE_CHARS} when packing; the first goal item is kept whole. */
const CUT_LONG: ReadonlySet<string> = new Set(["## Goal", "## Constraints & Preferences", "### Blocked", "## Key Decisions", "## Critical Context"]);

/** The sections with long lines of asks, constraints, blockers, decisions and errors cut to {@link PACKED_LINE_CHARS} (the first goal item whole). */
export function cutLongLines(sections: SectionItems): SectionItems {
  const out: SectionItems = {};
  for (const [heading, items] of Object.entries(sections) as Array<[keyof SectionItems, string[] | undefined]>) {
    if (items === undefined) continue;
    out[heading] = CUT_LONG.has(heading) ? items.map((item, i) => (heading === "## Goal" && i === 0 ? item : shorten(item, PACKED_LINE_CHARS))) : [...items];
  }
  return out;
}

/**
 * The characters each Relevant Files item takes once grouped ({@link groupPaths}): a file sharing its
 * directory costs its name and notes plus its share of the directory written once; a file alone, its line.
 */
export function groupedCosts(items: readonly string[]): number[] {
  const dirs = items.map((item) => {
    const cut = item.indexOf(" — ");
    return directoryOf(cut === -1 ? item : item.slice(0, cut));
  });
  const size = new Map<string, number>();
  for (const dir of dirs) if (dir !== "") size.set(dir, (size.get(dir) ?? 0) + 1);
  return items.map((item, i) => {
    const dir = dirs[i]!;
    const n = size.get(dir) ?? 1;
    return dir === "" || n < 2 ? item.length + 3 : item.length - dir.length + 2 + Math.ceil((dir.length + 5) / n);
  });
}
