/**
 * Whose sessions an lcm tool call may read (docs/BEHAVIOUR.md, "Multi-user stores"): the scopes of the
 * sessions the host opened (`onSessionStart`'s `info.scope`), and the session and scope of one call,
 * resolved from what the host says (handleToolCall's context), never from the agent's arguments.
 */
import { ambiguousScopeResult, DEFAULT_SESSION_SCOPE, isScope, resolveToolScope, type ToolCallContext } from "./core.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { conversationOf } from "./tools/sessionScope.js";
import { toolErrorResult } from "./tools/result.js";

/** The session and scope a tool call runs as, or the JSON error the tool answers with. */
export type CallerScope = { session: string; scope: string } | { refused: string };

/** The scopes of the open sessions, and the scope of one tool call. */
export class OpenScopes {
  /** Open session id → its scope; sessions `/new` started from one are added with its scope. */
  private readonly open = new Map<string, string>();

  /** `session` was opened in `scope` (the default scope when none); returns the scope. A blank scope throws. */
  start(session: string, scope: string | undefined): string {
    const resolved = scope ?? DEFAULT_SESSION_SCOPE;
    if (!isScope(resolved)) throw new Error(`lcm: onSessionStart('${session}', { scope }): scope must be a non-empty string, got ${JSON.stringify(scope)}`);
    this.open.set(session, resolved);
    return resolved;
  }

  /** The scope `session` was opened in here, if it is open. */
  openScope(session: string): string | undefined {
    return this.open.get(session);
  }

  /** `/new` started `to` from `from`: it belongs to the same scope (returned). */
  async inherit(store: LcmStoreAsync, from: string, to: string): Promise<string> {
    const scope = this.open.get(from) ?? (await store.sessionScope(from));
    this.open.set(to, scope);
    return scope;
  }

  /** `session` ended: it and the sessions `/new` started from it are no longer open. */
  end(session: string): void {
    for (const open of [...this.open.keys()]) if (open === session || conversationOf(open) === session) this.open.delete(open);
  }

  /**
   * The session and scope tool `tool` runs as: the session the host names (one lcm does not know yet — not
   * opened here, stored or started by any engine on the store — is `current` when that is of the caller's
   * scope, an adapter's own id for it, else the caller's new session, answered from its scope), else `current`; the scope the host gives, else that session's (see core's
   * resolveToolScope). Refused when the scope is ambiguous, or when the session is not of that scope; a
   * refusal names no session but the one the host named.
   */
  async caller(store: LcmStoreAsync, tool: string, context: ToolCallContext | undefined, current: () => Promise<string>): Promise<CallerScope> {
    const scopeOf = async (session: string) => this.open.get(session) ?? (await store.sessionScope(session));
    const scope = await resolveToolScope(context, this.open, async (session) => ({ scope: await scopeOf(session) }));
    if (scope === undefined) return { refused: ambiguousScopeResult(tool) };
    if (!isScope(scope)) return { refused: toolErrorResult("no_scope", `${tool}: the scope the host passed (${JSON.stringify(scope)}) is not a non-empty string`) };
    const named = context?.sessionId;
    if (named !== undefined) {
      // a session no engine has stored or started yet: an adapter's own id for lcm's current session when that
      // is of the caller's scope (as before scopes), else the caller's own new session, answered from its scope
      // — the scope the host gives, or the one scope open here (read off an unknown session it would be a guess)
      if (!this.open.has(named) && !(await store.hasSession(named))) {
        const guessed = context?.scope === undefined && [...this.open.values()].some((open) => open !== scope);
        if (guessed) return { refused: ambiguousScopeResult(tool) };
        const session = await current();
        return (await scopeOf(session)) === scope ? { session, scope } : { session: named, scope };
      }
      if ((await scopeOf(named)) !== scope) return { refused: toolErrorResult("no_scope", `${tool}: session '${named}' is not one of scope '${scope}'; the host must pass the calling session and its own scope`) };
      return { session: named, scope };
    }
    const session = await current();
    // the current session may be another scope's: a refusal never names it
    if ((await scopeOf(session)) !== scope) return { refused: toolErrorResult("no_scope", `${tool}: the host named no session of scope '${scope}'; it must pass the calling session and its own scope`) };
    return { session, scope };
  }
}

