/**
 * Which sessions a tool call reaches: the current one, the conversation's sessions (the current id without
 * its `~n` suffix and every `~n` that `/new` started from it), or every session of the caller's scope —
 * never a session of another scope, whatever the arguments say.
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

/**
 * The sessions `arg` names from `ctx.session`, all of them of `ctx.scope` ("all": every session of the
 * scope); "all" only when the config allows it.
 */
export async function resolveSessions(ctx: ToolContext, arg: SessionsArg): Promise<readonly string[]> {
  if (arg === "current") return [ctx.session];
  if (arg === "all" && !ctx.allSessions) throw new ToolError("invalid_arguments", 'sessions: "all" is turned off here (lcm.search_all_sessions: false); use "current" or "conversation"');
  const base = conversationOf(ctx.session);
  const ofScope = await ctx.store.sessions(ctx.scope);
  const reached = arg === "all" ? ofScope : ofScope.filter((s) => s === base || (s.startsWith(`${base}~`) && /^\d+$/.test(s.slice(base.length + 1))));
  return reached.includes(ctx.session) ? reached : [...reached, ctx.session];
}

/** True when the record of `session` lies inside `scope`. */
export function inScope(scope: SessionScope, session: string): boolean {
  return scope === "all" || scope.includes(session);
}

/**
 * True when the summary `summary` is reachable from `scope`: it lies inside it, or it is in the current
 * session's context (a summary `/new` carried over from an earlier session of the caller's scope).
 */
export async function summaryInReach(ctx: ToolContext, scope: SessionScope, summary: { id: string; session: string }): Promise<boolean> {
  if (inScope(scope, summary.session)) return true;
  return (await ctx.store.contextSummaryIds(ctx.session)).includes(summary.id) && (await ctx.store.sessionScope(summary.session)) === ctx.scope;
}
