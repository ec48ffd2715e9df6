/** AI SDK usage → the OpenAI-shaped usage report `engine.updateFromResponse` takes. */
import type { LanguageModelUsage, ProviderMiddleware } from "./aiTypes.js";
import type { UsageReport } from "@context-engine/core";

/**
 * The OpenAI chat usage report of an AI SDK step's `usage` (`inputTokens` already counts cached input;
 * cache reads and writes go to `prompt_tokens_details`); undefined when the provider reported no input tokens.
 */
export function aiSdkUsageReport(usage: LanguageModelUsage | undefined): UsageReport | undefined {
  const input = usage?.inputTokens;
  if (usage === undefined || typeof input !== "number") return undefined;
  const output = usage.outputTokens ?? 0;
  const cached = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens;
  const written = usage.inputTokenDetails?.cacheWriteTokens;
  const details = cached !== undefined || written !== undefined ? { prompt_tokens_details: { ...(cached !== undefined ? { cached_tokens: cached } : {}), ...(written !== undefined ? { cache_write_tokens: written } : {}) } } : {};
  return { prompt_tokens: input, completion_tokens: output, total_tokens: usage.totalTokens ?? input + output, ...details };
}

/** The usage a language model reports to a middleware (`LanguageModelV3Usage`). */
export type LanguageModelCallUsage = Awaited<ReturnType<NonNullable<ProviderMiddleware["wrapGenerate"]>>>["usage"];

/** The OpenAI chat usage report of a language model's own usage (what `wrapGenerate` and a stream's `finish` part carry), read as the AI SDK reads it. */
export function languageModelUsageReport(usage: LanguageModelCallUsage | undefined): UsageReport | undefined {
  if (usage === undefined) return undefined;
  const { inputTokens: input, outputTokens: output } = usage;
  const total = input.total !== undefined || output.total !== undefined ? (input.total ?? 0) + (output.total ?? 0) : undefined;
  return aiSdkUsageReport({
    inputTokens: input.total,
    inputTokenDetails: { noCacheTokens: input.noCache, cacheReadTokens: input.cacheRead, cacheWriteTokens: input.cacheWrite },
    outputTokens: output.total,
    outputTokenDetails: { textTokens: output.text, reasoningTokens: output.reasoning },
    totalTokens: total,
  });
}
