/** `@context-engine/core/lab` — measuring an engine offline: transcript importers, request-by-request replay, the prompt-cache and price models, the fidelity eval and the facts it checks. (The importers' shared shapes are `@context-engine/core/formats`.) */

// Transcript importers
export { importTranscript, importTranscriptFile, detectTranscriptFormat, importClaudeCode, importSweAgent, importOpenHands, importOpenAIMessages, importSpecStory, importCctraceXml, importAiSdkMessages, importMiniSweAgent } from "../importers/index.js";

// Replay
export { replayConversation, responseIndexes, providerUsage } from "../replay/replayConversation.js";
export { requestTimestamps, messageTimestampMs, DEFAULT_REQUEST_CADENCE_MS, DEFAULT_REPLAY_START_MS } from "../replay/timestamps.js";
export type { ReplayOptions, ReplayReport, ReplayRequest, ReplayTotals, CompactionEffect, RequestCompaction, CompactionLayer, FullMissNote, InvalidOutputNote, InvalidOutputs, ReplaySwitch, ReplayProgress, ReplayCompaction, SummaryCosts } from "../replay/types.js";
export { MeteredSummarizer } from "../replay/summarizerMeter.js";
export type { SummarizerCall, MeteredSummarizerOptions } from "../replay/summarizerMeter.js";

// The prompt-cache model
export { simulatePrefixCache, totalsOf } from "../caching/prefixCacheModel.js";
export type { CacheRequest, PrefixCacheOptions, RequestCacheAccounting, PrefixCacheTotals, PrefixCacheReport, FullMissReason } from "../caching/prefixCacheModel.js";
export { countCacheBreakpoints } from "../caching/anthropicCacheControl.js";
export { MAX_CACHE_BREAKPOINTS, minimumCacheableTokens } from "../providers/anthropicFacts.js";
export type { CacheControlMarker } from "../providers/anthropicFacts.js";

// The price model
export { DEFAULT_PRICES, lookupModelPrice, parsePriceTable, requestCostUsd } from "../providers/prices.js";
export type { ModelPrice, PriceTable, BilledTokens } from "../providers/prices.js";

// Fidelity eval: what survives compaction
export { evaluateFidelity, evaluateForcedCompaction, firstChunkRetention, overWindow, inventedFacts, MAX_LOST_LISTED, RETENTION_AT_COMPACTIONS } from "../eval/evaluateFidelity.js";
export type { FidelityReport, FidelityOptions, PromptSource, CompactionFidelity, OverWindow, InventedFacts, FirstAsk, FirstChunkAsks } from "../eval/evaluateFidelity.js";
export { extractFacts, FACT_KINDS, askWords, commandKey, errorKey } from "../eval/facts.js";
export type { Fact, FactKind } from "../eval/facts.js";
export { factSurvives, survivalByKind, survivalText, survivalShare, addSurvival, emptySurvival, ASK_SURVIVAL_SHARE } from "../eval/survival.js";
export type { SurvivalByKind, KindSurvival, SurvivalText } from "../eval/survival.js";

// Facts read off a transcript
export { errorSignatures, toolResultErrors } from "../facts/errorSignatures.js";
export { nonZeroExit, reportedExit, visibleExitCode } from "../facts/exitStatus.js";
export { toolCallTarget, readsContent } from "../facts/toolCallTargets.js";
export type { ToolCallTarget } from "../facts/toolCallTargets.js";
export { userAsks, userAskOf, observationIndexes } from "../facts/userAsks.js";
export type { UserAsk } from "../facts/userAsks.js";
