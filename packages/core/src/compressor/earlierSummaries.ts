/**
 * Recognizing what an earlier compaction left in a conversation: its summary message — pure, or merged
 * into a turn's own text — told apart by the compaction prefix and end marker, and its note on the system
 * prompt. Also the turns a summarizer should see once those summaries are taken out. Pure.
 */
import type { ChatMessage, ContentPart } from "../messages/schema.js";
import {
  COMPACTION_TAG,
  LEGACY_SUMMARY_PREFIX,
  SUMMARY_END_MARKER,
  SUMMARY_PREFIX,
  hasCompactionSignature,
  isLegacySummaryText,
} from "../messages/compactionMarker.js";
import { hasNonTextParts, messageText } from "./content.js";

export { COMPACTION_TAG, SUMMARY_END_MARKER, SUMMARY_PREFIX };

/** Appended to the system prompt on the first compaction only. */
export const COMPACTION_SYSTEM_NOTE =
  "[Note: Some earlier conversation turns have been compacted into a summary to save context space. " +
  "The summary is background reference; respond to the most recent messages, and use your tools to re-read anything you need.]";

/** A summary message found in a conversation: the summary body and any text merged after it. */
export interface ParsedSummary {
  summary: string;
  /** The own text of a tail message the summary was merged into (after the end marker, or before the summary); "" for a pure summary. */
  rest: string;
}

/** The text after the first line (the whole text when it has one line). */
function afterFirstLine(text: string): string {
  const newline = text.indexOf("\n");
  return newline === -1 ? "" : text.slice(newline);
}

/** Splits a summary body from text merged after its end marker. */
function splitAtEndMarker(body: string): ParsedSummary {
  const marker = body.indexOf(SUMMARY_END_MARKER);
  if (marker === -1) return { summary: body.trim(), rest: "" };
  return { summary: body.slice(0, marker).trim(), rest: body.slice(marker + SUMMARY_END_MARKER.length).trim() };
}

/**
 * A summary merged after a message's own text (`<text>\n…SUMMARY_PREFIX…SUMMARY_END_MARKER` at the end):
 * the summary body, and the message's own text as `rest`.
 */
function parseTrailingSummary(text: string): ParsedSummary | undefined {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(SUMMARY_END_MARKER)) return undefined;
  const start = trimmed.lastIndexOf(`\n${SUMMARY_PREFIX}`);
  if (start === -1) return undefined;
  const body = trimmed.slice(start + 1 + SUMMARY_PREFIX.length, trimmed.length - SUMMARY_END_MARKER.length);
  return { summary: body.trim(), rest: trimmed.slice(0, start).trim() };
}

/**
 * Splits one of our summaries into body and the message's own text; undefined for anything else. Ours
 * means: it starts with the signed tag (see messages/compactionMarker.ts), or it is an older version's
 * summary with its full prefix and end marker, or own text followed by a signed summary that ends the
 * message (a summary merged after a tail message's text). A turn that merely starts with `[CONTEXT COMPACTION]` is a real turn.
 */
export function parseSummaryText(text: string): ParsedSummary | undefined {
  if (text.startsWith(SUMMARY_PREFIX)) return splitAtEndMarker(text.slice(SUMMARY_PREFIX.length));
  // another framing of ours (lcm's summary block, a summary handed over as an earlier one): the first line is framing
  if (hasCompactionSignature(text)) return splitAtEndMarker(afterFirstLine(text));
  if (isLegacySummaryText(text, LEGACY_SUMMARY_PREFIX)) return splitAtEndMarker(text.slice(LEGACY_SUMMARY_PREFIX.length));
  return parseTrailingSummary(text);
}

/** A summarizer's output without the framing it echoed back (any prefix starting with the tag, signed or not). */
export function withoutEchoedFraming(text: string): string {
  if (!text.startsWith(COMPACTION_TAG)) return text;
  const prefix = [SUMMARY_PREFIX, LEGACY_SUMMARY_PREFIX].find((p) => text.startsWith(p));
  return splitAtEndMarker(prefix === undefined ? afterFirstLine(text) : text.slice(prefix.length)).summary;
}

/** The summary a previous compaction left in `message`, if it is one (pure or merged). */
export function parseSummaryMessage(message: ChatMessage): ParsedSummary | undefined {
  if (message.role !== "user" && message.role !== "assistant") return undefined;
  const content = message.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? messageText(message) : "";
  return parseSummaryText(text);
}

/** True for a message that is nothing but a compaction summary (not a real user or assistant turn). */
export function isPureSummaryMessage(message: ChatMessage): boolean {
  return isPureSummary(message, parseSummaryMessage(message));
}

/**
 * {@link isPureSummaryMessage} for a message whose summary (`parsed`, if any) was already found. A summary
 * merged into a turn that has calls or non-text parts (an ask that is only an image) is not pure: the turn is real.
 */
export function isPureSummary(message: ChatMessage, parsed: ParsedSummary | undefined): boolean {
  return parsed !== undefined && parsed.rest === "" && (message.tool_calls?.length ?? 0) === 0 && !hasNonTextParts(message);
}

/** True for a user message the user wrote (not a compaction summary). */
export function isRealUserMessage(message: ChatMessage): boolean {
  return message.role === "user" && !isPureSummaryMessage(message);
}

/** True when a system message already carries the compaction note. */
export function hasCompactionNote(message: ChatMessage | undefined): boolean {
  return message !== undefined && message.role === "system" && messageText(message).includes(COMPACTION_SYSTEM_NOTE);
}

/** Index of the newest summary message in `messages[from, to)`, or -1. */
export function findLatestSummaryIndex(messages: readonly ChatMessage[], from = 0, to = messages.length): number {
  for (let i = Math.min(to, messages.length) - 1; i >= from; i--) {
    const message = messages[i]!;
    if (message.role !== "user" && message.role !== "assistant") continue;
    if (parseSummaryMessage(message) !== undefined) return i;
  }
  return -1;
}

/** The body of the newest summary message in `messages[from, to)`, if any. */
export function findLatestSummary(messages: readonly ChatMessage[], from = 0, to = messages.length): string | undefined {
  const index = findLatestSummaryIndex(messages, from, to);
  return index === -1 ? undefined : parseSummaryMessage(messages[index]!)?.summary;
}

/** The turns a summarizer should see: older summary messages dropped, merged ones reduced to their own text. */
export function turnsForSummary(middle: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of middle) {
    const turn = summaryTurn(message, parseSummaryMessage(message));
    if (turn !== undefined) out.push(turn);
  }
  return out;
}

/**
 * What `message` is to a summarizer, given the summary found in it (`parsed`, if any): itself; its own
 * text (and its non-text parts, such as images) without a merged summary; its calls alone; or nothing (a pure summary).
 */
export function summaryTurn(message: ChatMessage, parsed: ParsedSummary | undefined): ChatMessage | undefined {
  if (parsed === undefined) return message;
  if (hasNonTextParts(message)) return { ...message, content: withoutMergedSummary(message.content as ContentPart[], parsed.rest) };
  if (parsed.rest !== "") return { ...message, content: parsed.rest };
  return (message.tool_calls?.length ?? 0) > 0 ? { ...message, content: null } : undefined;
}

/** A merged message's parts with its text replaced by its own text `rest` (dropped when empty); the other parts kept in place. */
function withoutMergedSummary(parts: readonly ContentPart[], rest: string): ContentPart[] {
  const own: ContentPart[] = rest === "" ? [] : [{ type: "text", text: rest }];
  return [...own, ...parts.filter((part) => typeof (part as { text?: unknown }).text !== "string")];
}
