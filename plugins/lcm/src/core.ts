/**
 * Everything lcm uses from `@context-engine/core`, re-exported from one place. Until core's barrel is
 * filled these point at core's source files by relative path; switching to `"@context-engine/core"`
 * is a change to this file only.
 */
export { ContextEngine, AWAITING_REAL_USAGE } from "../../../packages/core/src/engine/ContextEngine.ts";
export type { ContextEngineOptions } from "../../../packages/core/src/engine/ContextEngine.ts";
export type { CompressOptions, ModelInfo, SessionInfo, ToolSchema } from "../../../packages/core/src/engine/types.ts";
export { parseMessages, InvalidMessagesError } from "../../../packages/core/src/messages/schema.ts";
export type { ChatMessage, ToolCall } from "../../../packages/core/src/messages/schema.ts";
export { validateConversation } from "../../../packages/core/src/messages/validate.ts";
export type { ConversationProblem } from "../../../packages/core/src/messages/validate.ts";
export { sanitizeToolPairs, alignBoundaryBackward, STUB_TOOL_RESULT } from "../../../packages/core/src/messages/toolPairs.ts";
export type { Summarizer, SummaryRequest } from "../../../packages/core/src/summarizers/types.ts";
export { ExtractiveSummarizer } from "../../../packages/core/src/summarizers/extractive.ts";
export type { TokenCounter } from "../../../packages/core/src/tokens/types.ts";
export { RoughTokenCounter } from "../../../packages/core/src/tokens/counter.ts";
export { estimateTokensRough } from "../../../packages/core/src/tokens/rough.ts";
