/**
 * The replay's clock for engines that measure time between requests (cache-aware timing, a summary that
 * reads the cache: an engine with a `cacheTracker` or `cacheTiming` tracker whose `clock` may be replaced): they see the replayed requests' times,
 * not the wall clock, so an idle gap in the transcript expires the cache as it did.
 */
import type { ContextEngine } from "../engine/ContextEngine.js";

interface ClockedTiming {
  clock: () => number;
}

function clockedTiming(engine: ContextEngine): ClockedTiming | undefined {
  const { cacheTracker, cacheTiming } = engine as unknown as { cacheTracker?: unknown; cacheTiming?: unknown };
  // the built-in compressor's tracker also serves its summary requests (`summary_request: suffix`); lcm has cacheTiming alone
  const timing = cacheTracker ?? cacheTiming;
  return typeof timing === "object" && timing !== null && typeof (timing as ClockedTiming).clock === "function" ? (timing as ClockedTiming) : undefined;
}

/** Points the engine's timing clock at the replay's time; returns the setter of that time (a no-op for engines without one). */
export function replayClock(engine: ContextEngine, startMs: number): (nowMs: number) => void {
  const timing = clockedTiming(engine);
  if (timing === undefined) return () => {};
  let now = startMs;
  timing.clock = () => now;
  return (nowMs) => {
    now = nowMs;
  };
}
