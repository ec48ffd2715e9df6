/**
 * @context-engine/langchain — context engines in LangChain JS 1.x agents: a `createAgent` middleware that
 * compresses through the engine, feeds `usage_metadata` back and offers the engine's tools, summaries
 * written by any LangChain chat model (`langchainSummarizer`), and lossless converters between
 * `BaseMessage[]` and the engines' chat messages.
 */
export { contextEngineMiddleware, REMOVE_ALL_MESSAGES } from "./middleware.js";
export type { ContextEngineMiddlewareHost, ContextEngineMiddlewareOptions, LangChainCompressionEvent } from "./middleware.js";
export { toChatMessages, LangChainConversionError } from "./toChatMessages.js";
export { toBaseMessages } from "./toBaseMessages.js";
export { LANGCHAIN_MARKER } from "./marker.js";
export { engineTools } from "./tools.js";
export { langChainUsageReport } from "./usage.js";
export { langchainSummarizer } from "./summarizer.js";
export type { LangChainChatModel, LangChainSummarizerOptions } from "./summarizer.js";
