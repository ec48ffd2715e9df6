/**
 * @context-engine/ai-sdk — context engines in Vercel AI SDK 6 and 7 apps: a `prepareStep` (or a
 * language-model middleware) that compresses through the engine, usage fed back from every step, the
 * engine's tools as AI SDK tools, summaries written by any AI SDK model (`aiSdkSummarizer`), and lossless
 * converters between `ModelMessage[]` (or a provider prompt) and the engines' chat messages.
 */
export { createAiSdkAdapter, AiSdkAdapter } from "./adapter.js";
export type { AiSdkAdapterOptions, AiSdkAdapterHost, AiSdkCompressionEvent, StepInput } from "./adapter.js";
export { toChatMessages, AiSdkConversionError } from "./toChatMessages.js";
export { toModelMessages } from "./toModelMessages.js";
export { promptToChatMessages, toLanguageModelPrompt } from "./languageModelPrompt.js";
export type { LanguageModelCallOptions, LanguageModelPrompt } from "./languageModelPrompt.js";
export { AI_SDK_MARKER } from "./marker.js";
export { engineTools } from "./tools.js";
export { aiSdkUsageReport, languageModelUsageReport } from "./usage.js";
export type { LanguageModelCallUsage } from "./usage.js";
export { aiSdkSummarizer } from "./summarizer.js";
export type { AiSdkLanguageModel, AiSdkSummarizerOptions } from "./summarizer.js";
