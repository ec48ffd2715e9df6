/** LangChain `usage_metadata` → the OpenAI-shaped usage report `engine.updateFromResponse` takes. */
import type { UsageMetadata } from "@langchain/core/messages";
import type { UsageReport } from "@context-engine/core";

/**
 * The OpenAI chat usage report of an AI message's `usage_metadata` (`input_tokens` already counts cached
 * input; `cache_read` and `cache_creation` go to `prompt_tokens_details`); undefined without usage.
 */
export function langChainUsageReport(usage: UsageMetadata | undefined): UsageReport | undefined {
  if (usage === undefined || typeof usage.input_tokens !== "number") return undefined;
  const output = usage.output_tokens ?? 0;
  const cached = usage.input_token_details?.cache_read;
  const written = usage.input_token_details?.cache_creation;
  const details = cached !== undefined || written !== undefined ? { prompt_tokens_details: { ...(cached !== undefined ? { cached_tokens: cached } : {}), ...(written !== undefined ? { cache_write_tokens: written } : {}) } } : {};
  return { prompt_tokens: usage.input_tokens, completion_tokens: output, total_tokens: usage.total_tokens ?? usage.input_tokens + output, ...details };
}
