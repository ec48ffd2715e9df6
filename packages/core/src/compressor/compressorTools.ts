/**
 * The compressor's agent tools: `session_search` over the attached store's sessions of the caller's scope
 * (archived turns stay searchable: docs/BEHAVIOUR.md, "In-place compaction") and `compact_context` when
 * `compression.compact_tool.enabled`.
 */
import { COMPACT_CONTEXT_TOOL_NAME, compactContextToolSchema, type AgentCompactionRequests } from "../engine/compactContextTool.js";
import { ambiguousScopeResult, resolveToolScope } from "../engine/toolScope.js";
import type { ToolCallContext, ToolSchema, ToolTraits } from "../engine/types.js";
import { runSessionSearch, scopedSearchSource, SESSION_SEARCH_TOOL_NAME, sessionSearchToolSchema, type SessionSearchSource } from "../tools/sessionSearch.js";
import { nothingToCompactReason } from "./agentCompaction.js";

/** The tools one compressor offers, and the scopes of its open sessions they answer from. */
export class CompressorTools {
  /** Scopes of the open sessions (`onSessionStart`'s `info.scope`, else the default scope). */
  readonly openScopes = new Map<string, string>();

  /**
   * @param compactTool whether `compact_context` is offered
   * @param searchStore the attached store `session_search` reads (none: no `session_search`)
   * @param agentRequests where `compact_context` records the agent's requests
   */
  constructor(
    private readonly compactTool: { enabled: boolean },
    private readonly searchStore: SessionSearchSource | undefined,
    private readonly agentRequests: AgentCompactionRequests,
  ) {}

  /** The tool that reads compacted turns back (`session_search`), when a store is attached. */
  get recoveryTool(): string | undefined {
    return this.searchStore ? SESSION_SEARCH_TOOL_NAME : undefined;
  }

  /** The schemas of the tools offered. */
  schemas(): ToolSchema[] {
    return [...(this.searchStore ? [sessionSearchToolSchema()] : []), ...(this.compactTool.enabled ? [compactContextToolSchema()] : [])];
  }

  /** `session_search` only reads the store; `compact_context` records a request, so it is not read-only. */
  traits(name: string): ToolTraits {
    return name === SESSION_SEARCH_TOOL_NAME && this.searchStore ? { readOnly: true } : {};
  }

  /**
   * Runs tool `name` for the calling session `sessionId` (`context` names its scope); `tailTokenBudget` is
   * what a compaction keeps anyway. Undefined for a name these tools do not answer.
   */
  async run(name: string, args: unknown, context: ToolCallContext | undefined, sessionId: string, tailTokenBudget: number): Promise<string | undefined> {
    if (name === COMPACT_CONTEXT_TOOL_NAME && this.compactTool.enabled) {
      const nothingToCompact = nothingToCompactReason(this.agentRequests.promptTokens(sessionId), tailTokenBudget);
      return this.agentRequests.handle(sessionId, args, { nothingToCompact, recoveryTool: this.recoveryTool });
    }
    if (name === SESSION_SEARCH_TOOL_NAME && this.searchStore) {
      const store = this.searchStore;
      const scope = await resolveToolScope(context, this.openScopes, (id) => store.getSession(id));
      if (scope === undefined) return ambiguousScopeResult(SESSION_SEARCH_TOOL_NAME);
      return runSessionSearch(scopedSearchSource(store, scope), args);
    }
    return undefined;
  }
}
