/**
 * Which sessions a tool call reaches: the current one, the conversation's sessions (the current id without
 * its `~n` suffix and every `~n` that `/new` started from it), or every session in the store.
 */
import type { SessionScope } from "../store/search.js";
import { ToolError } from "./result.js";
import type { ToolContext } from "./types.js";

/** The `sessions` argument of lcm_grep, lcm_describe and lcm_expand. */
export type SessionsArg = "current" | "conversation" | "all";

/** The conversation a session belongs to: its id without a `~n` suffix. */
export function conversationOf(session: string): string {
  return session.replace(/~\d+$/, "");
}

/** The sessions `arg` names from `ctx.session`; "all" only when the config allows it. */
export async function resolveSessions(ctx: ToolContext, arg: SessionsArg): Promise<SessionScope> {
  if (arg === "current") return [ctx.session];
  if (arg === "all") {
    if (!ctx.allSessions) throw new ToolError("invalid_arguments", 'sessions: "all" is turned off here (lcm.search_all_sessions: false); use "current" or "conversation"');
    return "all";
  }
  const base = conversationOf(ctx.session);
  const related = (await ctx.store.sessions()).filter((s) => s === base || (s.startsWith(`${base}~`) && /^\d+$/.test(s.slice(base.length + 1))));
  return related.includes(ctx.session) ? related : [...related, ctx.session];
}

/** True when the record of `session` lies inside `scope`. */
export function inScope(scope: SessionScope, session: string): boolean {
  return scope === "all" || scope.includes(session);
}

/**
 * True when the summary `summary` is reachable from `scope`: it lies inside it, or it is in the current
 * session's context (a summary `/new` carried over from an earlier session).
 */
export async function summaryInReach(ctx: ToolContext, scope: SessionScope, summary: { id: string; session: string }): Promise<boolean> {
  return inScope(scope, summary.session) || (await ctx.store.contextSummaryIds(ctx.session)).includes(summary.id);
}
