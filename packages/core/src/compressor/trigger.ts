/**
 * The compressor's trigger, as a pure decision: whether automatic compaction runs at a prompt size in a
 * session, and why not (disabled, below the threshold, paused after ineffective compactions, cooling
 * down after a summary failure, or waiting for the real usage of a compaction that just ran).
 */
import type { CompressorSessionState } from "./sessionState.js";
import type { CacheAwareTimingDecision } from "./cacheAwareTiming.js";

/**
 * Why `shouldCompress` says what it says. `awaiting_usage`: a compaction just ran and an estimate is
 * not trusted until the provider reports the real prompt tokens of the compacted conversation.
 * `cache_warm`: past the threshold, but cache-aware timing defers while the prompt cache is warm.
 */
export type ShouldCompressReason = "ok" | "disabled" | "below_threshold" | "awaiting_usage" | "cooldown" | "ineffective" | "cache_warm";

/** The answer of {@link ContextCompressor.shouldCompressInfo}. */
export interface ShouldCompressInfo {
  should: boolean;
  reason: ShouldCompressReason;
  promptTokens: number;
  thresholdTokens: number;
  /** Milliseconds left of a summary-failure cooldown (0 when none). */
  cooldownRemainingMs: number;
  /** What paused automatic compaction: 2 ineffective compactions or 2 fallback summaries in a row. */
  pausedBy: "ineffective" | "fallback" | null;
  /** What `compression.timing: cache_aware` decided (absent with the threshold timing). */
  timing?: CacheAwareTimingDecision;
}

/** What the trigger compares a session's state and prompt size against. */
export interface TriggerLimits {
  /** `compression.enabled`. */
  enabled: boolean;
  thresholdTokens: number;
  /** The overflow line (the window less the output reserve): an estimate past it is never deferred. */
  requestLimitTokens: number;
  /** Epoch ms (cooldowns). */
  now: number;
}

/**
 * True when an estimate at or above the threshold should wait for real usage: a compaction just ran in
 * the session and the provider has not yet reported the compacted conversation's prompt tokens. An
 * estimate past the overflow line (the window less the output reserve) is never deferred.
 */
export function awaitsRealUsage(state: CompressorSessionState, estimatedTokens: number, limits: TriggerLimits): boolean {
  return state.awaitingUsageAfterCompaction && estimatedTokens >= limits.thresholdTokens && estimatedTokens <= limits.requestLimitTokens;
}

/** Whether automatic compaction runs at `promptTokens` in the session whose state is `state`, and why. */
export function triggerDecision(state: CompressorSessionState, promptTokens: number, limits: TriggerLimits): ShouldCompressInfo {
  const cooldownRemainingMs = Math.max(0, state.cooldownUntil - limits.now);
  const info = (should: boolean, reason: ShouldCompressReason): ShouldCompressInfo => ({
    should,
    reason,
    promptTokens,
    thresholdTokens: limits.thresholdTokens,
    cooldownRemainingMs,
    pausedBy: state.pausedBy,
  });
  if (!limits.enabled) return info(false, "disabled");
  if (promptTokens < limits.thresholdTokens) return info(false, "below_threshold");
  if (state.pausedBy !== null) return info(false, "ineffective");
  if (cooldownRemainingMs > 0) return info(false, "cooldown");
  if (awaitsRealUsage(state, promptTokens, limits)) return info(false, "awaiting_usage");
  return info(true, "ok");
}
