/**
 * Fitting an extractive summary into its budget by salience: every item gets a priority from its section
 * and what it says (a failed command or an edited file above a file that was read, above one merely
 * mentioned; a command that acted above one that only read), and over budget the lowest-priority items go
 * first. Among a section's items of equal priority the middle of them goes first: the first hold the
 * oldest facts (carried through earlier compactions: the task's setup) and the last the newest work, the
 * two ends an agent needs.
 * Pure.
 */
import type { SectionItems, SummaryHeading } from "./summaryLayout.js";
import { layoutSections } from "./summaryLayout.js";
import { EMPTY_SECTION_ITEM } from "./prompt.js";
import { SUMMARY_SECTIONS } from "./types.js";
import { doneItemKind } from "./extractiveCommands.js";
import { FAILED_OUTCOME, FIXED_LATER_MARK, cutLongLines, groupPaths, groupedCosts } from "./summaryPacking.js";

/** Kept whatever else must go (the summary's first goal item, items about the focus topic). */
export const TOP_PRIORITY = 100;
/** The fitting rank of a kept item: above any priority plus bonus. */
const KEPT = Number.POSITIVE_INFINITY;

/**
 * Relevant Files notes by salience: what was changed, what the user named, what failed, what was read;
 * a file merely mentioned ranks lowest ({@link MENTIONED_FILE}).
 */
const FILE_NOTE_PRIORITY: ReadonlyArray<[RegExp, number]> = [
  [/\b(edited|created|written|deleted)\b/, 84],
  [/\bnamed by the user\b/, 80],
  [/\berror\b/, 82],
  [/\bread\b/, 76],
  [/\bin a command\b/, 74],
];
/** A file merely mentioned in the turns. */
const MENTIONED_FILE = 72;
/** Added to a file touched more than one way (read and edited, edited and failed). */
const TOUCHED_AGAIN = 6;

/**
 * Done items by what they record (extractiveCommands.ts doneItemKind): the commands that changed or
 * verified something get the room first, then the reads, then the searches and checks that found nothing.
 */
const DONE_PRIORITY: Readonly<Record<ReturnType<typeof doneItemKind>, number>> = { acting: 72, reading: 62, answer: 46, other: 50 };

/**
 * The priority of the `index`-th of `count` items of `heading` (higher is kept longer): the first ask
 * (kept whatever else goes); unresolved failures and changed files (a file touched more than one way a
 * little higher); later asks, the latest highest; files read or mentioned; the commands that acted; the
 * asks' constraints; the commands that only read; then the rest, a search that found nothing among the last. Errors later fixed and the Next Steps that repeat a blocker rank low.
 */
export function itemPriority(heading: SummaryHeading, item: string, index: number, count = index + 1, actingCommands?: ReadonlySet<string>): number {
  switch (heading) {
    case "## Goal":
      // later asks: the latest first
      return index === 0 ? TOP_PRIORITY : 86 + Math.round((4 * index) / Math.max(1, count - 1));
    case "## Constraints & Preferences":
      return 70;
    case "### Done":
      if (item.includes(FIXED_LATER_MARK)) return 60;
      if (FAILED_OUTCOME.test(item)) return 80;
      return DONE_PRIORITY[doneItemKind(item, actingCommands)];
    case "### In Progress":
      return 55;
    case "### Blocked":
      return 85;
    case "## Key Decisions":
      return 35;
    case "## Relevant Files": {
      const notes = item.includes(" — ") ? item.slice(item.indexOf(" — ") + 3).split(", ").filter((note) => note !== "mentioned") : [];
      const again = notes.length > 1 ? TOUCHED_AGAIN : 0;
      for (const [pattern, priority] of FILE_NOTE_PRIORITY) if (notes.some((note) => pattern.test(note))) return priority + again;
      return MENTIONED_FILE;
    }
    case "## Next Steps":
      return item.startsWith("Fix the failure") ? 60 : 50;
    case "## Critical Context":
      return item.startsWith("Error seen:") ? 78 : 50;
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
  /** Distance to the nearer end of its section's items of its base priority (the middle goes first). */
  depth: number;
  chars: number;
  /** Only the previous summary holds it ({@link FitOptions.carried}). */
  carried: boolean;
}

/** How {@link fitByPriority} ranks items beyond their section and text. */
export interface FitOptions {
  /** Items it returns true for are kept like the first goal ({@link TOP_PRIORITY}), e.g. those about a focus topic. */
  boost?: (item: string) => boolean;
  /** Added to an item's priority, e.g. for its age (see ageBonus in extractive.ts). */
  bonus?: (heading: SummaryHeading, item: string) => number;
  /**
   * Over budget, write Relevant Files grouped by directory and notes as shell brace lists
   * (`src/{a.ts, b.ts} — edited`) before dropping any (default false here; the ExtractiveSummarizer turns it on).
   */
  groupFiles?: boolean;
  /**
   * Priority an item loses per whole budget its section's higher-ranked items already take (default 0,
   * off): every section keeps its best items instead of one taking the room of another. At 60 one
   * summary of a 1,057-message session kept more commands and asks but fewer of the first chunk's facts
   * through 5 compactions (66 % instead of 80 %), so the summarizer leaves it off for now.
   */
  sectionShare?: number;
  /**
   * True for an item only the previous summary holds (carried), false for one the summarized turns state
   * (fresh). With {@link FitOptions.carriedShare}, over budget the two pools drop items apart: each keeps
   * its best items within its share of the room, and room a pool leaves unused goes to the other.
   */
  carried?: (heading: SummaryHeading, item: string) => boolean;
  /** Share of the room (0–1) the carried items keep when both pools are over; default: no pools, one ranking. */
  carriedShare?: number;
  /** Labels of Done commands known to act though their text may not show it (extractiveCommands.ts doneItemKind). */
  actingCommands?: ReadonlySet<string>;
}



/** One step of fitting: write a file in its directory's group line, or drop an item. */
interface Step {
  candidate: Candidate;
  priority: number;
  group: boolean;
  carried: boolean;
}

/**
 * Lays out `sections` within `maxChars`. Over budget, items are first written densely: long asks,
 * constraints, blockers and errors cut (summaryPacking.ts), and (with `groupFiles`) Relevant Files
 * grouped by directory as brace lists (`dir/{a.ts, b.ts} — edited`), the middle of the list first, until it fits or all are;
 * then items are dropped by priority (lowest first; among equals, the middle of those of a section first), each
 * ranked lower by the room its section's better items take (`sectionShare`). Each section that lost items says how many. When even the top-priority items do
 * not fit, the even per-section layout cuts what is left.
 */
export function fitByPriority(given: SectionItems, maxChars: number, options: FitOptions = {}): string {
  const { boost, bonus, groupFiles = false, sectionShare = 0, carried, carriedShare, actingCommands } = options;
  const packing = renderedLength(given, 0) > maxChars;
  const sections = packing ? cutLongLines(given) : given;
  const files = sections["## Relevant Files"] ?? [];
  const groupedCost = packing && groupFiles ? groupedCosts(files) : [];
  const steps: Step[] = [];
  for (const heading of SUMMARY_SECTIONS) {
    const items = sections[heading] ?? [];
    // ranked by what they say as given: packing shortens an item, not its standing
    const bases = (given[heading] ?? items).map((item, index) => itemPriority(heading, item, index, items.length, actingCommands));
    const depths = depthsAmongEquals(bases);
    const ranked = (given[heading] ?? items).map((item, index) => {
      const base = bases[index]!;
      // kept items rank above any other, whatever its bonus; the bonus is not capped, so ranks stay apart
      const priority = boost?.(item) || base >= TOP_PRIORITY ? KEPT : base + (bonus?.(heading, item) ?? 0);
      return { heading, index, priority, depth: depths[index]!, chars: items[index]!.length + 3, carried: carried?.(heading, item) ?? false };
    });
    // A section's share: each item ranks lower by the room its section's better items already take, so
    // over budget every section keeps its best items instead of one section taking the room of another.
    let before = 0;
    for (const candidate of [...ranked].sort((a, b) => b.priority - a.priority || a.depth - b.depth || a.index - b.index)) {
      const share = candidate.priority === KEPT || maxChars <= 0 ? 0 : (sectionShare * before) / maxChars;
      before += candidate.chars;
      candidate.priority -= share;
      const cheaper = heading === "## Relevant Files" && (groupedCost[candidate.index] ?? Infinity) < candidate.chars;
      if (cheaper && candidate.priority < KEPT) steps.push({ candidate, priority: Number.NEGATIVE_INFINITY, group: true, carried: candidate.carried });
      steps.push({ candidate, priority: candidate.priority, group: false, carried: candidate.carried });
    }
  }
  const dropped = new Map<SummaryHeading, Set<number>>();
  const grouped = new Set<number>();
  let length = renderedLength(sections, 0);
  if (length > maxChars) {
    steps.sort(byDropOrder);
    const pools = carriedShare === undefined ? undefined : poolRoom(steps, sections, maxChars, carriedShare);
    for (const { candidate, group } of dropOrder(steps, pools)) {
      if (length <= maxChars) break;
      if (candidate.priority >= KEPT) continue;
      let noted = false;
      const saved = group ? candidate.chars - groupedCost[candidate.index]! : grouped.has(candidate.index) ? groupedCost[candidate.index]! : candidate.chars;
      if (group) grouped.add(candidate.index);
      else {
        let set = dropped.get(candidate.heading);
        noted = set === undefined;
        if (set === undefined) {
          dropped.set(candidate.heading, (set = new Set()));
          length += OMITTED_NOTE_CHARS;
        }
        set.add(candidate.index);
      }
      length -= saved;
      if (pools !== undefined) pools.used[candidate.carried ? 1 : 0] -= saved - (noted ? OMITTED_NOTE_CHARS : 0);
    }
  }
  const kept: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) kept[heading] = withOmissions(sections[heading] ?? [], dropped.get(heading));
  if (grouped.size > 0) {
    const left = files.map((item, index) => ({ item, index })).filter(({ index }) => !dropped.get("## Relevant Files")?.has(index));
    const omitted = dropped.get("## Relevant Files")?.size ?? 0;
    kept["## Relevant Files"] = [
      ...groupPaths(left.map(({ item }) => item), (i) => grouped.has(left[i]!.index)),
      ...(omitted > 0 ? [`… (${omitted} more omitted)`] : []),
    ];
  }
  const text = layoutSections(kept, Number.MAX_SAFE_INTEGER);
  return text.length <= maxChars ? text : layoutSections(kept, maxChars);
}

/**
 * Each item's distance to the nearer end of the run of its section's items that share its base priority
 * (`bases`): among equals the middle goes first, so the oldest and the newest of a kind stay, wherever
 * the kind sits in its section (Done lists the commands that acted before those that read).
 */
function depthsAmongEquals(bases: readonly number[]): number[] {
  const positions = new Map<number, number[]>();
  bases.forEach((base, index) => {
    const list = positions.get(base);
    if (list === undefined) positions.set(base, [index]);
    else list.push(index);
  });
  const depths: number[] = new Array<number>(bases.length).fill(0);
  for (const list of positions.values()) list.forEach((index, k) => (depths[index] = Math.min(k, list.length - 1 - k)));
  return depths;
}

/** Lowest priority first; among equals the middle of those of a section, then its later items, a grouping before a drop. */
function byDropOrder(a: Step, b: Step): number {
  return a.priority - b.priority || b.candidate.depth - a.candidate.depth || b.candidate.index - a.candidate.index || Number(b.group) - Number(a.group);
}

/** The room of each pool (fresh, carried) and what its items take now. */
interface PoolRoom {
  room: [number, number];
  used: [number, number];
}

/** Splits the room left after headings between the fresh and the carried items ({@link FitOptions.carriedShare}). */
function poolRoom(steps: readonly Step[], sections: SectionItems, maxChars: number, carriedShare: number): PoolRoom {
  const used: [number, number] = [0, 0];
  for (const step of steps) if (!step.group) used[step.carried ? 1 : 0] += step.candidate.chars;
  const items = used[0] + used[1];
  const room = Math.max(0, maxChars - (renderedLength(sections, 0) - items));
  const carriedRoom = Math.max(room * carriedShare, room - used[0]);
  return { room: [room - carriedRoom, carriedRoom], used };
}

/**
 * The steps in the order they are taken: groupings first, then drops by {@link byDropOrder}; with pools, each
 * drop from the pool most over its room (a pool within its room loses nothing while the other can still give).
 */
function* dropOrder(steps: readonly Step[], pools: PoolRoom | undefined): Generator<Step> {
  if (pools === undefined) {
    yield* steps;
    return;
  }
  const queues: [Step[], Step[]] = [[], []];
  for (const step of steps) {
    if (step.group) yield step;
    else queues[step.carried ? 1 : 0].push(step);
  }
  const next = [0, 0];
  while (next[0]! < queues[0].length || next[1]! < queues[1].length) {
    const over = (pool: 0 | 1) => pools.used[pool] - pools.room[pool];
    let pool: 0 | 1 = over(1) > over(0) ? 1 : 0;
    if (next[pool]! >= queues[pool].length) pool = pool === 0 ? 1 : 0;
    yield queues[pool][next[pool]!++]!;
  }
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
