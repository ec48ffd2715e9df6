/** Lays out template sections as markdown within a character budget: trims sections evenly, never drops a heading. */
import { EMPTY_SECTION_ITEM } from "./prompt.js";
import { SUMMARY_SECTIONS } from "./types.js";
import { shorten } from "./extractiveText.js";

/** A template heading. */
export type SummaryHeading = (typeof SUMMARY_SECTIONS)[number];

/** Bullet items (without the leading "- ") per heading. */
export type SectionItems = Partial<Record<SummaryHeading, string[]>>;

/** Which end of a section to keep when it must be trimmed. */
export type KeepEnd = "head" | "tail";

/** A heading that only groups subsections and never holds items itself. */
const GROUP_HEADING: SummaryHeading = "## Progress";
/** The shortest an item is cut to when nothing else fits. */
const MIN_ITEM_CHARS = 12;

function bullet(item: string): string {
  return `- ${item}`;
}

function linesCost(lines: string[]): number {
  return lines.reduce((sum, line) => sum + line.length, 0) + Math.max(0, lines.length - 1);
}

/** Keeps whole items from the preferred end within `budget` characters and notes how many were left out. */
function fitItems(items: string[], budget: number, keep: KeepEnd): string[] {
  const all = items.map(bullet);
  if (linesCost(all) <= budget) return all;
  const ordered = keep === "head" ? all : [...all].reverse();
  const kept: string[] = [];
  let used = 0;
  for (const line of ordered) {
    const cost = line.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > budget) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length === 0) {
    const first = ordered[0] ?? "";
    kept.push(bullet(shorten(first.slice(2), Math.max(MIN_ITEM_CHARS, budget - 2))));
    used = kept[0]!.length;
  }
  let omitted = all.length - kept.length;
  if (omitted > 0) {
    const note = () => bullet(keep === "head" ? `… (${omitted} more omitted)` : `… (${omitted} earlier omitted)`);
    while (kept.length > 1 && used + 1 + note().length > budget) {
      const dropped = kept.pop()!;
      used -= dropped.length + 1;
      omitted++;
    }
    if (used + 1 + note().length <= budget) kept.push(note());
  }
  if (keep === "tail") kept.reverse();
  return kept;
}

/**
 * Renders every template heading in order with its items (an empty section gets "- (none)"), within
 * `maxChars` when possible: over budget, each section gets an equal share of the room (sections needing
 * less give the rest to the others) and keeps whole items from its `keepEnd` side. Headings are never dropped.
 */
export function layoutSections(sections: SectionItems, maxChars: number, keepEnd: Partial<Record<SummaryHeading, KeepEnd>> = {}): string {
  const bodies = new Map<SummaryHeading, string[]>();
  let fixed = 0;
  for (const heading of SUMMARY_SECTIONS) {
    const items = heading === GROUP_HEADING ? [] : (sections[heading] ?? []).filter((item) => item.trim() !== "");
    fixed += heading.length;
    if (heading === GROUP_HEADING) continue;
    fixed += 1; // the newline between the heading and its first line
    if (items.length === 0) {
      bodies.set(heading, [EMPTY_SECTION_ITEM]);
      fixed += EMPTY_SECTION_ITEM.length;
    }
  }
  fixed += 2 * (SUMMARY_SECTIONS.length - 1);

  const pending = SUMMARY_SECTIONS.filter((h) => h !== GROUP_HEADING && !bodies.has(h)).map((heading) => {
    const items = (sections[heading] ?? []).filter((item) => item.trim() !== "");
    return { heading, items, cost: linesCost(items.map(bullet)) };
  });
  let remaining = Math.max(0, maxChars - fixed);
  let count = pending.length;
  for (const section of [...pending].sort((a, b) => a.cost - b.cost)) {
    const share = Math.floor(remaining / count);
    const lines = fitItems(section.items, Math.min(section.cost, share), keepEnd[section.heading] ?? "head");
    bodies.set(section.heading, lines);
    remaining -= Math.min(remaining, linesCost(lines));
    count--;
  }

  return SUMMARY_SECTIONS.map((heading) => [heading, ...(bodies.get(heading) ?? [])].join("\n")).join("\n\n");
}
