/**
 * What the built-in compressor is built with: its options (ContextCompressorOptions) and the
 * `compression:` section they carry, checked and completed by its schema.
 */
import { z } from "zod";
import type { ModelInfo } from "../engine/types.js";
import type { PreparationStatus } from "../engine/preparation.js";
import { CompressionSectionSchema, type CompressionConfig } from "../config/schema.js";
import type { Summarizer } from "../summarizers/types.js";
import type { AwaitableMethods, EngineStateStore } from "../store/types.js";
import type { SessionSearchSource } from "../tools/sessionSearch.js";
import type { TokenCounter } from "../tokens/types.js";
import type { CacheTimingOptions } from "./cacheTimingTracker.js";
import type { RouteHooks } from "../host/hooks.js";

/** Options of the built-in compressor. */
export interface ContextCompressorOptions {
  /** The `compression:` config section (defaults filled in by its schema). */
  compression?: Partial<CompressionConfig>;
  /** Writes the summary (default: the offline ExtractiveSummarizer). */
  summarizer?: Summarizer;
  /** Used when the summarizer fails with a non-abort failure (default: ExtractiveSummarizer). */
  fallbackSummarizer?: Summarizer;
  tokenCounter?: TokenCounter;
  model?: ModelInfo;
  /** Clock in ms since the epoch (cooldowns); default `Date.now`. */
  now?: () => number;
  /**
   * Keeps each session's cooldown, streaks and last summary across restarts (a session store such as
   * `openSqliteStore`; one without the engine-state methods keeps nothing), and gives the agent the
   * `session_search` tool over it. The host passes its store.
   */
  store?: (Partial<AwaitableMethods<EngineStateStore>> & Partial<SessionSearchSource>) | undefined;
  /**
   * Told about problems that do not stop the engine, such as a session state a store that answers with
   * promises could not write (default `console.warn`). The host passes its `warn` (`host.warnings`).
   */
  warn?: (message: string) => void;
  /** The routes that may adjust the threshold plan (the host passes its own; default: the built-in routes, set from `compression`). */
  routes?: RouteHooks;
  /** The cache TTL and prices `compression.timing: cache_aware` decides with (the host passes `prompt_caching.cache_ttl` and `prices`). */
  cacheTiming?: CacheTimingOptions;
  /**
   * Told when a background summary (`compression.prepare_at`) starts and when it settles, `ready` or
   * `failed` (a failure is also passed to `warn`); the conversation is never changed by it.
   */
  onPreparation?: (sessionId: string, status: PreparationStatus) => void;
}

/** The `compression:` section of `input` with its defaults filled in; an invalid one throws, naming each problem. */
export function parseCompression(input: Partial<CompressionConfig> | undefined): CompressionConfig {
  const parsed = CompressionSectionSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(`Invalid compression options:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
