/** The OpenAI-compatible endpoints the summarizers know by name, and what they cache. */

/** OpenRouter's OpenAI-compatible endpoint. */
export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";
/** OpenAI's endpoint. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** True when two endpoint URLs are the same, case and trailing slashes aside. */
export function sameEndpoint(a: string, b: string): boolean {
  const bare = (url: string) => url.trim().replace(/\/+$/, "").toLowerCase();
  return bare(a) === bare(b);
}

/** The endpoint a provider name stands for (`openai`, `openrouter`), when it is one of these. */
export function providerEndpoint(provider: string | undefined): string | undefined {
  const name = provider?.trim().toLowerCase();
  if (name === "openai") return OPENAI_BASE_URL;
  if (name?.includes("openrouter")) return OPENROUTER_BASE_URL;
  return undefined;
}

/**
 * True for endpoints known to cache prompts by their prefix: OpenAI (automatic, from 1,024 tokens) and
 * OpenRouter (the provider's own caching; Claude models with the `cache_control` markers the request carries).
 */
export function knownToCachePrompts(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "api.openai.com" || host === "openrouter.ai";
}
