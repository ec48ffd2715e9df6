/** `lcm_describe`: a summary's metadata and lineage, a message's place, or the session overview. */
import { isSummaryId, parseMessageId } from "../messageText.js";
import { ContextCoverage } from "./coverage.js";
import { ToolError } from "./result.js";
import type { ToolContext } from "./types.js";

const LEVEL_NAMES = { 1: "normal", 2: "aggressive", 3: "deterministic_fallback" } as const;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Runs `lcm_describe`; `id` undefined gives the session overview. */
export function runDescribe(ctx: ToolContext, id: string | undefined): Record<string, unknown> {
  if (id === undefined) return overview(ctx);
  const coverage = new ContextCoverage(ctx.store, ctx.session);
  if (isSummaryId(id)) {
    const s = ctx.store.getSummary(id);
    if (!s || s.session !== ctx.session) throw new ToolError("not_found", `no summary ${id} in this session`);
    return {
      type: "summary",
      id: s.id,
      kind: s.kind,
      depth: s.depth,
      level: s.level,
      levelName: LEVEL_NAMES[s.level],
      tokens: s.tokens,
      sourceTokens: s.sourceTokens,
      covers: [s.seqStart, s.seqEnd],
      created_at: iso(s.createdAt),
      inContext: coverage.isInContext(s.id, s.seqStart, s.seqEnd),
      coveredBy: coverage.coveredBy(s.id, s.seqStart, s.seqEnd),
      sources: ctx.store.sourcesOf(s.id),
      parents: ctx.store.parentsOf(s.id),
      content: s.content,
    };
  }
  if (parseMessageId(id) !== undefined) {
    const m = ctx.store.getMessage(id);
    if (!m || m.session !== ctx.session) throw new ToolError("not_found", `no message ${id} in this session`);
    return {
      type: "message",
      id: m.id,
      seq: m.seq,
      role: m.role,
      tokens: m.tokens,
      created_at: iso(m.createdAt),
      inContext: coverage.isInContext(m.id, m.seq),
      coveredBy: coverage.coveredBy(m.id, m.seq),
      parents: ctx.store.parentsOf(m.id),
    };
  }
  throw new ToolError("not_found", `${JSON.stringify(id)} is neither a summary id (sum_…) nor a message id (msg_…)`);
}

function overview(ctx: ToolContext): Record<string, unknown> {
  const counts = ctx.store.summaryCounts(ctx.session);
  const byDepth: Record<string, number> = {};
  const byLevel: Record<string, number> = { normal: 0, aggressive: 0, deterministic_fallback: 0 };
  let total = 0;
  for (const c of counts) {
    byDepth[String(c.depth)] = (byDepth[String(c.depth)] ?? 0) + c.n;
    byLevel[LEVEL_NAMES[c.level]] = (byLevel[LEVEL_NAMES[c.level]] ?? 0) + c.n;
    total += c.n;
  }
  const items = ctx.store.contextItems(ctx.session);
  const last = ctx.store.lastCompaction(ctx.session);
  return {
    type: "session",
    session: ctx.session,
    messages: ctx.store.messageCount(ctx.session),
    summaries: { total, byDepth, byLevel },
    fallbackSummaries: byLevel.deterministic_fallback,
    context: { items: items.length, summaries: items.filter((i) => i.type === "summary").length, messages: items.filter((i) => i.type === "message").length },
    lastCompaction: last
      ? { at: iso(last.at), passes: last.passes, tokensBefore: last.tokensBefore, tokensAfter: last.tokensAfter, summariesCreated: last.summariesCreated, fallbackSummaries: last.fallbackSummaries }
      : null,
  };
}
