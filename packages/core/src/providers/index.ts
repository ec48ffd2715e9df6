/** `@context-engine/core/providers` — our messages in a provider's own wire format: Anthropic's Messages API request params (cache markers on the blocks that carry them) and OpenAI chat-completions messages with only the fields the API takes; which model names are Claude's. (Prompt caching's markers, `applyAnthropicCacheControl`, are the root's.) */

export { toAnthropicMessages, AnthropicAdapterError } from "./anthropicAdapter.js";
export type { AnthropicRequestOptions } from "./anthropicAdapter.js";
export { toOpenAIChatMessages } from "./openaiChat.js";
export { isClaudeModel } from "../caching/status.js";
export { stripCacheControl } from "../caching/anthropicCacheControl.js";
export type { CacheTtl } from "./anthropicFacts.js";
