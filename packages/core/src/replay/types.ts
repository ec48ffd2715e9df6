/** Public types of the replay report: options, one row per request, compactions and totals. */
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { ChatMessage } from "../messages/schema.js";
import type { ConversationProblem } from "../messages/validate.js";
import type { FullMissReason } from "../caching/prefixCacheModel.js";
import type { PromptCachingStatus } from "../caching/status.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";
import type { PriceTable } from "../providers/prices.js";
import type { TokenCounter } from "../tokens/types.js";
import type { SummarizerCall } from "./summarizerMeter.js";
import type { ThresholdRule } from "../engine/thresholds.js";

/** A model or credential change from one request on (the model is part of the cache key: the next request misses entirely; docs/BEHAVIOUR.md, "Prompt caching"). */
export interface ReplaySwitch {
  /** Request number (0-based) from which the new model/account is used. */
  atRequest: number;
  model?: string;
  account?: string;
}

/** Progress of a replay, for a progress bar. */
export interface ReplayProgress {
  done: number;
  total: number;
}

/** Options of {@link replayConversation}. */
export interface ReplayOptions {
  /** The engine whose decisions are replayed (it is used, so pass a fresh one). */
  engine: ContextEngine;
  /** The model requests go to (part of the cache key; prices). */
  model: string;
  /** The provider (decides with the model whether prompt caching is on). */
  provider: string;
  /** `prompt_caching.cache_ttl` (default "5m"). */
  ttl?: CacheTtl;
  /** User prices, searched before the built-in table. */
  prices?: PriceTable;
  /** Time of the first request in ms since the epoch when the transcript has no timestamps (default 2025-01-01). */
  now?: number;
  /** Time between requests when the transcript has no timestamps (default 20 s). */
  cadenceMs?: number;
  /** Gateway hygiene settings (default: enabled when the engine's `compression.enabled` is, hard limit 5000). */
  hygiene?: { enabled?: boolean; hardMessageLimit?: number };
  /** Model or credential switches during the replay. */
  switches?: ReplaySwitch[];
  /** The account requests are billed to (default "default"). */
  account?: string;
  /** Counts request tokens (default: the shared tiktoken counter, memoized per message). */
  tokenCounter?: TokenCounter;
  /** User minimum cacheable lengths by model substring. */
  minimumCacheableTokens?: Readonly<Record<string, number>>;
  /**
   * The summaries the engine had written, to price with the requests: the `calls` of the
   * `MeteredSummarizer` the engine was built with (read as they grow), priced at `model`'s input and
   * output price (the summary model: `auxiliary.compression.model`, else the main model); a call sent as
   * the conversation's suffix with its input as the replay's prefix cache serves it just before the request.
   */
  summaries?: { calls: readonly SummarizerCall[]; model: string };
  /** Called after each request. */
  onProgress?: (progress: ReplayProgress) => void;
  /** Called after each compaction that changed the context (awaited before the request is sent). */
  onCompaction?: (compaction: ReplayCompaction) => void | Promise<void>;
}

/** A compaction as the replay saw it: the context before and after (for fidelity checks). */
export interface ReplayCompaction {
  /** The request the compaction ran before. */
  request: number;
  layer: CompactionLayer;
  /** The context handed to `engine.compress()`. */
  before: readonly ChatMessage[];
  /** The context it returned. */
  after: readonly ChatMessage[];
}

/** Which layer compacted before a request. */
export type CompactionLayer = "gateway" | "agent";

/** A compaction that ran before a request. */
export interface RequestCompaction {
  layer: CompactionLayer;
  /** Context tokens before and after. */
  before: number;
  after: number;
  messagesBefore: number;
  messagesAfter: number;
}

/** One API request of the replay. */
export interface ReplayRequest {
  index: number;
  /** Transcript index of the assistant message this request answered with. */
  responseMessage: number;
  timestampMs: number;
  model: string;
  /** Messages sent. */
  messages: number;
  promptTokens: number;
  outputTokens: number;
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  /** Cost with caching (null when the model has no price). */
  costUsd: number | null;
  /** Cost of the same request with no caching. */
  uncachedCostUsd: number | null;
  /** Running sums over requests 0..index. */
  cumulativeCostUsd: number;
  cumulativeUncachedCostUsd: number;
  /** `cumulativeCostUsd` plus the priced summaries written up to this request. */
  cumulativeCostWithSummariesUsd: number;
  /** The same request in the no-compaction replay. */
  noCompactionPromptTokens: number;
  noCompactionCostUsd: number | null;
  cumulativeNoCompactionCostUsd: number;
  compacted?: RequestCompaction;
  /** A compaction that was tried before this request and returned the conversation unchanged. */
  compactionAborted?: { layer: CompactionLayer; reason: string };
  /** The first output refused before this request: it breaks provider rules (the context was kept). */
  invalidOutput?: InvalidOutputNote;
  /** Summaries written since the request before (with the compaction before this one, or prepared in the background). */
  summaries?: SummaryCosts;
  /** Set when a model or account change made this request miss the cache entirely. */
  fullMiss?: FullMissReason;
  /** Lines gateway hygiene would show the user before this request. */
  notices?: string[];
}

/**
 * Summarizer calls and what they cost at the summary model's price: a separate prompt uncached (each is
 * new), a summary asked as the conversation's suffix as the prompt cache served its input.
 */
export interface SummaryCosts {
  calls: number;
  /** Every input token of the calls, cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  /** The calls sent as the conversation's suffix (`compression.summary_request: suffix`), when any. */
  suffixCalls?: number;
  /** Their input tokens read from the prompt cache, and written to it (with `suffixCalls`). */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** null when the summary model has no price. */
  costUsd: number | null;
}

/** The cache effect of one compaction. */
export interface CompactionEffect {
  /** The request the compaction ran before. */
  request: number;
  layer: CompactionLayer;
  tokensBefore: number;
  tokensAfter: number;
  /** Tokens that request wrote to the cache again (the compacted range's cache is invalid). */
  cacheRewriteTokens: number;
  /** Tokens that request read from the cache (the system prompt survives). */
  cacheReadTokens: number;
  /** Cost of that request, and of the same request had nothing been compacted (same caching). */
  nextRequestCostUsd: number | null;
  noCompactionCostUsd: number | null;
  /** Requests after it until one reads at least 80 % of its input from cache again (null: never). */
  recoveredAfterRequests: number | null;
}

/**
 * An engine output the replay refused: it breaks provider rules its input did not (validateConversation),
 * so the context was kept as it was, as the host keeps it (docs/BEHAVIOUR.md, "Invalid output").
 */
export interface InvalidOutputNote {
  /** The request the compaction ran before. */
  request: number;
  layer: CompactionLayer;
  /** The first problem, its index a message of the output; absent when the output was no list of messages. */
  problem?: ConversationProblem;
  /** The refusal in words: the engine and the first problems. */
  text: string;
}

/** The outputs a replay refused: how many, and the first. */
export interface InvalidOutputs {
  count: number;
  first?: InvalidOutputNote;
}

/** A request that missed the cache entirely because of a model or credential switch. */
export interface FullMissNote {
  request: number;
  reason: FullMissReason;
  /** e.g. "request 12: model switch — the cache key changed, the whole conversation (40,120 tokens) was re-read at the full input price". */
  note: string;
}

/** Sums over the replay and its variants. */
export interface ReplayTotals {
  requests: number;
  compactions: number;
  compactionsByLayer: Record<CompactionLayer, number>;
  abortedCompactions: number;
  peakContextTokens: number;
  /** Tokens of the context after the last transcript message. */
  finalContextTokens: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  /** Cache reads as a share of input tokens, and what an ideal cache would read. */
  cacheReadShare: number;
  idealCacheReadShare: number;
  idealCacheReadTokens: number;
  costUsd: number;
  /** The same requests without prompt caching. */
  noCachingCostUsd: number;
  /** The conversation replayed without any compaction (same caching). */
  noCompactionCostUsd: number;
  noCompactionCacheReadShare: number;
  /** The largest context had nothing been compacted, the final context (every transcript message) included. */
  noCompactionPeakTokens: number;
  /** The ideal cache on the replayed requests. */
  idealCostUsd: number;
  fullMisses: number;
  unpricedModels: string[];
  /** The summaries the engine wrote, when the replay was given them ({@link ReplayOptions.summaries}). */
  summaries?: SummaryCosts & { model: string };
  /** `costUsd` plus the summaries' cost: what the session cost with this engine. */
  costWithSummariesUsd: number;
}

/** What {@link replayConversation} returns. */
export interface ReplayReport {
  engine: string;
  model: string;
  provider: string;
  ttl: CacheTtl;
  caching: PromptCachingStatus;
  contextLength: number;
  /** The overflow line: the window less the output reserve (engine/requestFit.ts); no request should send more. */
  requestLimitTokens: number;
  /** The agent layer's trigger and gateway hygiene's (85 %). */
  thresholdTokens: number;
  /** Which rule set the agent trigger, when the engine says (engines built on `ContextEngine` do). */
  thresholdRule?: ThresholdRule | undefined;
  hygieneThresholdTokens: number;
  /** "transcript" when request times come from message timestamps, else "cadence". */
  timing: "transcript" | "cadence";
  requests: ReplayRequest[];
  compactions: CompactionEffect[];
  fullMisses: FullMissNote[];
  /** The engine outputs that broke provider rules (each refused, the context kept); `simulate` and `eval` exit 1 on any. */
  invalidOutputs: InvalidOutputs;
  /** Observations worth printing (no-compaction overflow, unpriced models, switches). */
  notes: string[];
  totals: ReplayTotals;
}
