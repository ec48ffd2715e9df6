/**
 * @context-engine/core — the public names of API.md. Internals stay unexported.
 */
// Messages
export { parseMessages, InvalidMessagesError, ChatMessageSchema, ToolCallSchema, ContentPartSchema } from "./messages/schema.js";
export type { ChatMessage, ContentPart, ToolCall, Role, MessageIssue } from "./messages/schema.js";
export { validateConversation } from "./messages/validate.js";
export type { ConversationProblem, ConversationProblemCode, ValidateOptions } from "./messages/validate.js";
export { messageText, contentText, searchableText } from "./messages/text.js";
export { canonicalJson } from "./messages/canonicalJson.js";
export { sanitizeToolPairs, alignBoundaryBackward, alignBoundaryForward, toolCallKey, pendingToolCallsStart, STUB_TOOL_RESULT } from "./messages/toolPairs.js";
export { COMPACTION_TAG, COMPACTION_SIGNATURE, SIGNED_COMPACTION_TAG, hasCompactionSignature, isLegacySummaryText, isCompactionSummaryText } from "./messages/compactionMarker.js";

// Engine contract
export { ContextEngine, AWAITING_REAL_USAGE, DEFAULT_MODEL, isContextEngine, thresholdSettingsFromConfig } from "./engine/ContextEngine.js";
export type { ContextEngineOptions } from "./engine/ContextEngine.js";
export type { CompressOptions, ModelInfo, EngineStatus, SessionInfo, ToolSchema, UsageReport, NormalizedUsage } from "./engine/types.js";
export { normalizeUsage, InvalidUsageError } from "./engine/usage.js";

// Config
export { loadConfig, parseConfigText, validateConfigObject, setConfigValue, parseConfigValue, formatConfigYaml, ConfigError } from "./config/load.js";
export type { ConfigIssue } from "./config/load.js";
export { unknownConfigKeyMessage, nearestConfigKey } from "./config/keys.js";
export { HostConfigSchema, ENGINE_NAME_PATTERN } from "./config/schema.js";
export type { HostConfig, CompressionConfig, AuxiliaryCompressionConfig } from "./config/schema.js";

// Host, resolution and plugins
export { createContextHost, hostRootDir } from "./host/createContextHost.js";
export type { ContextHost, ContextHostOptions } from "./host/createContextHost.js";
export { BUILTIN_ENGINE } from "./host/builtin.js";
export { createHostHooks, createRouteHooks } from "./host/hooks.js";
export type { HostHooks, SessionCompressEvent, EngineContext, EngineSource } from "./host/hooks.js";
export type { RouteHooks, RouteExtension, RouteConfig, RouteNotice, RoutedThresholdPlan, RouteNoticeContext, RouteCompaction, RouteSessionQuery, ServerThread, ServerCompactionBoundary, CompactionTrigger } from "./host/hooks.js";
export { BUILTIN_ROUTES, installBuiltinRoutes, builtinRouteHooks, defaultRouteHooks } from "./routes/builtin.js";
export type { PluginContext, EngineFactory, EngineClass, EngineRegistration, PluginModule } from "./host/types.js";
export { modelInfoFromConfig, knownContextLength } from "./host/modelInfo.js";

// Thresholds
export { resolveModelThreshold, matchModelThreshold, effectiveThresholdPercent, computeThresholds, summaryTokenBudget, clampTargetRatio } from "./engine/thresholds.js";
export type { ThresholdSettings, ThresholdPlan, ThresholdRule } from "./engine/thresholds.js";

// Built-in compressor
export { ContextCompressor, PAUSE_AFTER_STREAK } from "./compressor/ContextCompressor.js";
export type { ContextCompressorOptions, ShouldCompressInfo, ShouldCompressReason, CompressionReport } from "./compressor/ContextCompressor.js";
export { pruneOldToolResults } from "./compressor/pruneToolOutputs.js";
export { PRUNED_TOOL_PLACEHOLDER } from "./messages/prunedOutput.js";
export { planBoundaries } from "./compressor/planBoundaries.js";
export { SUMMARY_PREFIX, SUMMARY_END_MARKER, COMPACTION_SYSTEM_NOTE, findLatestSummary } from "./compressor/earlierSummaries.js";
export { prepareCompaction } from "./compressor/prepareCompaction.js";

// Tokens
export { estimateTokensRough, estimateMessagesTokensRough } from "./tokens/rough.js";
export { TiktokenCounter, RoughTokenCounter, MemoizedTokenCounter, defaultTokenCounter } from "./tokens/counter.js";
export { estimateMessageTokensRough, IMAGE_TOKENS } from "./tokens/rough.js";
export type { TokenCounter } from "./tokens/types.js";
export { countingIdOf, messageCounter } from "./tokens/types.js";

// Summarizers
export type { Summarizer, SummaryRequest } from "./summarizers/types.js";
export { SUMMARY_SECTIONS } from "./summarizers/types.js";
export { ExtractiveSummarizer } from "./summarizers/extractive.js";
export { OpenAICompatibleSummarizer } from "./summarizers/openaiCompatible.js";
export type { OpenAICompatibleSummarizerOptions } from "./summarizers/openaiCompatible.js";
export { createSummarizer } from "./summarizers/resolve.js";
export type { MainModelEndpoint, ResolvedSummarizer } from "./summarizers/resolve.js";
export { classifySummaryFailure, cooldownSeconds, EmptySummaryError, InvalidSummaryResponseError } from "./summarizers/failures.js";
export type { SummaryFailure } from "./summarizers/failures.js";
export { buildSummaryPrompt, normalizeSummary } from "./summarizers/prompt.js";
export { serializeTurns } from "./summarizers/serialize.js";
export { redactSecrets } from "./summarizers/redact.js";

// Prompt caching and providers
export { applyAnthropicCacheControl, stripCacheControl, countCacheBreakpoints } from "./caching/anthropicCacheControl.js";
export type { AnthropicCacheControlOptions } from "./caching/anthropicCacheControl.js";
export { promptCachingStatus, isClaudeModel } from "./caching/status.js";
export type { PromptCachingStatus } from "./caching/status.js";
export { simulatePrefixCache, totalsOf } from "./caching/prefixCacheModel.js";
export type { CacheRequest, PrefixCacheOptions, RequestCacheAccounting, PrefixCacheTotals, PrefixCacheReport, FullMissReason } from "./caching/prefixCacheModel.js";
export { MAX_CACHE_BREAKPOINTS, minimumCacheableTokens } from "./providers/anthropicFacts.js";
export type { CacheTtl, CacheControlMarker } from "./providers/anthropicFacts.js";
export { DEFAULT_PRICES, lookupModelPrice, parsePriceTable, requestCostUsd } from "./providers/prices.js";
export type { ModelPrice, PriceTable, BilledTokens } from "./providers/prices.js";
export { toAnthropicMessages, AnthropicAdapterError } from "./providers/anthropicAdapter.js";
export type { AnthropicRequestOptions } from "./providers/anthropicAdapter.js";

// Transcript importers
export { importTranscript, importTranscriptFile, detectTranscriptFormat, importClaudeCode, importSweAgent, importOpenHands, importOpenAIMessages, importSpecStory, importCctraceXml, importAiSdkMessages, TRANSCRIPT_FORMATS, TranscriptImportError } from "./importers/index.js";
export type { ImportOptions, ImportResult, TranscriptFormat } from "./importers/index.js";
// One AI SDK ModelMessage as OpenAI messages (the framework adapters' lossless converters build on it)
export { aiSdkMessageToChat, aiSdkToolOutputText } from "./importers/aiSdk.js";

// Gateway session hygiene
export { gatewayHygiene, hygieneAfterMessage, hygieneCalibration, hygieneThresholdTokens, GATEWAY_HYGIENE_THRESHOLD, GATEWAY_HYGIENE_WARN_AFTER, DEFAULT_HYGIENE_HARD_MESSAGE_LIMIT, GATEWAY_HYGIENE_MIN_MESSAGES, HYGIENE_ABORT_NOTICE } from "./gateway/hygiene.js";
export type { HygieneState, HygieneDecision, HygieneReason, HygieneOutcome } from "./gateway/hygiene.js";
export { engineGatewayHygiene, engineHygieneSettings } from "./gateway/engineHygiene.js";
export type { EngineHygieneSettings, HygieneUsage } from "./gateway/engineHygiene.js";

// Replay report
export { replayConversation, responseIndexes, providerUsage } from "./replay/replayConversation.js";
export { requestTimestamps, messageTimestampMs, DEFAULT_REQUEST_CADENCE_MS, DEFAULT_REPLAY_START_MS } from "./replay/timestamps.js";
export type { ReplayOptions, ReplayReport, ReplayRequest, ReplayTotals, CompactionEffect, RequestCompaction, CompactionLayer, FullMissNote, ReplaySwitch, ReplayProgress, ReplayCompaction } from "./replay/types.js";

// Fidelity eval: what survives compaction
export { evaluateFidelity, firstChunkRetention, MAX_LOST_LISTED, RETENTION_AT_COMPACTIONS } from "./eval/evaluateFidelity.js";
export type { FidelityReport, CompactionFidelity } from "./eval/evaluateFidelity.js";
export { extractFacts, FACT_KINDS, askWords, commandKey, errorKey } from "./eval/facts.js";
export type { Fact, FactKind } from "./eval/facts.js";
export { factSurvives, survivalByKind, survivalText, survivalShare, addSurvival, emptySurvival, ASK_SURVIVAL_SHARE } from "./eval/survival.js";
export type { SurvivalByKind, KindSurvival, SurvivalText } from "./eval/survival.js";
export { errorSignatures, toolResultErrors } from "./facts/errorSignatures.js";
export { nonZeroExit, reportedExit, visibleExitCode } from "./facts/exitStatus.js";
export { toolCallTarget, readsContent } from "./facts/toolCallTargets.js";
export type { ToolCallTarget } from "./facts/toolCallTargets.js";
export { userAsks, userAskOf, observationIndexes } from "./facts/userAsks.js";
export type { UserAsk } from "./facts/userAsks.js";

// Codex routes: windows and -900k aliases, threshold autoraise, Responses native compaction, app-server
export { CODEX_PROVIDER, CODEX_ADVERTISED_WINDOW, CODEX_LARGE_VARIANT_WINDOW, CODEX_LARGE_VARIANT_BASES, CODEX_CAPPED_MODELS, LARGE_VARIANT_SUFFIX, CodexModelError, resolveCodexModel, routeContextWindow, baseModelName, codexModelFamily, isCodexProvider } from "./codex/models.js";
export type { ResolvedCodexModel } from "./codex/models.js";
export { CODEX_AUTORAISE_PERCENT, codexAutoraise, codexThresholdPlan, raiseThresholdPlan, isCodexAutoraiseEligible } from "./codex/autoraise.js";
export type { CodexAutoraiseInput, CodexAutoraiseResult, CodexThresholdPlan, CodexAutoraiseSettings } from "./codex/autoraise.js";
export { CODEX_SECTION, CodexSectionSchema, codexConfigOf } from "./config/codexSection.js";
export type { CodexConfig, LegacyCodexKeys } from "./config/codexSection.js";
export { CODEX_ROUTE, codexRoute, installCodexRoute } from "./codex/route.js";
export { AUTORAISE_MARKER_FILE, hermesHome, autoraiseNoticeState, parseAutoraiseNoticeState, autoraiseNoticeText, autoraiseMarkerPath, shouldShowAutoraiseNotice, markAutoraiseNoticeShown, takeAutoraiseNotice } from "./codex/autoraiseNotice.js";
export type { AutoraiseEngineSource, AutoraiseNotice, AutoraiseChange } from "./codex/autoraiseNotice.js";
export { NATIVE_COMPACTION_OFFSET_TOKENS, nativeCompactionField, nativeCompactionRoute, nativeCompactThreshold, isNativeCompactionModel, foldCompactionItems, replayItemsFor, replayIssuer, isNativeCompactionRefusal, NativeCompactionState, sendWithNativeCompaction } from "./codex/responsesCompaction.js";
export type { NativeCompactionField, NativeCompactionRequest, NativeCompactionRoute, NativeCompactionSettings, AssistantReplayMetadata } from "./codex/responsesCompaction.js";
export { CODEX_APP_SERVER_API_MODE, APP_SERVER_COMPACT_METHOD, appServerCompactionPolicy, appServerThread, compactViaAppServer, recordAppServerCompaction, isAppServerSession, appServerSessionCompaction } from "./codex/appServer.js";
export type { AppServerAutoMode, AppServerCompactionTrigger, AppServerCompactionAction, AppServerThread, AppServerRpcClient, AppServerCompactionBoundary, RecordAppServerBoundary } from "./codex/appServer.js";

// Session store (in-place compaction archive) and the compaction session shell
export { openSqliteStore, SqliteSessionStore } from "./store/sqliteStore.js";
export type { SqliteStoreOptions } from "./store/sqliteStore.js";
export { SessionStoreError, CompactionConflictError, SearchQueryError } from "./store/types.js";
export { planSearchQuery, type SearchQueryPlan } from "./store/search.js";
export { MAX_QUERY_TERMS, queryTerms, ftsPhrase, literalFtsQuery, queryCutNote, type QueryTerms } from "./store/ftsQuery.js";
export type { SessionStore, EngineStateStore, SessionRecord, NewSession, StoredMessage, CompactionRecord, CompactionKind, CompactionInfo, SearchOptions, SearchHit, UndoResult, ListSessionsOptions, SessionOverview, SessionSearchStore, SessionStoreAsync, Awaitable, AwaitableMethods } from "./store/types.js";
export { sessionSearch, sessionEnds, runSessionSearch, sessionSearchToolSchema, canSearchSessions, showMessage, SessionSearchArgsSchema, SessionSearchError, SESSION_SEARCH_TOOL_NAME } from "./tools/sessionSearch.js";
export type { SessionSearchArgs, ShownMessage, SessionEnds, SessionSearchHit, SessionSearchResult, SessionSearchSource } from "./tools/sessionSearch.js";
export { CompactionSession } from "./session/CompactionSession.js";
export { CompactionSessionAsync, type CompactionSessionAsyncOptions } from "./session/CompactionSessionAsync.js";
export type { CompactionSessionOptions, CompactionSessionHost, MaybeCompressOptions, CompactionResult, CompactionOutcome } from "./session/CompactionSession.js";
export { compressionCountWarning, COMPRESSION_WARN_AFTER } from "./session/warnings.js";
export { toOpenAIChatMessages } from "./providers/openaiChat.js";
