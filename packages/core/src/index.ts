/**
 * @context-engine/core — the contract: what an engine author and a host need (the engine base class and
 * its types, messages and their validation, config, the host, token counters, the store and summarizer
 * interfaces, prompt caching). Every other area has its own entry: `/compressor`, `/store`, `/session`,
 * `/codex`, `/providers`, `/lab`, `/formats`, `/conformance` (and `/internal` for the sibling packages).
 */
// Messages
export { parseMessages, InvalidMessagesError, ChatMessageSchema, ToolCallSchema, ContentPartSchema } from "./messages/schema.js";
export type { ChatMessage, ContentPart, ToolCall, Role, MessageIssue } from "./messages/schema.js";
export { validateConversation } from "./messages/validate.js";
export type { ConversationProblem, ConversationProblemCode, ValidateOptions } from "./messages/validate.js";
export { messageText, contentText } from "./messages/text.js";
export { sanitizeToolPairs } from "./messages/toolPairs.js";
export { PRUNED_TOOL_PLACEHOLDER } from "./messages/prunedOutput.js";

// Engine contract
export { ContextEngine, AWAITING_REAL_USAGE, DEFAULT_MODEL, isContextEngine } from "./engine/ContextEngine.js";
export type { ContextEngineOptions } from "./engine/ContextEngine.js";
export { ENGINE_API_VERSION } from "./engine/apiVersion.js";
// what the host's engine throws for an output that breaks provider rules (context.validate_output; the check itself: /conformance)
export { InvalidEngineOutputError } from "./engine/invalidOutput.js";
export type { CompressOptions, ModelInfo, EngineStatus, SessionInfo, ToolCallContext, ToolSchema, ToolTraits, UsageReport, NormalizedUsage } from "./engine/types.js";
export { DEFAULT_SESSION_SCOPE } from "./engine/types.js";
export type { PrepareCompressionOptions, PreparationState, PreparationStatus } from "./engine/preparation.js";
// what getStatus() reports of the last compaction (compact_context's kit is in /compressor, the host's side in /session)
export type { LastCompaction } from "./engine/lastCompaction.js";
export { resolveModelThreshold, effectiveThresholdPercent } from "./engine/thresholds.js";
export type { ThresholdSettings, ThresholdPlan, ThresholdRule } from "./engine/thresholds.js";

// Config
export { loadConfig, parseConfigText, validateConfigObject, ConfigError } from "./config/load.js";
export type { ConfigIssue } from "./config/load.js";
export { HostConfigSchema, ENGINE_NAME_PATTERN } from "./config/schema.js";
export type { HostConfig, CompressionConfig, AuxiliaryCompressionConfig, UnknownSection } from "./config/schema.js";
// a plugin's own section: declared with `export const settings = z.object({...})` (docs/BEHAVIOUR.md, "Plugin settings")
export type { SettingsSchema } from "./config/pluginSettings.js";
/** zod 4, the copy the host validates with: a plugin declares its settings with it, with nothing to install. */
export { z } from "zod";

// Host, resolution and plugins
export { createContextHost } from "./host/createContextHost.js";
export type { ContextHost, ContextHostOptions } from "./host/createContextHost.js";
export { BUILTIN_ENGINE } from "./host/builtin.js";
export { createHostHooks } from "./host/hooks.js";
export type { HostHooks, SessionCompressEvent, EngineContext, EngineSource, StoreDriverRequest } from "./host/hooks.js";
// Route extensions: what a route taps (the built-in Codex route: `@context-engine/core/codex`)
export type { RouteHooks, RouteExtension, RouteConfig, RouteNotice, RoutedThresholdPlan, RouteNoticeContext, RouteCompaction, RouteSessionQuery, ServerThread, ServerCompactionBoundary, CompactionTrigger } from "./host/hooks.js";
export type { PluginContext, EngineFactory, EngineClass, EngineRegistration, PluginModule } from "./host/types.js";
export { modelInfoFromConfig, knownContextLength } from "./host/modelInfo.js";

// The built-in engine (its parts: `@context-engine/core/compressor`)
export { ContextCompressor } from "./compressor/ContextCompressor.js";
export type { ContextCompressorOptions } from "./compressor/ContextCompressor.js";
export { SUMMARY_PREFIX } from "./compressor/earlierSummaries.js";

// Tokens
export { estimateTokensRough, estimateMessagesTokensRough, estimateMessageTokensRough, IMAGE_TOKENS } from "./tokens/rough.js";
export { TiktokenCounter, RoughTokenCounter, MemoizedTokenCounter, defaultTokenCounter } from "./tokens/counter.js";
export type { TokenCounter } from "./tokens/types.js";

// Summarizers
export type { Summarizer, SummaryRequest, SummaryModelCall } from "./summarizers/types.js";
export { SUMMARY_SECTIONS } from "./summarizers/types.js";
export { ExtractiveSummarizer } from "./summarizers/extractive.js";
export { OpenAICompatibleSummarizer } from "./summarizers/openaiCompatible.js";
export type { OpenAICompatibleSummarizerOptions } from "./summarizers/openaiCompatible.js";

// Prompt caching (the provider wire formats: `@context-engine/core/providers`)
export { applyAnthropicCacheControl } from "./caching/anthropicCacheControl.js";
export type { AnthropicCacheControlOptions } from "./caching/anthropicCacheControl.js";
export { promptCachingStatus } from "./caching/status.js";
export type { PromptCachingStatus } from "./caching/status.js";

// Gateway session hygiene (its settings and thresholds: `@context-engine/core/session`)
export { gatewayHygiene } from "./gateway/hygiene.js";
export type { HygieneState, HygieneDecision, HygieneReason } from "./gateway/hygiene.js";

// The session store interface (the stores and their kit: `@context-engine/core/store`)
export { openSqliteStore } from "./store/sqliteStore.js";
export { SessionStoreError, CompactionConflictError } from "./store/types.js";
export type { SessionStore, EngineStateStore, SessionRecord, NewSession, StoredMessage, CompactionRecord, CompactionKind, CompactionInfo, SearchOptions, SearchHit, UndoResult, ListSessionsOptions, SessionOverview, SessionStoreAsync } from "./store/types.js";
