/**
 * Fitting an extractive summary into its budget by salience: every item gets a priority from its section
 * and what it says (a failed command or an edited file above a file that was read, above one merely
 * mentioned), and over budget the lowest-priority items go first. Among items of equal priority the
 * middle of a section goes first: its first items hold the oldest facts (carried through earlier
 * compactions: the task's setup) and its last items the newest work, the two ends an agent needs.
 * Pure.
 */
import type { SectionItems, SummaryHeading } from "./summaryLayout.js";
import { layoutSections } from "./summaryLayout.js";
import { EMPTY_SECTION_ITEM } from "./prompt.js";
import { SUMMARY_SECTIONS } from "./types.js";

/** Kept whatever else must go (the summary's first goal item, items about the focus topic). */
export const TOP_PRIORITY = 100;

/** Relevant Files notes by salience: what was changed, what failed, what the user named, what was read, what was mentioned. */
const FILE_NOTE_PRIORITY: ReadonlyArray<[RegExp, number]> = [
  [/\b(edited|created|written|deleted)\b/, 90],
  [/\berror\b/, 85],
  [/\bnamed by the user\b/, 80],
  [/\bread\b/, 75],
];
/** A Done item whose outcome is a failure. */
const FAILED_OUTCOME = /→ .*(?:\bexit [1-9]\d*|\b[1-9]\d* failed\b|\berrors?\b|\bfailed\b|Error\b)/;

/** The priority of the `index`-th item of `heading` (higher is kept longer). */
export function itemPriority(heading: SummaryHeading, item: string, index: number): number {
  switch (heading) {
    case "## Goal":
      return index === 0 ? TOP_PRIORITY : 80;
    case "## Constraints & Preferences":
      return 45;
    case "### Done":
      if (FAILED_OUTCOME.test(item)) return 85;
      return item.startsWith("ran ") ? 65 : 40;
    case "### In Progress":
      return 55;
    case "### Blocked":
      return 85;
    case "## Key Decisions":
      return 35;
    case "## Relevant Files": {
      const notes = item.includes(" — ") ? item.slice(item.indexOf(" — ")) : "";
      for (const [pattern, priority] of FILE_NOTE_PRIORITY) if (pattern.test(notes)) return priority;
      return 72;
    }
    case "## Next Steps":
      return item.startsWith("Fix the failure") ? 80 : 50;
    case "## Critical Context":
      return item.startsWith("Error seen:") ? 85 : 50;
    default:
      return 50;
  }
}

/** The characters of the rendered summary: headings, one line per item (or "- (none)"), blank lines between sections. */
function renderedLength(sections: SectionItems, omittedNotes: number): number {
  let total = 0;
  for (const heading of SUMMARY_SECTIONS) {
    total += heading.length + 2;
    if (heading === "## Progress") continue;
    const items = sections[heading] ?? [];
    total += items.length === 0 ? EMPTY_SECTION_ITEM.length + 1 : items.reduce((sum, item) => sum + item.length + 3, 0);
  }
  return total + omittedNotes * OMITTED_NOTE_CHARS;
}

/** Room reserved for each section's "… (N more omitted)" line. */
const OMITTED_NOTE_CHARS = 26;

interface Candidate {
  heading: SummaryHeading;
  index: number;
  priority: number;
  /** Distance to the nearer end of its section (the middle goes first). */
  depth: number;
  chars: number;
}

/** How {@link fitByPriority} ranks items beyond their section and text. */
export interface FitOptions {
  /** Items it returns true for are kept like the first goal ({@link TOP_PRIORITY}), e.g. those about a focus topic. */
  boost?: (item: string) => boolean;
  /** Added to an item's priority, e.g. for its age (see ageBonus in extractive.ts). */
  bonus?: (heading: SummaryHeading, item: string) => number;
}

/**
 * Lays out `sections` within `maxChars`, dropping items by priority (lowest first; among equals, the
 * middle of a section first). Each section that lost items says how many, where they were. When even
 * the top-priority items do not fit, the even per-section layout cuts what is left.
 */
export function fitByPriority(sections: SectionItems, maxChars: number, options: FitOptions = {}): string {
  const { boost, bonus } = options;
  const candidates: Candidate[] = [];
  for (const heading of SUMMARY_SECTIONS) {
    const items = sections[heading] ?? [];
    items.forEach((item, index) => {
      const base = itemPriority(heading, item, index);
      const priority = boost?.(item) || base >= TOP_PRIORITY ? TOP_PRIORITY : Math.min(TOP_PRIORITY - 1, base + (bonus?.(heading, item) ?? 0));
      candidates.push({ heading, index, priority, depth: Math.min(index, items.length - 1 - index), chars: item.length + 3 });
    });
  }
  const dropped = new Map<SummaryHeading, Set<number>>();
  let length = renderedLength(sections, 0);
  if (length > maxChars) {
    candidates.sort((a, b) => a.priority - b.priority || b.depth - a.depth || b.index - a.index);
    for (const candidate of candidates) {
      if (length <= maxChars || candidate.priority >= TOP_PRIORITY) break;
      let set = dropped.get(candidate.heading);
      if (set === undefined) {
        dropped.set(candidate.heading, (set = new Set()));
        length += OMITTED_NOTE_CHARS;
      }
      set.add(candidate.index);
      length -= candidate.chars;
    }
  }
  const kept: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) kept[heading] = withOmissions(sections[heading] ?? [], dropped.get(heading));
  const text = layoutSections(kept, Number.MAX_SAFE_INTEGER);
  return text.length <= maxChars ? text : layoutSections(kept, maxChars);
}

/** `items` without the `dropped` indexes, with "… (N more omitted)" where the first dropped item was. */
function withOmissions(items: string[], dropped: Set<number> | undefined): string[] {
  if (dropped === undefined || dropped.size === 0) return items;
  const out: string[] = [];
  let noted = false;
  items.forEach((item, index) => {
    if (!dropped.has(index)) out.push(item);
    else if (!noted) {
      out.push(`… (${dropped.size} more omitted)`);
      noted = true;
    }
  });
  return out;
}
