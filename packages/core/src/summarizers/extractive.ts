/** The offline, deterministic summarizer: fills the SPEC §4 template from the turns themselves. */
import { LATER_ASK_PREFIX, extractSections } from "./extractiveSections.js";
import { EMPTY_SECTION_ITEM, normalizeSummary, splitSummarySections } from "./prompt.js";
import { redactSecrets } from "./redact.js";
import { dedupe } from "./extractiveText.js";
import { layoutSections } from "./summaryLayout.js";
import type { KeepEnd, SectionItems, SummaryHeading } from "./summaryLayout.js";
import { SUMMARY_SECTIONS } from "./types.js";
import type { SummaryRequest, Summarizer } from "./types.js";

/** Characters per token assumed when fitting the summary into `maxTokens`. */
export const EXTRACTIVE_CHARS_PER_TOKEN = 4;

/** Sections that describe the current state: new items replace the previous summary's. */
const CURRENT_STATE: ReadonlySet<SummaryHeading> = new Set<SummaryHeading>(["### In Progress", "### Blocked", "## Next Steps"]);

/** Which end of each section survives trimming. */
const KEEP_END: Partial<Record<SummaryHeading, KeepEnd>> = {
  "### Done": "tail",
  "### In Progress": "tail",
  "### Blocked": "tail",
  "## Key Decisions": "tail",
};

const NOT_AN_ITEM = /^(…|\.\.\.) \(\d+ (more|earlier) omitted\)$|^--- END OF CONTEXT SUMMARY/;

/** The items of each section of a summary text ("- (none)" placeholders and omission notes left out). */
export function summaryItems(summary: string): SectionItems {
  const { bodies } = splitSummarySections(normalizeSummary(summary));
  const items: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) {
    items[heading] = (bodies.get(heading) ?? [])
      .map((line) => line.trim().replace(/^[-*•]\s+/, ""))
      .filter((line) => line !== "" && line !== EMPTY_SECTION_ITEM.slice(2) && !NOT_AN_ITEM.test(line));
  }
  return items;
}

function fileKey(item: string): string {
  return item.split(" — ")[0] ?? item;
}

/** Merges "path — notes" items by path, notes in order of first appearance. */
function mergeFiles(previous: string[], current: string[]): string[] {
  const notes = new Map<string, string[]>();
  for (const item of [...previous, ...current]) {
    const key = fileKey(item);
    const list = notes.get(key) ?? [];
    const itemNotes = item.includes(" — ") ? item.slice(key.length + 3).split(", ") : [];
    for (const note of itemNotes) if (!list.includes(note)) list.push(note);
    notes.set(key, list);
  }
  return [...notes].map(([path, list]) => {
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

  /**
   * Fills every template heading from the turns (merged into `previousSummary` when set), within
   * `maxTokens` (about 4 characters a token). Items about `focusTopic` are the last to be trimmed.
   */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const { sections, embeddedSummaries } = extractSections(request.messages);
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
    const merged = mergeSummaryItems(previous, withGoal);
    const maxChars = Math.max(0, Math.floor(request.maxTokens * EXTRACTIVE_CHARS_PER_TOKEN));
    const focused = request.focusTopic?.trim() ? focusOn(merged, request.focusTopic.trim()) : merged;
    return layoutSections(redactSections(focused), maxChars, KEEP_END);
  }
}

/** Moves items that mention `topic` to the end of each section that survives trimming, so they are kept first. */
function focusOn(sections: SectionItems, topic: string): SectionItems {
  const needle = topic.toLowerCase();
  const out: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) {
    const items = sections[heading] ?? [];
    const matching = items.filter((item) => item.toLowerCase().includes(needle));
    const others = items.filter((item) => !item.toLowerCase().includes(needle));
    out[heading] = (KEEP_END[heading] ?? "head") === "tail" ? [...others, ...matching] : [...matching, ...others];
  }
  return out;
}

function redactSections(sections: SectionItems): SectionItems {
  const out: SectionItems = {};
  for (const heading of SUMMARY_SECTIONS) out[heading] = (sections[heading] ?? []).map(redactSecrets);
  return out;
}
