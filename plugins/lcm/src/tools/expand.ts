/**
 * `lcm_expand`: a leaf's source messages verbatim, a condensed node's children, or one message's text,
 * paged within the caller's token budget. A source too large for the budget is cut, and the page says
 * where its rest is (the message id and a character offset).
 */
import type { ChatMessage, TokenCounter } from "../core.js";
import type { z } from "../deps.js";
import { isSummaryId, parseMessageId, verbatimText } from "../messageText.js";
import type { StoredMessage, SummaryRecord } from "../store/LcmStore.js";
import type { SessionScope } from "../store/search.js";
import { ToolError } from "./result.js";
import type { ExpandArgsSchema } from "./schemas.js";
import { inScope, resolveSessions, summaryInReach } from "./sessionScope.js";
import type { ToolContext } from "./types.js";

/** Tokens kept back from the budget for the page's own fields and each item's envelope. */
const PAGE_OVERHEAD_TOKENS = 60;
const ITEM_OVERHEAD_TOKENS = 24;

/** A message source, whole or cut to the budget. */
type MessageItem =
  | { type: "message"; id: string; seq: number; message: ChatMessage }
  | { type: "message"; id: string; seq: number; role: string; cut: true; text: string; total_chars: number; continue: { id: string; offset: number } };

/** A summary source (a condensed node's child), whole or cut to the budget. */
type SummaryItem = { type: "summary"; id: string; kind: string; depth: number; covers: [number, number]; content: string; cut?: true };

/** One page of a summary's expansion. */
export interface ExpansionPage {
  id: string;
  kind: "leaf" | "condensed";
  depth: number;
  covers: [number, number];
  /** Number of sources in total. */
  total: number;
  offset: number;
  /** Offset of the next page, or null when this page reaches the end. */
  nextOffset: number | null;
  items: (MessageItem | SummaryItem)[];
  /** Set when a source was cut to the budget: where its rest is. */
  note?: string;
  /** Set when the `maxTokens` asked for was above lcm.max_expand_tokens: the budget used. */
  capped?: string;
}

/** One page of a message's text. */
export interface MessagePage {
  id: string;
  type: "message";
  seq: number;
  role: string;
  /** The message verbatim, when it fits the budget whole. */
  message?: ChatMessage;
  /** Otherwise its text (content and tool calls) from `offset`, as much as fits. */
  text?: string;
  total_chars: number;
  offset: number;
  /** Character offset of the rest, or null when this page reaches the end. */
  nextOffset: number | null;
  /** Set when the `maxTokens` asked for was above lcm.max_expand_tokens: the budget used. */
  capped?: string;
}

/**
 * The end index `e` such that `text.slice(from, e)` stays within `budget` tokens as `counter` counts them
 * (at least one character, so paging makes progress).
 */
export function prefixWithinTokens(text: string, from: number, budget: number, counter: TokenCounter): number {
  const rest = text.length - from;
  const total = counter.count(text.slice(from));
  if (total <= budget) return text.length;
  let chars = Math.max(1, Math.floor((rest * budget) / Math.max(1, total)));
  while (chars > 1 && counter.count(text.slice(from, from + chars)) > budget) chars = Math.max(1, Math.floor(chars * 0.9));
  return from + chars;
}

/** Text budget for `maxTokens`: the overheads off, and a margin for the JSON escaping of the text. */
function textBudget(maxTokens: number): number {
  return Math.max(1, Math.floor((maxTokens - PAGE_OVERHEAD_TOKENS - ITEM_OVERHEAD_TOKENS) * 0.9));
}

/** Runs `lcm_expand` with validated arguments: a summary's sources, or a message's text. */
export async function runExpand(ctx: ToolContext, args: z.output<typeof ExpandArgsSchema>): Promise<ExpansionPage | MessagePage> {
  const sessions = await resolveSessions(ctx, args.sessions);
  const maxTokens = Math.min(args.maxTokens, ctx.maxExpandTokens ?? args.maxTokens);
  const page =
    parseMessageId(args.id) !== undefined
      ? expandMessage(ctx, await requireMessage(ctx, args.id, sessions), maxTokens, args.offset)
      : await expandSummary(ctx, await requireSummary(ctx, args.id, sessions), maxTokens, args.offset);
  if (maxTokens < args.maxTokens) page.capped = `maxTokens ${args.maxTokens} is above lcm.max_expand_tokens: this page holds at most ${maxTokens} tokens; page on with offset`;
  return page;
}

async function requireMessage(ctx: ToolContext, id: string, sessions: SessionScope): Promise<StoredMessage> {
  const message = await ctx.store.getMessage(id);
  if (!message || !inScope(sessions, message.session)) throw new ToolError("not_found", `no message ${id} in ${scopeName(sessions)}`);
  return message;
}

/** The summary `id` in `sessions`, or a ToolError (not_found). */
export async function requireSummary(ctx: ToolContext, id: string, sessions: SessionScope): Promise<SummaryRecord> {
  const summary = isSummaryId(id) ? await ctx.store.getSummary(id) : undefined;
  if (!summary || !(await summaryInReach(ctx, sessions, summary))) throw new ToolError("not_found", `no summary ${id} in ${scopeName(sessions)}`);
  return summary;
}

function scopeName(sessions: SessionScope): string {
  return sessions === "all" ? "the store" : sessions.length === 1 ? "this session" : "this conversation's sessions";
}

/** A message whole when it fits, else its text from `offset` as far as the budget allows. */
function expandMessage(ctx: ToolContext, m: StoredMessage, maxTokens: number, offset: number): MessagePage {
  const base = { id: m.id, type: "message" as const, seq: m.seq, role: m.role };
  const text = verbatimText(m.message);
  if (offset === 0 && m.tokens + PAGE_OVERHEAD_TOKENS <= maxTokens) return { ...base, message: m.message, total_chars: text.length, offset: 0, nextOffset: null };
  if (offset > text.length) throw new ToolError("invalid_arguments", `offset ${offset} is past the end of ${m.id} (${text.length} characters)`);
  const end = prefixWithinTokens(text, offset, textBudget(maxTokens), ctx.counter);
  return { ...base, text: text.slice(offset, end), total_chars: text.length, offset, nextOffset: end < text.length ? end : null };
}

/**
 * Expands summary `summary` from source `offset`: whole sources are added while they fit in `maxTokens`;
 * a first source too large for it alone is cut (a message's text, or a child summary's content) and the
 * page's note says how to read its rest. The remaining sources are on the next page.
 */
async function expandSummary(ctx: ToolContext, summary: SummaryRecord, maxTokens: number, offset: number): Promise<ExpansionPage> {
  const sources = await ctx.store.sourcesOf(summary.id);
  const page: ExpansionPage = { id: summary.id, kind: summary.kind, depth: summary.depth, covers: [summary.seqStart, summary.seqEnd], total: sources.length, offset, nextOffset: null, items: [] };
  const rest = sources.slice(offset);
  const [storedMessages, childSummaries] = await Promise.all([
    ctx.store.getMessages(rest.filter((s) => s.type === "message").map((s) => s.id)),
    Promise.all(rest.filter((s) => s.type === "summary").map((s) => ctx.store.getSummary(s.id))),
  ]);
  const messages = new Map(storedMessages.map((m) => [m.id, m]));
  const summaries = new Map(childSummaries.filter((s) => s !== undefined).map((s) => [s.id, s]));
  let used = PAGE_OVERHEAD_TOKENS;
  for (let i = 0; i < rest.length; i++) {
    const ref = rest[i]!;
    const fits = (tokens: number) => used + tokens + ITEM_OVERHEAD_TOKENS <= maxTokens;
    if (ref.type === "message") {
      const m = messages.get(ref.id);
      if (!m) throw new ToolError("internal", `source ${ref.id} of ${summary.id} is missing`);
      if (!fits(m.tokens)) {
        if (page.items.length === 0) page.items.push(cutMessage(ctx, m, maxTokens, page));
        page.nextOffset = offset + i + (page.items.length === 1 && i === 0 ? 1 : 0);
        break;
      }
      page.items.push({ type: "message", id: m.id, seq: m.seq, message: m.message });
      used += m.tokens + ITEM_OVERHEAD_TOKENS;
    } else {
      const s = summaries.get(ref.id);
      if (!s) throw new ToolError("internal", `source ${ref.id} of ${summary.id} is missing`);
      const item: SummaryItem = { type: "summary", id: s.id, kind: s.kind, depth: s.depth, covers: [s.seqStart, s.seqEnd], content: s.content };
      if (!fits(s.tokens)) {
        if (page.items.length === 0) {
          const end = prefixWithinTokens(s.content, 0, textBudget(maxTokens), ctx.counter);
          page.items.push({ ...item, content: s.content.slice(0, end), cut: true });
          page.note = `summary ${s.id} is larger than maxTokens ${maxTokens}: its start is shown; call lcm_expand with id "${s.id}" for its sources, or a larger maxTokens`;
        }
        page.nextOffset = offset + i + (page.items.length === 1 && i === 0 ? 1 : 0);
        break;
      }
      page.items.push(item);
      used += s.tokens + ITEM_OVERHEAD_TOKENS;
    }
  }
  if (page.nextOffset !== null && page.nextOffset >= sources.length) page.nextOffset = null;
  return page;
}

/** The first part of a message that alone exceeds the budget, with where its rest is (noted on the page). */
function cutMessage(ctx: ToolContext, m: StoredMessage, maxTokens: number, page: ExpansionPage): MessageItem {
  const text = verbatimText(m.message);
  const end = prefixWithinTokens(text, 0, textBudget(maxTokens), ctx.counter);
  page.note = `source ${m.id} is ${m.tokens} tokens, more than maxTokens ${maxTokens}: its first ${end} of ${text.length} characters are shown; call lcm_expand with id "${m.id}" and offset ${end} for the rest (or a larger maxTokens)`;
  return { type: "message", id: m.id, seq: m.seq, role: m.role, cut: true, text: text.slice(0, end), total_chars: text.length, continue: { id: m.id, offset: end } };
}
