/**
 * Which scope an engine tool answers from (docs/BEHAVIOUR.md, "Multi-user stores"): the host says it, or
 * names the calling session, or there is one open session; never the agent's arguments. Pure.
 */
import { DEFAULT_SESSION_SCOPE, type ToolCallContext } from "./types.js";

/**
 * The scope of a tool call: `context.scope`; else the scope of the session it names (or of the only open
 * one) as `open` (open session id → scope) or `lookup` (the store's record) says, {@link DEFAULT_SESSION_SCOPE}
 * for a session nobody scoped; else, with several open sessions, their scope when they share one.
 * Undefined when sessions of different scopes are open and the call names none, or the scope found is
 * blank (a blank scope would read as no scope at all, the operator's view): the tool must refuse.
 */
export async function resolveToolScope(
  context: ToolCallContext | undefined,
  open: ReadonlyMap<string, string>,
  lookup?: (sessionId: string) => PromiseLike<{ scope: string } | undefined> | { scope: string } | undefined,
): Promise<string | undefined> {
  if (context?.scope !== undefined) return checked(context.scope);
  const sessionId = context?.sessionId ?? (open.size === 1 ? open.keys().next().value : undefined);
  if (sessionId !== undefined) return checked(open.get(sessionId) ?? (await lookup?.(sessionId))?.scope ?? DEFAULT_SESSION_SCOPE);
  const scopes = new Set(open.values());
  if (scopes.size > 1) return undefined;
  return checked(scopes.values().next().value ?? DEFAULT_SESSION_SCOPE);
}

/** True for a usable scope: a string with a non-blank character (a blank one would read as no scope at all, the operator's view). */
export function isScope(scope: unknown): scope is string {
  return typeof scope === "string" && scope.trim() !== "";
}

function checked(scope: string): string | undefined {
  return isScope(scope) ? scope : undefined;
}

/** What an adapter tells the engine's tools about the calling conversation: undefined when it knows neither the session nor the scope. */
export function toolCallContext(sessionId: string | undefined, scope: string | undefined): ToolCallContext | undefined {
  if (sessionId === undefined && scope === undefined) return undefined;
  return { ...(sessionId !== undefined ? { sessionId } : {}), ...(scope !== undefined ? { scope } : {}) };
}

/** The tool result when {@link resolveToolScope} cannot tell whose sessions a call may read. */
export function ambiguousScopeResult(tool: string): string {
  return JSON.stringify({
    error: `${tool}: sessions of several scopes are open and the call names none; the host must pass the calling session (handleToolCall's context)`,
    code: "no_scope",
  });
}
