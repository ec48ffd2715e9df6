/** What every tool handler gets. */
import type { Summarizer, TokenCounter } from "../core.js";
import type { LcmStoreAsync } from "../store/LcmStoreAsync.js";

/** The engine state a tool call runs against. */
export interface ToolContext {
  store: LcmStoreAsync;
  session: string;
  /** The scope of the calling session: the tools read sessions of this scope only (`session` is one of them). */
  scope: string;
  counter: TokenCounter;
  regexBudgetMs: number;
  /** False when `sessions: "all"` is turned off (lcm.search_all_sessions). */
  allSessions: boolean;
  summaryTimeoutMs: number;
  /** Most tokens one `lcm_expand` page holds (lcm.max_expand_tokens); a larger `maxTokens` is lowered to it. */
  maxExpandTokens?: number | undefined;
  /** Set only when an LLM summarizer is configured (enables `lcm_expand_query`). */
  llmSummarizer?: Summarizer | undefined;
  /** The summarizer is not called before this time (epoch ms, by `now`): it refused its credentials. */
  summarizerPausedUntil?: number | undefined;
  /** The engine's clock. */
  now?: (() => number) | undefined;
}

/**
 * Runs `body` with the store a tool reads through: on a store that enforces scopes itself (PostgreSQL),
 * one read transaction limited to the caller's scope, held only while `body` runs.
 */
export type ToolReader = <T>(body: (store: LcmStoreAsync) => Promise<T>) => Promise<T>;

/** {@link ToolReader} for a tool: runs `body` against the tool context with the store read through. */
export type ReadWith = <T>(body: (ctx: ToolContext) => Promise<T>) => Promise<T>;
