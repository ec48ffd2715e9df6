/** The main model's size from config, with known context windows for common model families. */
import type { HostConfig } from "../config/schema.js";
import type { ModelInfo } from "../engine/types.js";
import type { RouteHooks } from "./hooks.js";
import { defaultRouteHooks } from "../routes/builtin.js";

/** Context windows by model-name substring (longest match wins); a fallback when config gives none. */
export const KNOWN_CONTEXT_WINDOWS: Record<string, number> = {
  claude: 200_000,
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-5": 400_000,
  "gpt-5.5": 1_050_000,
  "gemini-2.5": 1_048_576,
  "glm-5.2": 200_000,
  "deepseek": 128_000,
};

/** The default window when nothing is known about the model. */
export const DEFAULT_CONTEXT_LENGTH = 200_000;

/**
 * Looks up a model's window: what `routes` know of it on `provider` first (the built-in routes know
 * local large-window aliases and provider caps), then the longest matching name substring. A route may
 * throw for a name it cannot serve.
 */
export function knownContextLength(model: string, provider?: string, routes: RouteHooks = defaultRouteHooks()): number | undefined {
  const routed = routes.contextWindow.call(model, provider, "model");
  if (routed !== undefined) return routed;
  let best: [string, number] | undefined;
  for (const entry of Object.entries(KNOWN_CONTEXT_WINDOWS)) {
    if (model.toLowerCase().includes(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** The {@link ModelInfo} the `model:` section describes (name "unknown", 200,000 tokens when absent); windows as {@link knownContextLength} finds them. */
export function modelInfoFromConfig(config: HostConfig, routes: RouteHooks = defaultRouteHooks()): ModelInfo {
  const m = config.model;
  if (m === undefined) return { model: "unknown", contextLength: DEFAULT_CONTEXT_LENGTH };
  if (typeof m === "string") return { model: m, contextLength: knownContextLength(m, undefined, routes) ?? DEFAULT_CONTEXT_LENGTH };
  const model = m.default ?? m.name ?? "unknown";
  const info: ModelInfo = { model, contextLength: m.context_length ?? knownContextLength(model, m.provider, routes) ?? DEFAULT_CONTEXT_LENGTH };
  if (m.provider) info.provider = m.provider;
  if (m.base_url) info.baseUrl = m.base_url;
  if (m.api_mode) info.apiMode = m.api_mode;
  if (m.max_tokens) info.maxTokens = m.max_tokens;
  return info;
}
