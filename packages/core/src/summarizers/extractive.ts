/** The offline, deterministic summarizer: fills the summary template (docs/BEHAVIOUR.md, "The compression algorithm") from the turns themselves. */
import { LATER_ASK_PREFIX, extractSections } from "./extractiveSections.js";
import { EMPTY_SECTION_ITEM, normalizeSummary, splitSummarySections } from "./prompt.js";
import { redactSecrets } from "./redact.js";
import { dedupe } from "./extractiveText.js";
import { actingFirst, withoutCount } from "./extractiveCommands.js";
import type { SectionItems, SummaryHeading } from "./summaryLayout.js";
import { expandPathGroups } from "./summaryPacking.js";
import { fitByPriority, type FitOptions } from "./summaryPriority.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import type { TokenCounter } from "../tokens/types.js";
import { SUMMARY_SECTIONS } from "./types.js";
import type { SummaryRequest, Summarizer } from "./types.js";

/** Characters per token assumed when fitting the summary into `maxTokens`. */
export const EXTRACTIVE_CHARS_PER_TOKEN = 4;

/** Sections that describe the current state: new items replace the previous summary's. */
const CURRENT_STATE: ReadonlySet<SummaryHeading> = new Set<SummaryHeading>(["### In Progress", "### Blocked", "## Next Steps"]);

const NOT_AN_ITEM = /^(…|\.\.\.) \(\d+ (more|earlier) omitted\)$|^--- END OF CONTEXT SUMMARY/;

/** The items of each section of a summary text ("- (none)" placeholders and omission notes left out, files grouped by directory read back one per file). */
export function summaryItems(summary: string): SectionItems {
  const { bodies } = splitSummarySections(normalizeSummary(summary));
  const items: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) {
    items[heading] = (bodies.get(heading) ?? [])
      .map((line) => line.trim().replace(/^[-*•]\s+/, ""))
      .filter((line) => line !== "" && line !== EMPTY_SECTION_ITEM.slice(2) && !NOT_AN_ITEM.test(line));
  }
  // files grouped by directory (summaryPacking.ts) merge as one item each
  items["## Relevant Files"] = expandPathGroups(items["## Relevant Files"] ?? []);
  return items;
}

function fileKey(item: string): string {
  return item.split(" — ")[0] ?? item;
}

/** A path as files are compared: a leading "./" dropped. */
function samePathForm(path: string): string {
  return path.replace(/^\.\//, "");
}

/** What follows a path's last "/" (the whole path when it has none). */
function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Merges "path — notes" items by path, notes in order of first appearance. A path that another listed
 * path ends with (`./pkg/a.go`, `a.go` next to `/repo/pkg/a.go`) is the same file named shorter: its notes
 * join the longest such path, which takes the earlier of the two places.
 */
function mergeFiles(previous: string[], current: string[]): string[] {
  const notes = new Map<string, string[]>();
  for (const item of [...previous, ...current]) {
    const key = fileKey(item);
    const list = notes.get(key) ?? [];
    const itemNotes = item.includes(" — ") ? item.slice(key.length + 3).split(", ") : [];
    for (const note of itemNotes) if (!list.includes(note)) list.push(note);
    notes.set(key, list);
  }
  const order = [...notes.keys()];
  const place = new Map(order.map((key, i) => [key, i] as const));
  // a path can only end with another when both end in the same last segment: compare within those
  const form = new Map(order.map((key) => [key, samePathForm(key)] as const));
  const byLastSegment = new Map<string, string[]>();
  for (const key of order) {
    const last = lastSegment(form.get(key)!);
    const group = byLastSegment.get(last);
    if (group === undefined) byLastSegment.set(last, [key]);
    else group.push(key);
  }
  for (const key of order) {
    const short = form.get(key)!;
    let longest: string | undefined;
    for (const other of byLastSegment.get(lastSegment(short))!) {
      if (other === key || !notes.has(other)) continue;
      const long = form.get(other)!;
      if ((long === short && other.length > key.length) || long.endsWith(`/${short}`)) {
        if (longest === undefined || other.length > longest.length) longest = other;
      }
    }
    if (longest === undefined) continue;
    const target = notes.get(longest)!;
    for (const note of notes.get(key)!) if (!target.includes(note)) target.push(note);
    place.set(longest, Math.min(place.get(longest)!, place.get(key)!));
    notes.delete(key);
  }
  return [...notes]
    .sort((a, b) => place.get(a[0])! - place.get(b[0])!)
    .map(([path, list]) => {
      const specific = list.length > 1 ? list.filter((note) => note !== "mentioned") : list;
      return specific.length > 0 ? `${path} — ${specific.join(", ")}` : path;
    });
}

/** A goal item of newer turns, marked as a later ask once an earlier goal exists. */
function asLaterAsk(item: string): string {
  return item.startsWith(LATER_ASK_PREFIX) ? item : LATER_ASK_PREFIX + item;
}

/** A goal item without its "Later: " mark, normalized for comparison. */
function goalKey(item: string): string {
  const bare = item.startsWith(LATER_ASK_PREFIX) ? item.slice(LATER_ASK_PREFIX.length) : item;
  return bare.replace(/\s+/g, " ").trim().toLowerCase();
}

/** Earlier goal items, then the newer ones as later asks, leaving out asks the earlier items already name. */
function mergeGoals(before: string[], now: string[]): string[] {
  const known = new Set(before.map(goalKey));
  return dedupe([...before, ...now.filter((item) => !known.has(goalKey(item))).map(asLaterAsk)]);
}

/**
 * Merges sections of a previous summary with new ones: previous items are kept unless superseded (the
 * current-state sections In Progress, Blocked and Next Steps take the new items when there are any),
 * new items are appended, duplicate lines removed.
 */
export function mergeSummaryItems(previous: SectionItems, current: SectionItems): SectionItems {
  const merged: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) {
    const before = previous[heading] ?? [];
    const now = current[heading] ?? [];
    if (heading === "## Relevant Files") merged[heading] = mergeFiles(before, now);
    else if (CURRENT_STATE.has(heading)) merged[heading] = now.length > 0 ? now : before;
    else if (heading === "## Goal" && before.length > 0) merged[heading] = mergeGoals(before, now);
    else merged[heading] = dedupe([...before, ...now]);
  }
  return merged;
}

/** Offline summarizer; the embedded default and the fallback when an LLM summary fails. */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = "extractive";
  private readonly tokenCounter: TokenCounter | undefined;
  private readonly groupFiles: boolean;

  /**
   * `tokenCounter` checks the summary against `maxTokens` (default: the shared tiktoken counter);
   * `groupFiles` writes Relevant Files grouped by directory as brace lists before dropping any over budget (default true).
   */
  constructor(options: { tokenCounter?: TokenCounter; groupFiles?: boolean } = {}) {
    this.tokenCounter = options.tokenCounter;
    this.groupFiles = options.groupFiles ?? true;
  }

  /**
   * Fills every template heading from the turns (merged into `previousSummary` when set), within
   * `maxTokens` counted by the token counter: items are dropped by salience (summaryPriority.ts), and
   * items about `focusTopic` are the last to go.
   */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const { sections, embeddedSummaries, actingCommands } = extractSections(request.messages);
    const previousTexts = [...(request.previousSummary?.trim() ? [request.previousSummary] : []), ...embeddedSummaries];
    const previous = previousTexts.map(summaryItems).reduce<SectionItems>((acc, items) => mergeSummaryItems(acc, items), {});
    const goal = sections["## Goal"] ?? [];
    const givenAsks = (request.goalContext ?? []).map((ask) => ask.replace(/\s+/g, " ").trim()).filter((ask) => ask !== "");
    // the goal of the summary before these turns carries forward when the turns state none
    const earlierGoal = request.precedingSummary?.trim() ? (summaryItems(request.precedingSummary)["## Goal"] ?? []) : [];
    const headAsks = dedupe([...givenAsks, ...earlierGoal]);
    // The first ask usually stays in the head, outside the turns: it still states the goal.
    const withGoal = headAsks.length > 0 && !goal.some((item) => !item.startsWith(LATER_ASK_PREFIX))
      ? { ...sections, "## Goal": [...headAsks.map((ask) => (ask.length > 300 ? ask.slice(0, 299) + "…" : ask)), ...goal] }
      : sections;
    const merged = redactSections(mergeSummaryItems(previous, withGoal));
    // the commands that acted come before those that only read, carried ones included
    merged["### Done"] = actingFirst(merged["### Done"] ?? [], actingCommands);
    const topic = request.focusTopic?.trim().toLowerCase();
    const start = sameTask(request.sessionStart, previous);
    const ages = itemAges(previous, withGoal, start);
    const fit: FitOptions = { bonus: ages.bonus, carried: ages.carried, carriedShare: CARRIED_SHARE, groupFiles: this.groupFiles, actingCommands };
    if (topic) fit.boost = (item: string) => item.toLowerCase().includes(topic);
    return fitWithinTokens(merged, Math.max(0, request.maxTokens), this.tokenCounter ?? defaultTokenCounter(), fit);
  }
}

/** Share of the summary's room the previous summary's items keep when the new turns need the rest (summaryPriority.ts pools). */
const CARRIED_SHARE = 0.35;

/** Priority added to items of the turns being summarized, and (a little less the older they are) to items of the previous summary. */
export const AGE_BONUS = 20;
/** Share of {@link AGE_BONUS} the previous summary's oldest item past the foundation keeps (its last keeps all of it). */
const OLDEST_FLOOR = 0.95;

/** Share of each section of the previous summary, its first items, taken as the session's foundation when the session's first summary is unknown. */
const FOUNDATION_SHARE = 0.1;
/** Added to {@link AGE_BONUS} for a foundation item: over a long horizon the task's setup outlasts the middle of the history. */
const FOUNDATION_BONUS = 30;

/** The rank of a previous summary's foundation item (ranks of the others are in [0, 1]). */
const FOUNDATION = 2;

/** Characters of an item that identify it across summaries (a packed line keeps at least these). */
const KEY_CHARS = 56;

/** The comparison key of an item: a file's path, a goal without its "Later: " mark, else the item itself. */
function itemKey(heading: SummaryHeading, item: string): string {
  if (heading === "## Relevant Files") return fileKey(item);
  // packing cuts long lines and a command's quiet outcome (summaryPacking.ts): an item keeps its key
  const text = heading === "## Goal" ? goalKey(item) : heading === "### Done" ? withoutCount(item).text.replace(/ → .*$/, "") : item;
  return text.replace(/\s+/g, " ").trim().toLowerCase().slice(0, KEY_CHARS);
}

/**
 * The age of each item: what the summarized turns say is fresh ({@link AGE_BONUS}); what only the previous
 * summary holds is carried, and among carried items the foundation — the items of the session's first
 * summary (`start`), else the first tenth of each section — ranks {@link FOUNDATION_BONUS} higher, then
 * the newer ones ({@link OLDEST_FLOOR} of AGE_BONUS for the oldest up to all of it for the last). Fresh and
 * carried items fit in their own shares of the budget (summaryPriority.ts pools), so over budget the middle
 * of the history goes first: the task's setup and the newest work stay.
 */
function itemAges(previous: SectionItems, current: SectionItems, start: SectionItems | undefined): { bonus: (heading: SummaryHeading, item: string) => number; carried: (heading: SummaryHeading, item: string) => boolean } {
  const fresh = new Map<SummaryHeading, Set<string>>();
  const rank = new Map<SummaryHeading, Map<string, number>>();
  for (const heading of SUMMARY_SECTIONS) {
    fresh.set(heading, new Set((current[heading] ?? []).map((item) => itemKey(heading, item))));
    const before = (previous[heading] ?? []).map((item) => itemKey(heading, item));
    const setup = start === undefined ? undefined : new Set((start[heading] ?? []).map((item) => itemKey(heading, item)));
    const isFoundation = (key: string, i: number) => (setup === undefined ? i < before.length * FOUNDATION_SHARE : setup.has(key));
    rank.set(heading, new Map(before.map((key, i) => [key, isFoundation(key, i) ? FOUNDATION : i / before.length] as const)));
  }
  // the fit asks for every item in each of its rounds: each item's age is worked out once
  const ages = new Map<string, { bonus: number; carried: boolean }>();
  const ageOf = (heading: SummaryHeading, item: string) => {
    const id = `${heading}\u0000${item}`;
    let age = ages.get(id);
    if (age === undefined) {
      const key = itemKey(heading, item);
      const place = fresh.get(heading)?.has(key) ? undefined : rank.get(heading)?.get(key);
      const bonus = fresh.get(heading)?.has(key) ? AGE_BONUS : place === FOUNDATION ? AGE_BONUS + FOUNDATION_BONUS : place === undefined ? 0 : Math.round(AGE_BONUS * (OLDEST_FLOOR + (1 - OLDEST_FLOOR) * place));
      ages.set(id, (age = { bonus, carried: place !== undefined }));
    }
    return age;
  };
  return { bonus: (heading, item) => ageOf(heading, item).bonus, carried: (heading, item) => ageOf(heading, item).carried };
}

/**
 * The items of the session's first summary when it states the same first goal as the previous summary
 * (a default session may serve another conversation: then it says nothing about this one).
 */
function sameTask(sessionStart: string | undefined, previous: SectionItems): SectionItems | undefined {
  if (!sessionStart?.trim()) return undefined;
  const start = summaryItems(sessionStart);
  const [first] = start["## Goal"] ?? [];
  const [now] = previous["## Goal"] ?? [];
  return first !== undefined && now !== undefined && goalKey(first) === goalKey(now) ? start : undefined;
}

/** Rounds of re-fitting when the token count of a laid-out summary is over the budget, or well under it while items were left out. */
const MAX_FIT_ROUNDS = 8;
/** A fitted summary using less than this share of its token budget while leaving items out is refitted larger. */
const FILL_SHARE = 0.95;

/**
 * The summary laid out within `maxTokens`: first within `maxTokens × 4` characters; then, while the
 * counter says it is over, again within a character budget scaled down by the measured ratio, or, while
 * it is well under and items were left out (paths and commands take fewer characters per token than
 * prose), scaled up; once one character budget was over and another under, halfway between them (a
 * budget a little larger can keep a whole group of items, so scaling alone swings back and forth). The
 * largest layout within the budget wins.
 */
function fitWithinTokens(sections: SectionItems, maxTokens: number, counter: TokenCounter, fit: FitOptions): string {
  let maxChars = Math.floor(maxTokens * EXTRACTIVE_CHARS_PER_TOKEN);
  const whole = fitByPriority(sections, Number.MAX_SAFE_INTEGER, fit).length;
  let best: string | undefined;
  let under = 0;
  let over = Number.POSITIVE_INFINITY;
  let text = fitByPriority(sections, maxChars, fit);
  for (let round = 0; round < MAX_FIT_ROUNDS && text.length > 0; round++) {
    const tokens = counter.count(text);
    if (tokens <= maxTokens) {
      if (best === undefined || text.length > best.length) best = text;
      if (tokens >= maxTokens * FILL_SHARE || maxChars >= whole) break;
      under = maxChars;
      maxChars = over === Number.POSITIVE_INFINITY ? Math.min(whole, Math.floor(maxChars * (maxTokens / tokens) * 0.98)) : Math.floor((under + over) / 2);
    } else {
      over = maxChars;
      maxChars = under === 0 ? Math.floor(Math.min(maxChars, text.length) * (maxTokens / tokens) * 0.98) : Math.floor((under + over) / 2);
    }
    if (maxChars <= under || maxChars >= over) break;
    text = fitByPriority(sections, maxChars, fit);
  }
  return best ?? text;
}

function redactSections(sections: SectionItems): SectionItems {
  const out: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) out[heading] = (sections[heading] ?? []).map(redactSecrets);
  return out;
}
