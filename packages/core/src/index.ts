/**
 * @context-engine/core — the public names of API.md. Internals stay unexported.
 */
// Messages
export { parseMessages, InvalidMessagesError, ChatMessageSchema, ToolCallSchema, ContentPartSchema } from "./messages/schema.ts";
export type { ChatMessage, ContentPart, ToolCall, Role, MessageIssue } from "./messages/schema.ts";
export { validateConversation } from "./messages/validate.ts";
export type { ConversationProblem, ConversationProblemCode, ValidateOptions } from "./messages/validate.ts";
export { messageText, contentText, searchableText } from "./messages/text.ts";
export { canonicalJson } from "./messages/canonicalJson.ts";
export { sanitizeToolPairs, alignBoundaryBackward, alignBoundaryForward, toolCallKey, pendingToolCallsStart, STUB_TOOL_RESULT } from "./messages/toolPairs.ts";

// Engine contract
export { ContextEngine, AWAITING_REAL_USAGE, DEFAULT_MODEL, isContextEngine, thresholdSettingsFromConfig } from "./engine/ContextEngine.ts";
export type { ContextEngineOptions } from "./engine/ContextEngine.ts";
export type { CompressOptions, ModelInfo, EngineStatus, SessionInfo, ToolSchema, UsageReport, NormalizedUsage } from "./engine/types.ts";
export { normalizeUsage, InvalidUsageError } from "./engine/usage.ts";

// Config
export { loadConfig, parseConfigText, validateConfigObject, setConfigValue, parseConfigValue, formatConfigYaml, ConfigError } from "./config/load.ts";
export type { ConfigIssue } from "./config/load.ts";
export { HostConfigSchema, ENGINE_NAME_PATTERN } from "./config/schema.ts";
export type { HostConfig, CompressionConfig, AuxiliaryCompressionConfig } from "./config/schema.ts";

// Host, resolution and plugins
export { createContextHost } from "./host/createContextHost.ts";
export type { ContextHost, ContextHostOptions } from "./host/createContextHost.ts";
export { BUILTIN_ENGINE } from "./host/builtin.ts";
export { createHostHooks } from "./host/hooks.ts";
export type { HostHooks, SessionCompressEvent } from "./host/hooks.ts";
export type { PluginContext, EngineContext, EngineFactory, EngineClass, EngineRegistration, EngineSource, PluginModule } from "./host/types.ts";
export { modelInfoFromConfig, knownContextLength } from "./host/modelInfo.ts";

// Thresholds
export { resolveModelThreshold, effectiveThresholdPercent, computeThresholds, summaryTokenBudget, clampTargetRatio } from "./compressor/thresholds.ts";
export type { ThresholdSettings, ThresholdPlan } from "./compressor/thresholds.ts";

// Built-in compressor
export { ContextCompressor, PAUSE_AFTER_STREAK } from "./compressor/ContextCompressor.ts";
export type { ContextCompressorOptions, ShouldCompressInfo, ShouldCompressReason, CompressionReport } from "./compressor/ContextCompressor.ts";
export { PRUNED_TOOL_PLACEHOLDER, pruneOldToolResults } from "./compressor/phase1Prune.ts";
export { planBoundaries } from "./compressor/phase2Boundaries.ts";
export { SUMMARY_PREFIX, SUMMARY_END_MARKER, COMPACTION_SYSTEM_NOTE, findLatestSummary } from "./compressor/summaryMessage.ts";
export { prepareCompaction } from "./compressor/prepareCompaction.ts";

// Tokens
export { estimateTokensRough, estimateMessagesTokensRough } from "./tokens/rough.ts";
export { TiktokenCounter, RoughTokenCounter, MemoizedTokenCounter, defaultTokenCounter } from "./tokens/counter.ts";
export { estimateMessageTokensRough, IMAGE_TOKENS } from "./tokens/rough.ts";
export type { TokenCounter } from "./tokens/types.ts";

// Summarizers
export type { Summarizer, SummaryRequest } from "./summarizers/types.ts";
export { SUMMARY_SECTIONS } from "./summarizers/types.ts";
export { ExtractiveSummarizer } from "./summarizers/extractive.ts";
export { OpenAICompatibleSummarizer } from "./summarizers/openaiCompatible.ts";
export type { OpenAICompatibleSummarizerOptions } from "./summarizers/openaiCompatible.ts";
export { createSummarizer } from "./summarizers/resolve.ts";
export type { MainModelEndpoint, ResolvedSummarizer } from "./summarizers/resolve.ts";
export { classifySummaryFailure, cooldownSeconds, EmptySummaryError, InvalidSummaryResponseError } from "./summarizers/failures.ts";
export type { SummaryFailure } from "./summarizers/failures.ts";
export { buildSummaryPrompt, normalizeSummary } from "./summarizers/prompt.ts";
export { serializeTurns } from "./summarizers/serialize.ts";
export { redactSecrets } from "./summarizers/redact.ts";

// Prompt caching and providers
export { applyAnthropicCacheControl, stripCacheControl, countCacheBreakpoints } from "./caching/anthropicCacheControl.ts";
export type { AnthropicCacheControlOptions } from "./caching/anthropicCacheControl.ts";
export { promptCachingStatus, isClaudeModel } from "./caching/status.ts";
export type { PromptCachingStatus } from "./caching/status.ts";
export { simulatePrefixCache, totalsOf } from "./caching/prefixCacheModel.ts";
export type { CacheRequest, PrefixCacheOptions, RequestCacheAccounting, PrefixCacheTotals, PrefixCacheReport, FullMissReason } from "./caching/prefixCacheModel.ts";
export { MAX_CACHE_BREAKPOINTS, minimumCacheableTokens } from "./providers/anthropicFacts.ts";
export type { CacheTtl, CacheControlMarker } from "./providers/anthropicFacts.ts";
export { DEFAULT_PRICES, lookupModelPrice, parsePriceTable, requestCostUsd } from "./providers/prices.ts";
export type { ModelPrice, PriceTable, BilledTokens } from "./providers/prices.ts";
export { toAnthropicMessages, AnthropicAdapterError } from "./providers/anthropicAdapter.ts";
export type { AnthropicRequestOptions } from "./providers/anthropicAdapter.ts";

// Transcript importers
export { importTranscript, importTranscriptFile, detectTranscriptFormat, importClaudeCode, importSweAgent, importOpenHands, importOpenAIMessages, importSpecStory, importCctraceXml, TRANSCRIPT_FORMATS, TranscriptImportError } from "./importers/index.ts";
export type { ImportOptions, ImportResult, TranscriptFormat } from "./importers/index.ts";

// Gateway session hygiene
export { gatewayHygiene, hygieneAfterMessage, hygieneThresholdTokens, GATEWAY_HYGIENE_THRESHOLD, GATEWAY_HYGIENE_WARN_AFTER, DEFAULT_HYGIENE_HARD_MESSAGE_LIMIT, GATEWAY_HYGIENE_MIN_MESSAGES, HYGIENE_ABORT_NOTICE } from "./gateway/hygiene.ts";
export type { HygieneState, HygieneDecision, HygieneReason, HygieneOutcome } from "./gateway/hygiene.ts";

// Replay report
export { replayConversation, responseIndexes, providerUsage } from "./replay/replayConversation.ts";
export { requestTimestamps, messageTimestampMs, DEFAULT_REQUEST_CADENCE_MS, DEFAULT_REPLAY_START_MS } from "./replay/timestamps.ts";
export type { ReplayOptions, ReplayReport, ReplayRequest, ReplayTotals, CompactionEffect, RequestCompaction, CompactionLayer, FullMissNote, ReplaySwitch, ReplayProgress } from "./replay/types.ts";

// Codex routes: windows and -900k aliases, threshold autoraise, Responses native compaction, app-server
export { CODEX_PROVIDER, CODEX_ADVERTISED_WINDOW, CODEX_LARGE_VARIANT_WINDOW, CODEX_LARGE_VARIANT_BASES, CODEX_CAPPED_MODELS, LARGE_VARIANT_SUFFIX, CodexModelError, resolveCodexModel, routeContextWindow, baseModelName, codexModelFamily, isCodexProvider } from "./codex/models.ts";
export type { ResolvedCodexModel } from "./codex/models.ts";
export { CODEX_AUTORAISE_PERCENT, codexAutoraise, codexThresholdPlan, isCodexAutoraiseEligible } from "./codex/autoraise.ts";
export type { CodexAutoraiseInput, CodexAutoraiseResult, CodexThresholdPlan, AutoraiseNotice } from "./codex/autoraise.ts";
export { AUTORAISE_MARKER_FILE, hermesHome, autoraiseNoticeState, parseAutoraiseNoticeState, autoraiseNoticeText, autoraiseMarkerPath, shouldShowAutoraiseNotice, markAutoraiseNoticeShown, takeAutoraiseNotice } from "./codex/autoraiseNotice.ts";
export type { AutoraiseEngineSource } from "./codex/autoraiseNotice.ts";
export { NATIVE_COMPACTION_OFFSET_TOKENS, nativeCompactionField, nativeCompactionRoute, nativeCompactThreshold, isNativeCompactionModel, foldCompactionItems, replayItemsFor, replayIssuer, isNativeCompactionRefusal, NativeCompactionState, sendWithNativeCompaction } from "./codex/responsesCompaction.ts";
export type { NativeCompactionField, NativeCompactionRequest, NativeCompactionRoute, AssistantReplayMetadata } from "./codex/responsesCompaction.ts";
export { CODEX_APP_SERVER_API_MODE, APP_SERVER_COMPACT_METHOD, appServerCompactionPolicy, appServerThread, compactViaAppServer, recordAppServerCompaction, isAppServerSession } from "./codex/appServer.ts";
export type { AppServerAutoMode, AppServerCompactionTrigger, AppServerCompactionAction, AppServerThread, AppServerRpcClient, AppServerCompactionBoundary, RecordAppServerBoundary } from "./codex/appServer.ts";

// Session store (in-place compaction archive) and the compaction session shell
export { openSqliteStore, SqliteSessionStore } from "./store/sqliteStore.ts";
export type { SqliteStoreOptions } from "./store/sqliteStore.ts";
export { SessionStoreError, SearchQueryError } from "./store/types.ts";
export type { SessionStore, SessionRecord, NewSession, StoredMessage, CompactionRecord, CompactionKind, CompactionInfo, SearchOptions, SearchHit, UndoResult } from "./store/types.ts";
export { CompactionSession } from "./session/CompactionSession.ts";
export type { CompactionSessionOptions, CompactionSessionHost, MaybeCompressOptions, CompactionResult, CompactionOutcome } from "./session/CompactionSession.ts";
export { compressionCountWarning, COMPRESSION_WARN_AFTER } from "./session/warnings.ts";
export { toOpenAIChatMessages } from "./providers/openaiChat.ts";
