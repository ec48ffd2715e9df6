/**
 * An lcm engine's tool calls: the state a tool runs against (ToolContext), and one call run for its
 * caller's session and scope (toolScope.ts) — `compact_context`, or an lcm tool reading within that
 * scope. It keeps nothing itself: the engine hands it what it holds (LcmToolParts).
 */
import { COMPACT_CONTEXT_TOOL_NAME, type AgentCompactionRequests, type Summarizer, type TokenCounter, type ToolCallContext } from "./core.js";
import { LCM_RECOVERY_TOOL, nothingToCompactInSession } from "./compactTool.js";
import type { LcmSettings } from "./config.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import type { StoreHandle } from "./storeHandle.js";
import { dispatchLcmTool } from "./tools/index.js";
import { toolErrorResult } from "./tools/result.js";
import type { ToolContext, ToolReader } from "./tools/types.js";
import type { OpenScopes } from "./toolScope.js";

/** What of the engine (an LcmEngine) its tools read. */
export interface ToolingEngine {
  readonly settings: LcmSettings;
  readonly store: LcmStoreAsync;
  readonly tokenCounter: TokenCounter;
  readonly targetTokens: number;
  readonly agentRequests: AgentCompactionRequests | undefined;
  readonly summarizerPausedUntil: number;
}

/** The engine and the parts it keeps to itself that its tool calls work with. */
export interface LcmToolParts {
  engine: ToolingEngine;
  /** The summarizer when it is an LLM (enables lcm_expand_query). */
  llm: Summarizer | undefined;
  now: () => number;
  handle: StoreHandle<LcmStoreAsync>;
  /** The scopes of the open sessions. */
  scopes: OpenScopes;
  /** The session calls without a session id work on. */
  currentSession(): Promise<string>;
  /** The state a tool runs against for `session` in `scope` (the engine's `toolContext`). */
  toolContext(session: string, scope: string): ToolContext;
}

/** The state tools run against for `session` in `scope`. */
export function toolContextOf(parts: Pick<LcmToolParts, "engine" | "llm" | "now">, session: string, scope: string): ToolContext {
  const { engine } = parts;
  return {
    store: engine.store,
    session,
    scope,
    counter: engine.tokenCounter,
    regexBudgetMs: engine.settings.regex_time_budget_ms,
    allSessions: engine.settings.search_all_sessions,
    summaryTimeoutMs: engine.settings.summary_timeout_ms,
    maxExpandTokens: engine.settings.max_expand_tokens,
    llmSummarizer: parts.llm,
    summarizerPausedUntil: engine.summarizerPausedUntil,
    now: parts.now,
  };
}

/**
 * Runs tool `name` for the calling session (`context`, else the current one) over the sessions of its
 * scope only; on a store that enforces scopes itself (PostgreSQL), its reads inside a read transaction
 * limited to it (ended before lcm_expand_query asks the model). Never throws; undefined for a name that
 * is none of lcm's tools.
 */
export async function runLcmToolCall(parts: LcmToolParts, name: string, args: unknown, context: ToolCallContext | undefined): Promise<string | undefined> {
  const { engine } = parts;
  try {
    return await parts.handle.use(async (store) => {
      const caller = await parts.scopes.caller(store, name, context, () => parts.currentSession());
      if ("refused" in caller) return caller.refused;
      if (name === COMPACT_CONTEXT_TOOL_NAME && engine.agentRequests) {
        const limits = { freshTail: engine.settings.fresh_tail, promptTokens: engine.agentRequests.promptTokens(caller.session), targetTokens: engine.targetTokens };
        const nothingToCompact = await nothingToCompactInSession(store, caller.session, limits);
        return engine.agentRequests.handle(caller.session, args, { nothingToCompact, recoveryTool: LCM_RECOVERY_TOOL });
      }
      const inScope = store.readInScope?.bind(store);
      const read: ToolReader = inScope ? (body) => inScope(caller.scope, body) : (body) => body(store);
      return dispatchLcmTool({ ...parts.toolContext(caller.session, caller.scope), store }, name, args, read);
    });
  } catch (error) {
    // the store could not be reopened after onSessionEnd closed it
    return toolErrorResult("internal", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
