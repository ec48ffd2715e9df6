/** `lcm_expand`: a leaf's source messages verbatim, or a condensed node's children, paged by tokens. */
import { isSummaryId, parseMessageId } from "../messageText.js";
import type { StoredMessage, SummaryRecord } from "../store/LcmStore.js";
import { ToolError } from "./result.js";
import type { ToolContext } from "./types.js";

/** One page of an expansion. */
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
  items: ({ type: "message"; id: string; seq: number; message: StoredMessage["message"] } | { type: "summary"; id: string; kind: string; depth: number; covers: [number, number]; content: string })[];
}

/** The summary `id` of the current session, or a ToolError (not_found / not_expandable). */
export function requireSummary(ctx: ToolContext, id: string): SummaryRecord {
  if (parseMessageId(id) !== undefined) throw new ToolError("not_expandable", `${id} is a message, not a summary; lcm_describe shows the summary that covers it`);
  const summary = isSummaryId(id) ? ctx.store.getSummary(id) : undefined;
  if (!summary || summary.session !== ctx.session) throw new ToolError("not_found", `no summary ${id} in this session`);
  return summary;
}

/**
 * Expands summary `id` from source `offset`: whole sources are added while they fit in `maxTokens`
 * (the first one always, so paging makes progress); nothing is cut, the rest is on the next page.
 */
export function runExpand(ctx: ToolContext, id: string, maxTokens: number, offset: number): ExpansionPage {
  const summary = requireSummary(ctx, id);
  const sources = ctx.store.sourcesOf(summary.id);
  const page: ExpansionPage = { id: summary.id, kind: summary.kind, depth: summary.depth, covers: [summary.seqStart, summary.seqEnd], total: sources.length, offset, nextOffset: null, items: [] };
  const rest = sources.slice(offset);
  const messages = new Map(ctx.store.getMessages(rest.filter((s) => s.type === "message").map((s) => s.id)).map((m) => [m.id, m]));
  let used = 0;
  for (let i = 0; i < rest.length; i++) {
    const ref = rest[i]!;
    let tokens: number;
    let item: ExpansionPage["items"][number];
    if (ref.type === "message") {
      const m = messages.get(ref.id);
      if (!m) throw new ToolError("internal", `source ${ref.id} of ${summary.id} is missing`);
      tokens = m.tokens;
      item = { type: "message", id: m.id, seq: m.seq, message: m.message };
    } else {
      const s = ctx.store.getSummary(ref.id);
      if (!s) throw new ToolError("internal", `source ${ref.id} of ${summary.id} is missing`);
      tokens = s.tokens;
      item = { type: "summary", id: s.id, kind: s.kind, depth: s.depth, covers: [s.seqStart, s.seqEnd], content: s.content };
    }
    if (page.items.length > 0 && used + tokens > maxTokens) {
      page.nextOffset = offset + i;
      break;
    }
    page.items.push(item);
    used += tokens;
  }
  return page;
}
