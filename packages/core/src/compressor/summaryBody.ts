/**
 * The new summary's text: a summarizer's answer cleaned of framing it echoed back, cut to a character
 * budget without losing a template heading, and framed (prefix and end marker) for the conversation.
 */
import { SUMMARY_END_MARKER, SUMMARY_PREFIX } from "../messages/compactionMarker.js";
import { summaryItems } from "../summarizers/extractive.js";
import { layoutSections } from "../summarizers/summaryLayout.js";
import { withoutEchoedFraming } from "./earlierSummaries.js";

/** Longest summary a fallback (offline) summarizer may contribute, in characters. */
export const FALLBACK_SUMMARY_MAX_CHARS = 8_000;

/** The full text of a summary message for `summary` (the template body). */
export function formatSummaryContent(summary: string): string {
  return `${SUMMARY_PREFIX}\n\n${summary.trim()}\n\n${SUMMARY_END_MARKER}`;
}

/**
 * Cleans a summarizer's output into a template body: trims it and drops a compaction prefix or end
 * marker the model echoed back. `maxChars` caps it (used for fallback summaries).
 */
export function cleanSummaryBody(raw: string, maxChars?: number): string {
  let body = withoutEchoedFraming(raw.trim());
  body = body.split(SUMMARY_END_MARKER).join("").trim();
  if (maxChars !== undefined && body.length > maxChars) body = fitSummaryToChars(body, maxChars);
  return body;
}

/**
 * A summary cut down to `maxChars` without losing a template heading: its sections are laid out again
 * within the budget (each trimmed evenly); only if even that does not fit is the text cut.
 */
export function fitSummaryToChars(summary: string, maxChars: number): string {
  if (summary.length <= maxChars) return summary;
  const laidOut = layoutSections(summaryItems(summary), maxChars);
  if (laidOut.length <= maxChars) return laidOut;
  return `${laidOut.slice(0, Math.max(0, maxChars - 20)).trimEnd()}\n...[truncated]`;
}
