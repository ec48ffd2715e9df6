/**
 * The abstract base every context engine extends (docs/BEHAVIOUR.md, "Engines and resolution"). It owns the token
 * counters and the threshold arithmetic; subclasses decide when and how to compress.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { CompressionConfig } from "../config/schema.js";
import { computeThresholds, type ThresholdRule, type ThresholdSettings } from "./thresholds.js";
import { normalizeUsage } from "./usage.js";
import { requestLimitTokens } from "./requestFit.js";
import type { CompressOptions, EngineStatus, ModelInfo, NormalizedUsage, SessionInfo, ToolCallContext, ToolSchema, ToolTraits, UsageReport } from "./types.js";
import type { PrepareCompressionOptions, PreparationStatus } from "./preparation.js";
import { promptTokensOf } from "./sessionUsage.js";
export { AWAITING_REAL_USAGE } from "./sessionUsage.js";

/** Defaults used before `updateModel()` is called. */
export const DEFAULT_MODEL: ModelInfo = { model: "unknown", contextLength: 200_000 };

/** Threshold policy defaults (docs/BEHAVIOUR.md, "Thresholds"). */
export const DEFAULT_THRESHOLD_SETTINGS: ThresholdSettings = { threshold: 0.5, modelThresholds: {}, thresholdTokensCap: null, targetRatio: 0.2 };

/**
 * Options every engine accepts. The host constructs a registered engine class with its
 * {@link EngineContext}, which carries `config`: its `compression:` section sets the threshold policy
 * (`threshold`, `model_thresholds`, `threshold_tokens`, `target_ratio`); explicit `thresholds` win.
 */
export interface ContextEngineOptions {
  thresholds?: Partial<ThresholdSettings>;
  model?: ModelInfo;
  config?: { compression?: Partial<CompressionConfig> | undefined } | undefined;
}

/** The threshold policy a `compression:` config section describes (only the keys it sets). */
export function thresholdSettingsFromConfig(compression: Partial<CompressionConfig> | undefined): Partial<ThresholdSettings> {
  const settings: Partial<ThresholdSettings> = {};
  if (!compression) return settings;
  if (compression.threshold !== undefined) settings.threshold = compression.threshold;
  if (compression.model_thresholds !== undefined) settings.modelThresholds = compression.model_thresholds;
  if (compression.threshold_tokens !== undefined) settings.thresholdTokensCap = compression.threshold_tokens;
  if (compression.target_ratio !== undefined) settings.targetRatio = compression.target_ratio;
  return settings;
}

/**
 * True when `a` and `b` describe the same model on the same route with the same window and output
 * reservation; anything else is a model change (its usage numbers do not carry over).
 */
export function sameModelInfo(a: ModelInfo, b: ModelInfo): boolean {
  return (
    a.model === b.model &&
    a.contextLength === b.contextLength &&
    a.provider === b.provider &&
    a.baseUrl === b.baseUrl &&
    a.apiMode === b.apiMode &&
    a.maxTokens === b.maxTokens
  );
}

/** Base class of context engines. */
export abstract class ContextEngine {
  /** The name `context.engine` selects this engine by. */
  abstract readonly name: string;
  contextLength = DEFAULT_MODEL.contextLength;
  thresholdTokens = 0;
  thresholdPercent = DEFAULT_THRESHOLD_SETTINGS.threshold;
  /** Which rule set `thresholdTokens` (the small-context floor, the minimum trigger, …). */
  thresholdRule: ThresholdRule = "threshold";
  /**
   * The overflow line: the window less the output reserve (`max_tokens`, else a default share; see
   * engine/requestFit.ts). A request estimated past it is compacted before it is sent, whatever the trigger says.
   */
  requestLimitTokens = 0;
  lastPromptTokens = 0;
  lastCompletionTokens = 0;
  lastTotalTokens = 0;
  compressionCount = 0;
  /** The model the thresholds were computed for. */
  model: ModelInfo = DEFAULT_MODEL;
  /** The threshold policy `updateModel()` applies. */
  protected thresholdSettings: ThresholdSettings;

  constructor(options: ContextEngineOptions = {}) {
    this.thresholdSettings = { ...DEFAULT_THRESHOLD_SETTINGS, ...thresholdSettingsFromConfig(options.config?.compression), ...options.thresholds };
    this.updateModel(options.model ?? DEFAULT_MODEL);
  }

  /**
   * True when `promptTokens` (default: the last real prompt tokens) reached the threshold; `sessionId`
   * names the conversation for engines that keep per-session state (cooldowns, pauses).
   */
  abstract shouldCompress(promptTokens?: number, sessionId?: string): boolean;

  /** Returns the compressed conversation; never mutates `messages`. */
  abstract compress(messages: ChatMessage[], options?: CompressOptions): Promise<ChatMessage[]>;

  /**
   * Optional, for background compaction: called with the conversation while `shouldCompress` says no.
   * When usage has passed the engine's preparation point it starts the summary of the range it would
   * compact, off the request path, and returns at once (never waits for the summarizer, never throws);
   * the next `compress()` of a conversation that still continues that range applies it. Callers that
   * find it absent compact the blocking way only.
   */
  prepareCompression?(messages: ChatMessage[], options?: PrepareCompressionOptions): PreparationStatus;

  /**
   * Records token usage from an API response (OpenAI chat, OpenAI Responses or Anthropic usage); missing
   * counts read as 0, a count that is not a whole number ≥ 0 throws an `InvalidUsageError`. Override it
   * freely (the contract declares it `: void`). `sessionId` names the conversation the response belongs
   * to, for engines that keep per-session state.
   */
  updateFromResponse(usage: UsageReport, _sessionId?: string): void {
    this.recordUsage(usage);
  }

  /**
   * Optional, for engines serving several sessions at once: the last prompt tokens reported for
   * `sessionId` (`lastPromptTokens` is the latest of any session). Hosts and `CompactionSession` read it
   * when offered (`SessionPromptTokens` keeps the numbers).
   */
  lastPromptTokensOf?(sessionId: string): number;

  /** Normalizes `usage`, stores the three counters and returns the normalized numbers (for subclasses). */
  protected recordUsage(usage: UsageReport): NormalizedUsage {
    const normalized = normalizeUsage(usage);
    this.lastPromptTokens = normalized.promptTokens;
    this.lastCompletionTokens = normalized.completionTokens;
    this.lastTotalTokens = normalized.totalTokens;
    return normalized;
  }

  /**
   * Re-sizes the engine for `model`: re-resolves `model_thresholds` and recomputes the trigger. A model
   * change zeroes the usage counters: the old model's prompt tokens say nothing about the new one
   * (0 = "no real usage yet", so callers judge by an estimate until the new model reports).
   */
  updateModel(model: ModelInfo): void {
    if (!sameModelInfo(this.model, model)) {
      this.lastPromptTokens = 0;
      this.lastCompletionTokens = 0;
      this.lastTotalTokens = 0;
    }
    this.model = model;
    this.contextLength = model.contextLength;
    const plan = computeThresholds(model, this.thresholdSettings);
    this.thresholdPercent = plan.thresholdPercent;
    this.thresholdTokens = plan.thresholdTokens;
    this.thresholdRule = plan.rule;
    this.requestLimitTokens = requestLimitTokens(model);
  }

  /**
   * True when a request estimated at `estimatedTokens` (the reported prompt plus what was added since:
   * `estimateRequestTokens`) would cross {@link requestLimitTokens}: the caller compacts before sending it.
   */
  requestOverflows(estimatedTokens: number): boolean {
    return estimatedTokens > this.requestLimitTokens;
  }

  /** Tools the engine offers to the agent (default none). */
  getToolSchemas(): ToolSchema[] {
    return [];
  }

  /**
   * What tool `name` promises about its effects (default: nothing, so a host takes it as one that may
   * change state); `{ readOnly: true }` for a tool that only reads.
   */
  toolTraits(_name: string): ToolTraits {
    return {};
  }

  /**
   * Runs one of the engine's tools; the result is a JSON string. Unknown names give a JSON error.
   * `context` says which session (and scope) calls it; tools that read stored sessions answer from that scope only.
   */
  async handleToolCall(name: string, _args: unknown, _context?: ToolCallContext): Promise<string> {
    return JSON.stringify({ error: `Unknown context engine tool: ${name}` });
  }

  /**
   * Counters for status lines; the "awaiting real usage" sentinel reads as 0. With `sessionId`, an engine
   * that keeps usage per session ({@link lastPromptTokensOf}) reports that session's prompt tokens.
   */
  getStatus(sessionId?: string): EngineStatus {
    const lastPromptTokens = Math.max(0, promptTokensOf(this, sessionId));
    const usagePercent = this.contextLength > 0 ? Math.min(100, (lastPromptTokens / this.contextLength) * 100) : 0;
    return { lastPromptTokens, thresholdTokens: this.thresholdTokens, contextLength: this.contextLength, usagePercent, compressionCount: this.compressionCount };
  }

  /** Called when a session starts (load state, open stores). */
  onSessionStart(_sessionId: string, _info?: SessionInfo): void | Promise<void> {}

  /** Called when a session ends with its final messages (flush state). */
  onSessionEnd(_sessionId: string, _messages: ChatMessage[]): void | Promise<void> {}

  /** `/new` or `/reset`: zero the token counters and the compaction count. */
  onSessionReset(): void {
    this.lastPromptTokens = 0;
    this.lastCompletionTokens = 0;
    this.lastTotalTokens = 0;
    this.compressionCount = 0;
  }
}

/** True when `value` has the shape of a context engine (duck-typed, so engines from another copy of core pass). */
export function isContextEngine(value: unknown): value is ContextEngine {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === "string" && typeof v.shouldCompress === "function" && typeof v.compress === "function" && typeof v.updateFromResponse === "function";
}
