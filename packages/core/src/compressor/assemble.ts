/**
 * Assembling, the last step: head (+ the system note on the first compaction), the summary message with a role that keeps
 * user/assistant alternating, then the tail unchanged (but for images older than the newest image turn,
 * which become placeholders); dangling tool pairs are repaired at the end.
 */
import type { ChatMessage } from "../messages/schema.js";
import { sanitizeToolPairs } from "../messages/toolPairs.js";
import { appendText, prependText } from "./content.js";
import { stripHistoricalImages } from "./historicalImages.js";
import { COMPACTION_SYSTEM_NOTE, hasCompactionNote } from "./earlierSummaries.js";
import { formatSummaryContent } from "./summaryBody.js";

/** Inputs of {@link assembleCompressed}. */
export interface AssembleInput {
  head: readonly ChatMessage[];
  /** The summary body (the filled template, without prefix or end marker). */
  summary: string;
  tail: readonly ChatMessage[];
  /** Appends the compaction note to the system prompt (first compaction only; never twice). */
  isFirstCompaction: boolean;
}

/** The assembled conversation and the choices made. */
export interface AssembleResult {
  messages: ChatMessage[];
  /** The role the summary was given (also the role of the tail message it was merged into). */
  summaryRole: "user" | "assistant";
  /** True when both roles collided and the summary was prepended to the first tail message. */
  mergedIntoTail: boolean;
  /** True when the compaction note was appended to the system prompt. */
  noteAdded: boolean;
}

type SummaryPlacement = { role: "user" | "assistant"; merge: boolean };

/**
 * True when the summary must be the first visible (user) message: only the system prompt is kept, or
 * no user message would survive. Merged into a tail message (then a user message), it goes before the message's own text.
 */
export function summaryMustLead(head: readonly ChatMessage[], tail: readonly ChatMessage[]): boolean {
  const onlySystemKept = head.every((m) => m.role === "system");
  const noUserSurvives = !head.some((m) => m.role === "user") && !tail.some((m) => m.role === "user");
  return onlySystemKept || noUserSurvives;
}

/**
 * The summary's role: `user` when only the system prompt is kept or no user message would survive
 * (Anthropic wants a user message first); otherwise the role that differs from both neighbours; when
 * both collide, merge into the first tail message: before a user message's own content (so the ask stays
 * last in its message, after the end marker), after an assistant message's own text (so the end marker
 * closes it, before the next message).
 */
export function chooseSummaryPlacement(head: readonly ChatMessage[], tail: readonly ChatMessage[]): SummaryPlacement {
  const previous = head.at(-1)?.role;
  const next = tail[0]?.role;
  if (summaryMustLead(head, tail)) return { role: "user", merge: next === "user" };
  const preferred: "user" | "assistant" = previous === "assistant" || previous === "tool" ? "user" : "assistant";
  if (preferred !== next) return { role: preferred, merge: false };
  const flipped: "user" | "assistant" = preferred === "user" ? "assistant" : "user";
  if (flipped !== previous) return { role: flipped, merge: false };
  return { role: preferred, merge: true };
}

/** Noted copies by original system message (same input → same object, so its token count stays memoized). */
const notedCache = new WeakMap<ChatMessage, { content: ChatMessage["content"]; noted: ChatMessage }>();

/** A copy of the system prompt with {@link COMPACTION_SYSTEM_NOTE} appended. */
export function withCompactionNote(system: ChatMessage): ChatMessage {
  const cached = notedCache.get(system);
  if (cached && cached.content === system.content) return cached.noted;
  const noted = appendText(system, COMPACTION_SYSTEM_NOTE);
  notedCache.set(system, { content: system.content, noted });
  return noted;
}

/**
 * Builds head + summary + tail (see the file comment), turns images older than the newest image turn
 * into placeholders, then runs `sanitizeToolPairs`. Never mutates its inputs.
 */
export function assembleCompressed(input: AssembleInput): AssembleResult {
  const head = input.head.slice();
  let noteAdded = false;
  const first = head[0];
  if (input.isFirstCompaction && first !== undefined && first.role === "system" && !hasCompactionNote(first)) {
    head[0] = withCompactionNote(first);
    noteAdded = true;
  }
  const content = formatSummaryContent(input.summary);
  const placement = chooseSummaryPlacement(head, input.tail);
  const tail = input.tail.slice();
  const out: ChatMessage[] = head;
  if (placement.merge && tail[0] !== undefined) {
    // A user carrier keeps its own content (the ask, an image) after the end marker, last in its message;
    // an assistant carrier's reply comes first and the end marker closes the message.
    tail[0] = tail[0].role === "user" ? prependText(tail[0], content) : appendText(tail[0], content);
  } else {
    out.push({ role: placement.role, content });
  }
  for (const message of tail) out.push(message);
  return { messages: sanitizeToolPairs(stripHistoricalImages(out)), summaryRole: placement.role, mergedIntoTail: placement.merge, noteAdded };
}
