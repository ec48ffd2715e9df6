/** `lcm_describe`: a summary's metadata and lineage, a message's place, or an overview of the sessions. */
import type { z } from "../deps.js";
import { isSummaryId, parseMessageId } from "../messageText.js";
import { ContextCoverage } from "./coverage.js";
import { ToolError } from "./result.js";
import type { DescribeArgsSchema } from "./schemas.js";
import { inScope, resolveSessions } from "./sessionScope.js";
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
export function runDescribe(ctx: ToolContext, args: z.output<typeof DescribeArgsSchema>): Record<string, unknown> {
  const sessions = resolveSessions(ctx, args.sessions);
  const beyond = args.sessions !== "current";
  const id = args.id;
  if (id === undefined) return beyond ? sessionList(ctx, sessions === "all" ? ctx.store.sessions() : sessions) : overview(ctx, ctx.session);
  if (isSummaryId(id)) {
    const s = ctx.store.getSummary(id);
    if (!s || !inScope(sessions, s.session)) throw new ToolError("not_found", `no summary ${id} in ${beyond ? "these sessions" : "this session"}`);
    const coverage = new ContextCoverage(ctx.store, s.session);
    return {
      type: "summary",
      id: s.id,
      ...(beyond ? { session: s.session } : {}),
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
    if (!m || !inScope(sessions, m.session)) throw new ToolError("not_found", `no message ${id} in ${beyond ? "these sessions" : "this session"}`);
    const coverage = new ContextCoverage(ctx.store, m.session);
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
      parents: ctx.store.parentsOf(m.id),
    };
  }
  throw new ToolError("not_found", `${JSON.stringify(id)} is neither a summary id (sum_…) nor a message id (msg_…)`);
}

/** Each session's counts and last compaction, the current one marked; at most {@link MAX_DESCRIBED_SESSIONS}. */
function sessionList(ctx: ToolContext, sessions: readonly string[]): Record<string, unknown> {
  const listed = sessions.slice(0, MAX_DESCRIBED_SESSIONS).map((session) => {
    const last = ctx.store.lastCompaction(session);
    return {
      session,
      current: session === ctx.session,
      messages: ctx.store.messageCount(session),
      summaries: ctx.store.summaryCounts(session).reduce((n, c) => n + c.n, 0),
      lastCompaction: last ? iso(last.at) : null,
    };
  });
  return { type: "sessions", count: sessions.length, ...(sessions.length > listed.length ? { listed: listed.length } : {}), sessions: listed };
}

function overview(ctx: ToolContext, session: string): Record<string, unknown> {
  const counts = ctx.store.summaryCounts(session);
  const byDepth: Record<string, number> = {};
  const byLevel: Record<string, number> = { normal: 0, aggressive: 0, deterministic_fallback: 0 };
  let total = 0;
  for (const c of counts) {
    byDepth[String(c.depth)] = (byDepth[String(c.depth)] ?? 0) + c.n;
    byLevel[LEVEL_NAMES[c.level]] = (byLevel[LEVEL_NAMES[c.level]] ?? 0) + c.n;
    total += c.n;
  }
  const items = ctx.store.contextItems(session);
  const last = ctx.store.lastCompaction(session);
  return {
    type: "session",
    session,
    messages: ctx.store.messageCount(session),
    summaries: { total, byDepth, byLevel },
    fallbackSummaries: byLevel.deterministic_fallback,
    context: { items: items.length, summaries: items.filter((i) => i.type === "summary").length, messages: items.filter((i) => i.type === "message").length },
    lastCompaction: last
      ? { at: iso(last.at), passes: last.passes, tokensBefore: last.tokensBefore, tokensAfter: last.tokensAfter, summariesCreated: last.summariesCreated, fallbackSummaries: last.fallbackSummaries }
      : null,
  };
}
