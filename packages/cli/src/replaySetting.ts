/** What `simulate` and `eval` replay with: the model, provider and window, and the replay options the host's config sets. */
import { knownContextLength, type ContextHost } from "@context-engine/core";
import { isClaudeModel } from "@context-engine/core/providers";
import { parsePriceTable, type ReplayOptions } from "@context-engine/core/lab";

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

/** The replay options the host's config sets: cache TTL, prices, minimum cacheable lengths, gateway hygiene. */
export function hostReplayOptions(host: ContextHost): Pick<ReplayOptions, "ttl" | "prices" | "minimumCacheableTokens" | "hygiene"> {
  return {
    ttl: host.config.prompt_caching.cache_ttl,
    prices: parsePriceTable(host.config.prices),
    minimumCacheableTokens: host.config.prompt_caching.minimum_cacheable_tokens,
    hygiene: { enabled: host.config.compression.enabled, hardMessageLimit: host.config.compression.hygiene_hard_message_limit },
  };
}

