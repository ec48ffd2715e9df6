/** The options and results of {@link CompactionSession} and {@link CompactionSessionAsync}. */
import type { AgentCompactionRequest } from "../engine/compactContextTool.js";
import type { CompressionReport } from "../compressor/report.js";
import type { HostConfig } from "../config/schema.js";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { ToolSchema } from "../engine/types.js";
import type { PreparationStatus } from "../engine/preparation.js";
import type { HostHooks, RouteConfig, RouteHooks, ServerThread, SessionCompressEvent } from "../host/hooks.js";
import type { CompactionRecord, SessionStore } from "../store/types.js";

/**
 * What {@link CompactionSession} needs from a host (a `ContextHost` fits): its route hooks, when it has
 * them, decide who compacts; else the built-in routes read their settings from `config`.
 */
export interface CompactionSessionHost {
  engine: ContextEngine;
  /** The scope sessions get unless given one (`createContextHost({ scope })`). */
  scope?: string;
  hooks?: Pick<HostHooks, "sessionCompress"> & Partial<Pick<HostHooks, "routes">>;
  config?: Pick<HostConfig, "compression"> & RouteConfig;
}

/** Options of {@link CompactionSession}. Give `host`, or `engine` (with `hooks` to get events). */
export interface CompactionSessionOptions {
  host?: CompactionSessionHost;
  engine?: ContextEngine;
  store: SessionStore;
  /** Resume this session (created with this id when the store does not have it); default a new session. */
  sessionId?: string;
  platform: string;
  /**
   * Whose conversation it is (a tenant or user id; default "default"): stored with a new session, and
   * checked against a resumed one (resuming another scope's session throws). The engine's tools called
   * through {@link CompactionSessionBase.handleToolCall} answer from this scope only.
   */
  scope?: string;
  title?: string | null;
  hooks?: Pick<HostHooks, "sessionCompress">;
  /** Overrides `compression.in_place` (default: the host's config, else the engine's, else true). */
  inPlace?: boolean;
  /**
   * This conversation's thread on the model's server (e.g. an app-server thread). A route that owns the
   * thread's context needs it: compaction is then delegated to it and the transcript is never rewritten.
   */
  appServerThread?: ServerThread;
  /** The route hooks that may take the compaction over (default: the host's; else the built-in routes set from the host's config; else the engine's; else the built-in routes). */
  routes?: RouteHooks;
  /** Overrides `compression.compaction_notice`: after a compaction, append a one-line notice to the next user turn {@link CompactionSession.append} is given (default off). */
  compactionNotice?: boolean;
}

/** Options of {@link CompactionSession.maybeCompress}. */
export interface MaybeCompressOptions {
  /** The current prompt tokens (default: what the engine last saw). */
  promptTokens?: number;
  /** Manual compaction: skip `shouldCompress` (and the engine's cooldowns); where a route compacts on its server, delegate and wait. */
  force?: boolean;
  focusTopic?: string;
  /**
   * Cancels the compaction (e.g. `AbortSignal.timeout(ms)` bounds it): the call returns `aborted` as soon
   * as it fires, even when the engine ignores it, and a result the engine delivers later is dropped.
   */
  signal?: AbortSignal;
  /** The tool definitions the agent's requests send (`CompressOptions.tools`: a summary sent as the conversation's suffix repeats them). */
  tools?: readonly ToolSchema[];
}

/** `not_needed`: below the trigger; `aborted`: the engine kept the conversation unchanged (but for repaired tool pairs, see {@link CompactionResult.repairedToolPairs}). */
export type CompactionOutcome = "compressed" | "not_needed" | "aborted";

/** What one {@link CompactionSession.maybeCompress} call did. */
export interface CompactionResult {
  outcome: CompactionOutcome;
  /** The session id after the call (a new one after a rotation). */
  sessionId: string;
  /** The id before a rotation; "" otherwise. */
  oldSessionId: string;
  inPlace: boolean;
  /** The session's compression count after the call. */
  compressionCount: number;
  messagesBefore: number;
  messagesAfter: number;
  compaction?: CompactionRecord;
  /** The engine's `lastCompression` report of this call, when it keeps one. */
  report?: CompressionReport;
  /** The `session:compress` payload that was emitted. */
  event?: SessionCompressEvent;
  /** "Session compressed N times — accuracy may degrade." after 2+ compactions. */
  warning?: string;
  /** For an aborted compaction: "No messages were dropped — conversation is unchanged". */
  notice?: string;
  /** Why it aborted, when the engine said. */
  reason?: string;
  /**
   * For an aborted compaction: the tool pairs the engine repaired all the same, written to the store
   * (the active list changed by that repair alone; no compaction was logged), so the next call does not
   * repair them again.
   */
  repairedToolPairs?: number;
  /** A `session:compress` listener threw (the compaction itself was saved). */
  hookError?: string;
  /** With `compression.compaction_notice` on: the one-line notice the next user turn gets. */
  compactionNotice?: string;
  /** Below the trigger: where the engine's background summary stands (`compression.prepare_at`), when the engine can prepare one. */
  preparation?: PreparationStatus;
  /** The agent's `compact_context` request this call took and compacted for (made through this worker or another). */
  agentRequest?: AgentCompactionRequest;
}
