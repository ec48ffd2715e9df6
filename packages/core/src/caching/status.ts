/**
 * Whether prompt caching applies to a model + provider (docs/BEHAVIOUR.md, "Prompt caching"): a Claude model (judged from its
 * name) behind a provider that accepts `cache_control` (Anthropic direct, or OpenRouter). The CLI
 * prints the banner at start-up.
 */
import { assertCacheTtl } from "../providers/anthropicFacts.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";

/** Providers that accept `cache_control` markers, as shown in the banner. */
export type CachingProvider = "Anthropic" | "OpenRouter";

/** The caching state of a model + provider pair. */
export interface PromptCachingStatus {
  enabled: boolean;
  /** One line for the CLI, e.g. `💾 Prompt caching: ENABLED (Claude via OpenRouter, 5m TTL)`. */
  banner: string;
  ttl: CacheTtl;
  /** True when requests go to the Anthropic API directly (markers are placed the native way). */
  nativeAnthropic: boolean;
  /** Why caching is off; absent when enabled. */
  reason?: string;
}

const CLAUDE_FAMILY = /(^|[^a-z])(opus|sonnet|haiku)([^a-z]|$)/;

/**
 * True for Claude model ids: `claude-…`, `anthropic/claude-…`, `us.anthropic.claude-…`, or ids that name
 * a Claude family (`opus`, `sonnet`, `haiku` as a word, e.g. `sonnet-4.5`).
 */
export function isClaudeModel(model: string): boolean {
  const id = model.trim().toLowerCase();
  if (id === "") return false;
  return id.includes("claude") || id.startsWith("anthropic/") || CLAUDE_FAMILY.test(id);
}

/** The caching provider `provider` names (case-insensitive), or undefined when it does not accept `cache_control`. */
export function cachingProvider(provider: string): CachingProvider | undefined {
  const name = provider.trim().toLowerCase();
  if (name === "anthropic" || name.startsWith("anthropic-") || name === "claude") return "Anthropic";
  if (name.includes("openrouter")) return "OpenRouter";
  return undefined;
}

/** Decides whether prompt caching is on for `model` via `provider`, with the start-up banner line. */
export function promptCachingStatus(model: string, provider: string, ttl: CacheTtl = "5m"): PromptCachingStatus {
  assertCacheTtl(ttl, "promptCachingStatus: ttl");
  const via = cachingProvider(provider);
  let reason: string | undefined;
  if (!isClaudeModel(model)) {
    reason = `${model.trim() === "" ? "(no model)" : model} is not a Claude model`;
  } else if (via === undefined) {
    reason = `provider ${provider.trim() === "" ? "(none)" : provider} does not support cache_control`;
  }
  if (reason !== undefined || via === undefined) {
    return { enabled: false, banner: `💾 Prompt caching: DISABLED (${reason})`, ttl, nativeAnthropic: false, reason };
  }
  return { enabled: true, banner: `💾 Prompt caching: ENABLED (Claude via ${via}, ${ttl} TTL)`, ttl, nativeAnthropic: via === "Anthropic" };
}
