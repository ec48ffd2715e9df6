/**
 * `@context-engine/core/summarizers` — summaries from a model of your own: {@link LlmSummarizer} asks any
 * {@link SummaryModelClient} (one prompt in, text and usage out) through the same prompts and failure
 * ladder as the built-in LLM summarizer (chunked ranges, deadline, Retry-After retry, fallback model,
 * errors classified for the compressor's cooldowns and offline fallback). The OpenAI-compatible and
 * Anthropic clients are here, and can send a summary as the conversation's suffix (a client's optional
 * `suffix`, `compression.summary_request: suffix`); `@context-engine/ai-sdk` and `@context-engine/langchain`
 * add the AI SDK's and LangChain's. The `Summarizer` contract itself is the root's.
 */
export { LlmSummarizer, DEFAULT_SUMMARY_TIMEOUT_MS, DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_MAX_OUTPUT_TOKENS } from "./llmSummarizer.js";
export type { LlmSummarizerOptions } from "./llmSummarizer.js";
export { ModelCallError, httpErrorKind } from "./modelClient.js";
export type { SummaryModelClient, ModelCallInput, ModelCallResult, ModelCallErrorKind, ModelCallErrorInfo, ConversationSuffixClient, SuffixCallInput } from "./modelClient.js";
export { headersRetryAfterMs } from "./failures.js";
export type { ResponseHeaders } from "./failures.js";
export { openAICompatibleClient } from "./openaiCompatible.js";
export type { OpenAICompatibleEndpoint } from "./openaiCompatible.js";
export { AnthropicSummarizer, anthropicClient, ANTHROPIC_BASE_URL } from "./anthropic.js";
export type { AnthropicSummarizerOptions } from "./anthropic.js";
export { DEFAULT_ANTHROPIC_SUMMARY_MODEL } from "./resolve.js";
export type { SummaryConversation } from "./types.js";
