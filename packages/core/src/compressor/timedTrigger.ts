/**
 * The compressor's trigger under `compression.timing: cache_aware`: the decision of the pure rule
 * ({@link cacheAwareTiming}) moves the threshold — earlier when the cache has expired, later while it is
 * warm and there is room — and the trigger's other guards (disabled, paused, cooldown, awaiting usage)
 * still apply.
 */
import type { CacheAwareTimingDecision } from "./cacheAwareTiming.js";
import type { CompressorSessionState } from "./sessionState.js";
import { triggerDecision, type ShouldCompressInfo, type TriggerLimits } from "./trigger.js";

/** Pure: {@link triggerDecision} with the threshold moved by the cache-aware `timing` decision; the info carries the decision. */
export function timedTriggerDecision(state: CompressorSessionState, promptTokens: number, limits: TriggerLimits, timing: CacheAwareTimingDecision): ShouldCompressInfo {
  if (timing.compact) {
    // compacting early (an expired cache, the hard limit): the guards judge it as if the trigger were here
    const early = triggerDecision(state, promptTokens, { ...limits, thresholdTokens: Math.min(limits.thresholdTokens, promptTokens) });
    return { ...early, thresholdTokens: limits.thresholdTokens, timing };
  }
  const base = triggerDecision(state, promptTokens, limits);
  return base.should ? { ...base, should: false, reason: "cache_warm", timing } : { ...base, timing };
}
