/** Public types of the engine contract (docs/BEHAVIOUR.md, "Engines and resolution"). */
import type { ChatMessage } from "../messages/schema.js";
import type { LastCompaction } from "./lastCompaction.js";

/** Options of one `compress()` call. */
export interface CompressOptions {
  /** The caller's current prompt-token count, if known (real usage or an estimate). */
  currentTokens?: number;
  /** A topic the summary should keep in focus (manual `/compress <topic>`). */
  focusTopic?: string;
  /** Manual compression: bypasses cooldowns and the ineffective-compaction pause. */
  force?: boolean;
  /** Cancels the summarizer call; the conversation is returned unchanged. */
  signal?: AbortSignal;
  /**
   * The conversation this list belongs to (the id given to `onSessionStart`). Engines keep their state
   * (last summary, cooldowns, streaks, stored history) per session; without it they use the only open
   * session, else one default session. A host serving several conversations with one engine passes it.
   */
  sessionId?: string;
  /**
   * The tool definitions the agent's requests send, in their order. With `compression.summary_request:
   * suffix` the built-in compressor sends them again with the conversation, unchanged: a provider's prompt
   * cache keys on them (Anthropic's holds tools before the system prompt), so without them the summary
   * request of an agent that has tools misses the cache.
   */
  tools?: readonly ToolSchema[];
}

/** The model an engine is sized for. */
export interface ModelInfo {
  model: string;
  contextLength: number;
  provider?: string;
  baseUrl?: string;
  apiMode?: string;
  /** Output tokens reserved per request; subtracted from the window before the trigger is computed. */
  maxTokens?: number;
}

/** What `getStatus()` reports. */
export interface EngineStatus {
  lastPromptTokens: number;
  thresholdTokens: number;
  contextLength: number;
  /** `lastPromptTokens / contextLength` in percent, 0–100. */
  usagePercent: number;
  compressionCount: number;
  /** The last compaction that changed the conversation (absent before any, and for engines that do not say). */
  lastCompaction?: LastCompaction;
  /**
   * A `compact_context` request of the current session not yet honoured (the host compacts at the next turn
   * boundary), as far as this process knows: a request made through another worker is in the shared store.
   */
  pendingCompactionRequest?: AgentCompactionRequest;
}

/** A compaction the agent asked for (`compact_context`), handed to the host at the next turn boundary. */
export interface AgentCompactionRequest {
  /** What the summary should keep in focus, when the agent said. */
  focus?: string;
}

/**
 * The scope of a session created without one, and of every session of a store written before scopes
 * (schema v5 of the SQLite store, v2 of the PostgreSQL one): one owner, as before.
 */
export const DEFAULT_SESSION_SCOPE = "default";

/** Passed to `onSessionStart`. */
export interface SessionInfo {
  platform?: string;
  model?: string;
  /** Whose session it is (a tenant or user id): the engine's tools answer only from sessions of this scope. */
  scope?: string;
  [key: string]: unknown;
}

/**
 * Who calls an engine tool, told by the host (never by the agent's arguments): the session the call
 * belongs to, and its scope when the host knows it. Without it an engine uses its only open session.
 */
export interface ToolCallContext {
  sessionId?: string;
  scope?: string;
}

/** An OpenAI function-tool schema the engine offers to the agent. */
export interface ToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * What an engine tool promises about its effects, declared beside its schema (`ContextEngine.toolTraits`)
 * rather than in it: the schema goes to providers as it is, and they refuse fields they do not know.
 */
export interface ToolTraits {
  /**
   * True when the tool only reads what is stored (sessions, summaries) and changes nothing, not even a
   * pending request: hosts that serve tools outside the agent's own loop (`context-engine mcp`) serve only these.
   */
  readOnly?: boolean;
}

/** Any usage object a provider returns: OpenAI chat, OpenAI Responses, or Anthropic. */
export type UsageReport = Record<string, unknown>;

/** A usage report reduced to the numbers engines care about. */
export interface NormalizedUsage {
  /** Every input token of the request, cached or not. */
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache (Anthropic). */
  cacheWriteTokens: number;
}

export type { ChatMessage };
