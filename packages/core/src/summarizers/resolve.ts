/** Picks the summarizer from `auxiliary.compression`, the main model and the environment. */
import type { AuxiliaryCompressionConfig } from "../config/schema.js";
import { ExtractiveSummarizer } from "./extractive.js";
import { OpenAICompatibleSummarizer } from "./openaiCompatible.js";
import { ANTHROPIC_BASE_URL, AnthropicSummarizer } from "./anthropic.js";
import { isClaudeModel } from "../caching/status.js";
import type { Summarizer } from "./types.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";

import { OPENAI_BASE_URL, OPENROUTER_BASE_URL } from "./endpoints.js";

export { OPENAI_BASE_URL, OPENROUTER_BASE_URL } from "./endpoints.js";
/** Summary model used on OpenRouter when neither `auxiliary.compression.model` nor a main model is known. */
export const DEFAULT_OPENROUTER_SUMMARY_MODEL = "google/gemini-2.5-flash";
/** Summary model used on OpenAI (and custom endpoints) when no model is known. */
export const DEFAULT_OPENAI_SUMMARY_MODEL = "gpt-4o-mini";
/** Summary model used on Anthropic when neither `auxiliary.compression.model` nor a Claude main model is known. */
export const DEFAULT_ANTHROPIC_SUMMARY_MODEL = "claude-haiku-4-5";
/** The API key sent to a custom endpoint that needs none (local servers). */
export const NO_API_KEY = "none";

/** The main model, as far as the host knows it. */
export interface MainModelEndpoint {
  model: string;
  baseUrl?: string;
  apiKey?: string;
}

/** The chosen summarizer and one line saying which it is and why (never the key). */
export interface ResolvedSummarizer {
  summarizer: Summarizer;
  description: string;
}

interface Endpoint {
  baseUrl: string;
  apiKey: string;
  keySource: string;
  defaultModel: string;
}

function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function openRouter(apiKey: string, keySource: string): Endpoint {
  return { baseUrl: OPENROUTER_BASE_URL, apiKey, keySource, defaultModel: DEFAULT_OPENROUTER_SUMMARY_MODEL };
}

function openAI(apiKey: string, keySource: string): Endpoint {
  return { baseUrl: OPENAI_BASE_URL, apiKey, keySource, defaultModel: DEFAULT_OPENAI_SUMMARY_MODEL };
}

/** "auto": OPENROUTER_API_KEY, then OPENAI_API_KEY (an explicit `api_key` is routed by its prefix). */
function autoEndpoint(auxKey: string | undefined, env: NodeJS.ProcessEnv): Endpoint | undefined {
  if (auxKey) return auxKey.startsWith("sk-or-") ? openRouter(auxKey, "auxiliary.compression.api_key") : openAI(auxKey, "auxiliary.compression.api_key");
  const openRouterKey = nonEmpty(env.OPENROUTER_API_KEY);
  if (openRouterKey) return openRouter(openRouterKey, "OPENROUTER_API_KEY");
  const openAIKey = nonEmpty(env.OPENAI_API_KEY);
  if (openAIKey) return openAI(openAIKey, "OPENAI_API_KEY");
  return undefined;
}

/** How the main model is reached as the fallback of a separate summary model. */
interface MainFallback {
  fallbackModel: string;
  fallbackBaseUrl?: string;
  fallbackApiKey?: string;
}

/**
 * The main model as the summary model's fallback: on the main endpoint with the main key when the host
 * knows them (a refused summary key or endpoint is then no obstacle), else on the summary endpoint, if
 * the main model can exist there (not on an unrelated custom `base_url`).
 */
function mainFallback(mainModel: string, main: MainModelEndpoint | undefined, endpoint: Endpoint, auxBaseUrl: string | undefined): MainFallback | undefined {
  const mainBaseUrl = nonEmpty(main?.baseUrl);
  if (mainBaseUrl) {
    const sameEndpoint = mainBaseUrl === endpoint.baseUrl;
    const apiKey = nonEmpty(main?.apiKey) ?? (sameEndpoint ? endpoint.apiKey : NO_API_KEY);
    return { fallbackModel: mainModel, fallbackBaseUrl: mainBaseUrl, fallbackApiKey: apiKey };
  }
  return auxBaseUrl ? undefined : { fallbackModel: mainModel };
}

function offline(reason: string): ResolvedSummarizer {
  return { summarizer: new ExtractiveSummarizer(), description: `extractive (offline): ${reason}` };
}

/** A Claude model's id on Anthropic's own API (an OpenRouter-style `anthropic/` prefix dropped); undefined for another family. */
function claudeId(model: string | undefined): string | undefined {
  return model !== undefined && isClaudeModel(model) ? model.replace(/^anthropic\//i, "") : undefined;
}

/**
 * Provider "anthropic": the Messages API at `base_url` (default Anthropic's) with `api_key`, else
 * ANTHROPIC_API_KEY. Model: `model`, else a Claude main model, else {@link DEFAULT_ANTHROPIC_SUMMARY_MODEL};
 * a configured model falls back once to a Claude main model that differs.
 */
function anthropic(aux: AuxiliaryCompressionConfig, mainModel: string | undefined, env: NodeJS.ProcessEnv, cacheTtl: CacheTtl | undefined): ResolvedSummarizer {
  const auxKey = nonEmpty(aux.api_key);
  const apiKey = auxKey ?? nonEmpty(env.ANTHROPIC_API_KEY);
  if (!apiKey) return offline("provider anthropic needs ANTHROPIC_API_KEY or auxiliary.compression.api_key");
  const baseUrl = nonEmpty(aux.base_url) ?? ANTHROPIC_BASE_URL;
  const configured = nonEmpty(aux.model);
  const main = claudeId(mainModel);
  const model = configured ?? main ?? DEFAULT_ANTHROPIC_SUMMARY_MODEL;
  const fallbackModel = configured !== undefined && main !== undefined && main !== configured ? main : undefined;
  const summarizer = new AnthropicSummarizer({ apiKey, baseUrl, model, fallbackModel, timeoutMs: Math.round(aux.timeout * 1000), oversizedRange: aux.oversized_range, cacheTtl });
  const keySource = auxKey ? "auxiliary.compression.api_key" : "ANTHROPIC_API_KEY";
  return { summarizer, description: `${summarizer.name} at ${baseUrl} (key: ${keySource}, timeout ${aux.timeout}s${fallbackModel ? `, falls back to ${fallbackModel}` : ""})` };
}

/**
 * Chooses the summarizer. Provider "anthropic" is Anthropic's Messages API (see {@link anthropic}; its
 * `base_url` is that API's root). Otherwise an explicit `base_url` always wins (key: `api_key`, else OPENAI_API_KEY, else
 * "none"). Provider "auto" uses OpenRouter when OPENROUTER_API_KEY is set, else OpenAI with OPENAI_API_KEY;
 * "openrouter" / "openai" are explicit; "main" uses the main model's endpoint. With nothing available the
 * offline {@link ExtractiveSummarizer} is returned. Model: `model`, else the main model, else a default
 * per provider. A configured model that differs from the main model falls back to it once, on the main
 * model's own endpoint and key when `main` gives them. `caching.cacheTtl` (`prompt_caching.cache_ttl`) is
 * the lifetime of the cache markers a summary request sent as the conversation's suffix places, as the
 * agent's requests place them.
 */
export function createSummarizer(
  aux: AuxiliaryCompressionConfig,
  main?: MainModelEndpoint,
  env: NodeJS.ProcessEnv = process.env,
  caching: { cacheTtl?: CacheTtl } = {},
): ResolvedSummarizer {
  const auxKey = nonEmpty(aux.api_key);
  const auxBaseUrl = nonEmpty(aux.base_url);
  const provider = (nonEmpty(aux.provider) ?? "auto").toLowerCase();
  const mainModel = nonEmpty(main?.model);
  const mainBaseUrl = nonEmpty(main?.baseUrl);

  if (provider === "anthropic") return anthropic(aux, mainModel, env, caching.cacheTtl);
  let endpoint: Endpoint | undefined;
  if (auxBaseUrl) {
    const envKey = nonEmpty(env.OPENAI_API_KEY);
    endpoint = {
      baseUrl: auxBaseUrl,
      apiKey: auxKey ?? envKey ?? NO_API_KEY,
      keySource: auxKey ? "auxiliary.compression.api_key" : envKey ? "OPENAI_API_KEY" : "no key",
      defaultModel: DEFAULT_OPENAI_SUMMARY_MODEL,
    };
  } else if (provider === "auto") {
    endpoint = autoEndpoint(auxKey, env);
    if (!endpoint) return offline("no auxiliary.compression.base_url and neither OPENROUTER_API_KEY nor OPENAI_API_KEY is set");
  } else if (provider === "openrouter") {
    const key = auxKey ?? nonEmpty(env.OPENROUTER_API_KEY);
    if (!key) return offline("provider openrouter needs OPENROUTER_API_KEY or auxiliary.compression.api_key");
    endpoint = openRouter(key, auxKey ? "auxiliary.compression.api_key" : "OPENROUTER_API_KEY");
  } else if (provider === "openai") {
    const key = auxKey ?? nonEmpty(env.OPENAI_API_KEY);
    if (!key) return offline("provider openai needs OPENAI_API_KEY or auxiliary.compression.api_key");
    endpoint = openAI(key, auxKey ? "auxiliary.compression.api_key" : "OPENAI_API_KEY");
  } else if (provider === "main") {
    if (mainBaseUrl) {
      const key = nonEmpty(main?.apiKey) ?? auxKey ?? nonEmpty(env.OPENAI_API_KEY);
      endpoint = { baseUrl: mainBaseUrl, apiKey: key ?? NO_API_KEY, keySource: key ? "main model key" : "no key", defaultModel: DEFAULT_OPENAI_SUMMARY_MODEL };
    } else {
      endpoint = autoEndpoint(auxKey, env);
      if (!endpoint) return offline("provider main has no known endpoint and neither OPENROUTER_API_KEY nor OPENAI_API_KEY is set");
    }
  } else {
    return offline(`provider "${aux.provider}" is not built in; set auxiliary.compression.base_url to its OpenAI-compatible endpoint`);
  }

  const configuredModel = nonEmpty(aux.model);
  const model = configuredModel ?? mainModel ?? endpoint.defaultModel;
  const fallback = configuredModel && mainModel && mainModel !== configuredModel ? mainFallback(mainModel, main, endpoint, auxBaseUrl) : undefined;

  const summarizer = new OpenAICompatibleSummarizer({
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    model,
    ...fallback,
    timeoutMs: Math.round(aux.timeout * 1000),
    oversizedRange: aux.oversized_range,
    ...(caching.cacheTtl ? { cacheTtl: caching.cacheTtl } : {}),
  });
  const fallbackWhere = fallback?.fallbackBaseUrl !== undefined && fallback.fallbackBaseUrl !== endpoint.baseUrl ? ` at ${fallback.fallbackBaseUrl}` : "";
  const fallbackNote = fallback ? `, falls back to ${fallback.fallbackModel}${fallbackWhere}` : "";
  return {
    summarizer,
    description: `${summarizer.name} at ${endpoint.baseUrl} (key: ${endpoint.keySource}, timeout ${aux.timeout}s${fallbackNote})`,
  };
}
