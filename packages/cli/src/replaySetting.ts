/** What `simulate` and `eval` replay with: the model, provider and window, and the replay options the host's config sets. */
import { defaultTokenCounter, knownContextLength, type ContextHost, type HostConfig, type Summarizer } from "@context-engine/core";
import { LlmSummarizer } from "@context-engine/core/summarizers";
import { isClaudeModel } from "@context-engine/core/providers";
import { MeteredSummarizer, parsePriceTable, type ReplayOptions } from "@context-engine/core/lab";

/** The model replayed when neither `--model` nor the config names one: a Claude model, so prompt caching is on. */
export const DEFAULT_SIMULATE_MODEL = "claude-sonnet-4";

/**
 * The model, provider and window a replay uses — the flags, else the configured model, else
 * {@link DEFAULT_SIMULATE_MODEL} with its known window — set on the host's engine.
 */
export function replayModel(host: ContextHost, flags: { model?: string | undefined; provider?: string | undefined }, contextLength: number | undefined): { model: string; provider: string; window: number } {
  const configured = host.model.model !== "unknown" ? host.model.model : undefined;
  const model = flags.model ?? configured ?? DEFAULT_SIMULATE_MODEL;
  const provider = flags.provider ?? host.model.provider ?? (isClaudeModel(model) ? "anthropic" : "openai");
  const window = contextLength ?? (flags.model === undefined && configured !== undefined ? host.model.contextLength : (knownContextLength(model) ?? host.model.contextLength));
  host.engine.updateModel({ ...host.model, model, provider, contextLength: window });
  return { model, provider, window };
}

/**
 * Wraps a replayed host's summarizer so that the replay prices the summaries its engine writes
 * (hostFromFlags' `wrapSummarizer`), an LLM summarizer's model being `auxiliary.compression.model` when set.
 */
export function meterSummaries(summarizer: Summarizer, config: HostConfig): Summarizer {
  const model = config.auxiliary.compression.model ?? undefined;
  return new MeteredSummarizer(summarizer, defaultTokenCounter(), { keepPrompts: true, ...(model ? { summaryModel: model } : {}) });
}

/**
 * The replay options the host's config sets: cache TTL, prices, minimum cacheable lengths, gateway
 * hygiene, and the summaries when its summarizer is metered ({@link meterSummaries}), priced at the model
 * an LLM summarizer calls, else at `auxiliary.compression.model`, else at the replayed `model`.
 */
export function hostReplayOptions(host: ContextHost, model: string): Pick<ReplayOptions, "ttl" | "prices" | "minimumCacheableTokens" | "hygiene" | "summaries"> {
  return {
    ttl: host.config.prompt_caching.cache_ttl,
    prices: parsePriceTable(host.config.prices),
    minimumCacheableTokens: host.config.prompt_caching.minimum_cacheable_tokens,
    hygiene: { enabled: host.config.compression.enabled, hardMessageLimit: host.config.compression.hygiene_hard_message_limit },
    ...(host.summarizer instanceof MeteredSummarizer ? { summaries: { calls: host.summarizer.calls, model: summaryModel(host.summarizer, host.config.auxiliary.compression.model ?? model) } } : {}),
  };
}

/** The model `metered`'s summaries go to: an LLM summarizer's own model (OpenAI-compatible, Anthropic, an AI SDK or LangChain model), else `otherwise`. */
function summaryModel(metered: MeteredSummarizer, otherwise: string): string {
  return metered.inner instanceof LlmSummarizer ? metered.inner.model : otherwise;
}
