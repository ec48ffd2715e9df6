/**
 * The AI SDK types the adapter's declarations name, taken from `@ai-sdk/provider` and
 * `@ai-sdk/provider-utils` (the packages `ai` re-exports them from) and never from `ai` itself: `ai`'s
 * own dist/index.d.ts does not type-check under `exactOptionalPropertyTypes` with `skipLibCheck` off,
 * while those two do, so a strict project that imports this package checks clean (README, "Use it in your
 * own project"). The values are the same types `ai` exports.
 */
import type { LanguageModelV3Middleware } from "@ai-sdk/provider";
import type { ModelMessage, Tool } from "@ai-sdk/provider-utils";

export type { ModelMessage };

/** `ai`'s `LanguageModelMiddleware` (an alias of `LanguageModelV3Middleware`). */
export type LanguageModelMiddleware = LanguageModelV3Middleware;

/** Tools by name, as `generateText`'s `tools` takes them (what `ai`'s `ToolSet` holds). */
export type ToolSet = Record<string, Tool<any, any>>;

/** The part of `ai`'s `LanguageModelUsage` (a step's `usage`) the adapter reads. */
export interface LanguageModelUsage {
  inputTokens: number | undefined;
  inputTokenDetails?: { noCacheTokens?: number | undefined; cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined } | undefined;
  outputTokens: number | undefined;
  outputTokenDetails?: { textTokens?: number | undefined; reasoningTokens?: number | undefined } | undefined;
  totalTokens: number | undefined;
  /** Deprecated by the AI SDK in favour of `inputTokenDetails.cacheReadTokens`; read when that is missing. */
  cachedInputTokens?: number | undefined;
}
