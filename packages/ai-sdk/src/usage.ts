/** AI SDK usage → the OpenAI-shaped usage report `engine.updateFromResponse` takes. */
import type { LanguageModelUsage } from "ai";
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
