/**
 * Gateway hygiene judged for an engine, for callers that hold an engine but no config of their own (the
 * replay, the framework adapters): the window is the engine's, and `compression.enabled` and
 * `compression.hygiene_hard_message_limit` are read from the engine when it carries its `compression`
 * section (the built-in compressor does); otherwise hygiene is on with the default limit.
 */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { ChatMessage } from "../messages/schema.js";
import { gatewayHygiene, type HygieneDecision, type HygieneState } from "./hygiene.js";

/** The hygiene settings an engine carries (each absent when the engine does not say). */
export interface EngineHygieneSettings {
  /** `compression.enabled`. */
  enabled?: boolean | undefined;
  /** `compression.hygiene_hard_message_limit`. */
  hardMessageLimit?: number | undefined;
}

/** `compression.enabled` and `compression.hygiene_hard_message_limit` of an engine that carries its `compression` section; empty otherwise. */
export function engineHygieneSettings(engine: ContextEngine): EngineHygieneSettings {
  const compression = (engine as unknown as { compression?: unknown }).compression;
  if (typeof compression !== "object" || compression === null) return {};
  const { enabled, hygiene_hard_message_limit: hardMessageLimit } = compression as { enabled?: unknown; hygiene_hard_message_limit?: unknown };
  return {
    ...(typeof enabled === "boolean" ? { enabled } : {}),
    ...(typeof hardMessageLimit === "number" ? { hardMessageLimit } : {}),
  };
}

/** What the caller knows of the conversation's usage ({@link HygieneState}'s usage fields); nothing when no usage was reported yet. */
export type HygieneUsage = Pick<HygieneState, "lastPromptTokens" | "reportedMessages" | "calibration">;

/**
 * {@link gatewayHygiene} for `history` against `engine`'s window and {@link engineHygieneSettings} (enabled
 * unless the engine says otherwise). Without `usage` the tokens are the rough estimate of `history`.
 */
export function engineGatewayHygiene(engine: ContextEngine, history: ChatMessage[], usage: HygieneUsage = {}): HygieneDecision {
  const settings = engineHygieneSettings(engine);
  return gatewayHygiene(history, {
    contextLength: engine.contextLength,
    enabled: settings.enabled ?? true,
    hardMessageLimit: settings.hardMessageLimit,
    ...usage,
  });
}
