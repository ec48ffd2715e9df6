/** Everything lcm uses from `@context-engine/core`, re-exported from one place. */
export { ContextEngine, AWAITING_REAL_USAGE, matchModelThreshold, effectiveThresholdPercent } from "@context-engine/core";
export type { ContextEngineOptions, CompressOptions, ModelInfo, SessionInfo, ToolSchema, Awaitable, HostHooks } from "@context-engine/core";
export { parseMessages, InvalidMessagesError, nearestConfigKey } from "@context-engine/core";
export type { ChatMessage, ToolCall } from "@context-engine/core";
export { validateConversation } from "@context-engine/core";
export type { ConversationProblem } from "@context-engine/core";
export { sanitizeToolPairs, alignBoundaryBackward, pendingToolCallsStart, toolCallKey, STUB_TOOL_RESULT } from "@context-engine/core";
export { COMPACTION_TAG, COMPACTION_SIGNATURE, SIGNED_COMPACTION_TAG, SUMMARY_END_MARKER, hasCompactionSignature, isLegacySummaryText } from "@context-engine/core";
export type { Summarizer, SummaryRequest } from "@context-engine/core";
export { ExtractiveSummarizer, redactSecrets, classifySummaryFailure } from "@context-engine/core";
export type { TokenCounter } from "@context-engine/core";
export { RoughTokenCounter, countingIdOf, estimateTokensRough } from "@context-engine/core";
export { contentText, searchableText, canonicalJson } from "@context-engine/core";
export { queryTerms, literalFtsQuery, queryCutNote, MAX_QUERY_TERMS } from "@context-engine/core";
export type { QueryTerms } from "@context-engine/core";
// types only: a plugin loaded by the host gets the root entry as the host's own module, the subpaths not
export type { ColumnDecoder, ColumnTypes, SqliteColumnTypes } from "@context-engine/core/store";
