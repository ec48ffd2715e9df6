/** What a standalone `LcmEngine` (engine.ts) is built with: its options, and whether its summarizer is an LLM. */
import { ExtractiveSummarizer, type CacheTimingOptions, type CompactToolSettings, type ModelInfo, type SharedStateStore, type Summarizer, type TokenCounter } from "./core.js";
import type { LcmStore } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** Options of a standalone {@link LcmEngine}. */
export interface LcmEngineOptions<S extends LcmStoreAsync = LcmStore> {
  /** SQLite file (or ":memory:"); overrides `config.db_path`. One of dbPath, config.db_path or store is required. */
  dbPath?: string;
  /**
   * An already open store, which may be shared between engines: lcm's SQLite `LcmStore`, or any
   * `LcmStoreAsync` (`openPostgresLcmStore` of `@context-engine/postgres`). The engine leaves it open.
   */
  store?: S;
  /** True when the engine owns `store`: `close()` closes it too. */
  ownsStore?: boolean;
  /** The `lcm:` settings, raw (validated here) or already parsed. */
  config?: unknown;
  /** Core's Summarizer; default the offline ExtractiveSummarizer. */
  summarizer?: Summarizer;
  /** True when `summarizer` is an LLM (enables lcm_expand_query). Default: any summarizer that is not extractive. */
  llmSummarizer?: boolean;
  tokenCounter?: TokenCounter;
  model?: ModelInfo;
  /** The host's `compression.model_thresholds`: per-model trigger shares that override `threshold`. */
  modelThresholds?: Record<string, number> | undefined;
  /** The host's `compression.compact_tool`: offer the agent `compact_context` (default off). */
  compactTool?: CompactToolSettings | undefined;
  /** The host's `compression.prepare_at`: from this share of the trigger on the compaction is prepared in the background (off when unset). */
  prepareAt?: number | null | undefined;
  warn?: (message: string) => void;
  /** Clock for created_at (tests pin it). */
  now?: () => number;
  /**
   * A store the workers of a deployment share (the host's session store when it can take and claim engine
   * state: `sharedStateStoreOf` of `@context-engine/core/store`): `compact_context` requests and background
   * summaries go through it, so whichever worker reaches the session's next boundary or trigger uses them.
   */
  sharedState?: SharedStateStore | undefined;
  /** `compression.timing: cache_aware` with the cache TTL and prices it decides with (the plugin passes them from the host config); absent: the threshold. */
  cacheTiming?: CacheTimingOptions | undefined;
}

/** True when `summarizer` is core's offline extractive summarizer (or names itself so): no LLM behind it. */
export function isExtractive(summarizer: Summarizer): boolean {
  return summarizer instanceof ExtractiveSummarizer || summarizer.name === "extractive";
}
