/** `lcm_describe`: a summary's metadata and lineage, a message's place, or an overview of the sessions. */
import type { z } from "../deps.js";
import { isSummaryId, parseMessageId } from "../messageText.js";
import { ContextCoverage } from "./coverage.js";
import { ToolError } from "./result.js";
import type { DescribeArgsSchema } from "./schemas.js";
import { inScope, resolveSessions, summaryInReach } from "./sessionScope.js";
import type { ToolContext } from "./types.js";

const LEVEL_NAMES = { 1: "normal", 2: "aggressive", 3: "deterministic_fallback" } as const;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Sessions an overview of several sessions lists at most. */
export const MAX_DESCRIBED_SESSIONS = 100;

/**
 * Runs `lcm_describe`: a summary or message by id (in the sessions `args.sessions` names), or without
 * id the overview of the current session, or a short overview of each session in scope.
 */
export async function runDescribe(ctx: ToolContext, args: z.output<typeof DescribeArgsSchema>): Promise<Record<string, unknown>> {
  const sessions = await resolveSessions(ctx, args.sessions);
  const beyond = args.sessions !== "current";
  const id = args.id;
  if (id === undefined) return beyond ? sessionList(ctx, sessions) : overview(ctx, ctx.session);
  if (isSummaryId(id)) {
    const s = await ctx.store.getSummary(id);
    if (!s || !(await summaryInReach(ctx, sessions, s))) throw new ToolError("not_found", `no summary ${id} in ${beyond ? "these sessions" : "this session"}`);
    const [coverage, sources, parents] = await Promise.all([ContextCoverage.load(ctx.store, s.session), ctx.store.sourcesOf(s.id), ctx.store.parentsOf(s.id)]);
    return {
      type: "summary",
      id: s.id,
      ...(beyond || s.session !== ctx.session ? { session: s.session } : {}),
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
      sources,
      parents,
      content: s.content,
    };
  }
  if (parseMessageId(id) !== undefined) {
    const m = await ctx.store.getMessage(id);
    if (!m || !inScope(sessions, m.session)) throw new ToolError("not_found", `no message ${id} in ${beyond ? "these sessions" : "this session"}`);
    const [coverage, parents] = await Promise.all([ContextCoverage.load(ctx.store, m.session), ctx.store.parentsOf(m.id)]);
    return {
      type: "message",
      id: m.id,
      ...(beyond ? { session: m.session } : {}),
      seq: m.seq,
      role: m.role,
      tokens: m.tokens,
      created_at: iso(m.createdAt),
      inContext: coverage.isInContext(m.id, m.seq),
      coveredBy: coverage.coveredBy(m.id, m.seq),
      parents,
    };
  }
  throw new ToolError("not_found", `${JSON.stringify(id)} is neither a summary id (sum_…) nor a message id (msg_…)`);
}

/** Each session's counts and last compaction, the current one marked; at most {@link MAX_DESCRIBED_SESSIONS}. */
async function sessionList(ctx: ToolContext, sessions: readonly string[]): Promise<Record<string, unknown>> {
  const listed = await Promise.all(
    sessions.slice(0, MAX_DESCRIBED_SESSIONS).map(async (session) => {
      const [last, messages, counts] = await Promise.all([ctx.store.lastCompaction(session), ctx.store.messageCount(session), ctx.store.summaryCounts(session)]);
      return { session, current: session === ctx.session, messages, summaries: counts.reduce((n, c) => n + c.n, 0), lastCompaction: last ? iso(last.at) : null };
    }),
  );
  return { type: "sessions", count: sessions.length, ...(sessions.length > listed.length ? { listed: listed.length } : {}), sessions: listed };
}

async function overview(ctx: ToolContext, session: string): Promise<Record<string, unknown>> {
  const [counts, items, last, messages] = await Promise.all([ctx.store.summaryCounts(session), ctx.store.contextItems(session), ctx.store.lastCompaction(session), ctx.store.messageCount(session)]);
  const byDepth: Record<string, number> = {};
  const byLevel: Record<string, number> = { normal: 0, aggressive: 0, deterministic_fallback: 0 };
  let total = 0;
  for (const c of counts) {
    byDepth[String(c.depth)] = (byDepth[String(c.depth)] ?? 0) + c.n;
    byLevel[LEVEL_NAMES[c.level]] = (byLevel[LEVEL_NAMES[c.level]] ?? 0) + c.n;
    total += c.n;
  }
  return {
    type: "session",
    session,
    messages,
    summaries: { total, byDepth, byLevel },
    fallbackSummaries: byLevel.deterministic_fallback,
    context: { items: items.length, summaries: items.filter((i) => i.type === "summary").length, messages: items.filter((i) => i.type === "message").length },
    lastCompaction: last
      ? { at: iso(last.at), passes: last.passes, tokensBefore: last.tokensBefore, tokensAfter: last.tokensAfter, summariesCreated: last.summariesCreated, fallbackSummaries: last.fallbackSummaries }
      : null,
  };
}
