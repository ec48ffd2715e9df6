/** `@context-engine/core/compressor` — the built-in compressor's parts, for engines that build on them: its phases, the summary format it writes and recognizes, tool-pair alignment, and the summarizer prompt and failure handling. */
export { PAUSE_AFTER_STREAK } from "./ContextCompressor.js";
export type { ShouldCompressInfo, ShouldCompressReason, CompressionReport } from "./ContextCompressor.js";

// Thresholds: the trigger plan a compression config and a model describe (its rule names are the root's)
export { summaryTokenBudget, clampTargetRatio, computeThresholds, matchModelThreshold } from "../engine/thresholds.js";
export { thresholdSettingsFromConfig } from "../engine/ContextEngine.js";

// The phases
export { pruneOldToolResults } from "./pruneToolOutputs.js";
export type { PruneOptions, PruneResult } from "./pruneToolOutputs.js";
export { planBoundaries } from "./planBoundaries.js";
export type { BoundaryOptions, BoundaryPlan } from "./planBoundaries.js";
export { prepareCompaction } from "./prepareCompaction.js";
export type { PrepareSettings, PreparedCompaction } from "./prepareCompaction.js";

// Preparing a compaction in the background (compression.prepare_at) and the agent's compact_context tool: a kit for any engine
export { preparationDue } from "../engine/preparation.js";
export { COMPACT_CONTEXT_TOOL_NAME, CompactContextArgsSchema, compactContextToolSchema, AgentCompactionRequests } from "../engine/compactContextTool.js";
export type { CompactToolSettings, AgentCompactionRequest, AgentCompactionSource, CompactRequestCheck } from "../engine/compactContextTool.js";
// an engine serving several sessions keeps each one's usage apart (ContextEngine.lastPromptTokensOf)
export { SessionPromptTokens } from "../engine/sessionUsage.js";

// When to compact: cache-aware timing (compression.timing: cache_aware)
export { cacheAwareTiming } from "./cacheAwareTiming.js";
export type { CacheAwareTimingInput, CacheAwareTimingDecision, CacheAwareTimingReason, CacheState, TimingPrices } from "./cacheAwareTiming.js";
export { CacheTimingTracker, cacheTimingFromConfig, timingPrices, GROWTH_WINDOW } from "./cacheTimingTracker.js";
export type { CacheTimingOptions, TimingLimits, TimingModel } from "./cacheTimingTracker.js";

// How a summary is asked for (compression.summary_request): the conversation's suffix where it reads the cache
export type { SummaryRequestNote } from "./summaryConversation.js";

// The summary message: how it is marked, so engines recognize one another's summaries
export { SUMMARY_END_MARKER, COMPACTION_SYSTEM_NOTE, findLatestSummary } from "./earlierSummaries.js";
export { COMPACTION_TAG, COMPACTION_SIGNATURE, SIGNED_COMPACTION_TAG, hasCompactionSignature, isLegacySummaryText, isCompactionSummaryText } from "../messages/compactionMarker.js";

// Tool calls and their results stay together across a cut
export { alignBoundaryBackward, alignBoundaryForward, toolCallKey, pendingToolCallsStart, STUB_TOOL_RESULT } from "../messages/toolPairs.js";

// Asking a model for a summary, and which summarizer `auxiliary.compression` picks
export { createSummarizer } from "../summarizers/resolve.js";
export type { MainModelEndpoint, ResolvedSummarizer } from "../summarizers/resolve.js";
export { buildSummaryPrompt, normalizeSummary } from "../summarizers/prompt.js";
export { serializeTurns } from "../summarizers/serialize.js";
export { chunkTurns, chunkedRequests, digestCall, digestRequest, summaryPromptFor, summarizeInCalls, DEFAULT_OVERSIZED_RANGE } from "../summarizers/summaryCalls.js";
export type { OversizedRangeMode, SummaryCallOptions, SummaryCall } from "../summarizers/summaryCalls.js";
export { redactSecrets } from "../summarizers/redact.js";
export { classifySummaryFailure, cooldownSeconds, EmptySummaryError, InvalidSummaryResponseError } from "../summarizers/failures.js";
export type { SummaryFailure } from "../summarizers/failures.js";
