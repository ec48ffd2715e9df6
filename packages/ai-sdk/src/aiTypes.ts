/**
 * The AI SDK types the adapter's declarations name, taken from `@ai-sdk/provider` and
 * `@ai-sdk/provider-utils` (the packages `ai` re-exports them from) and never from `ai` itself: `ai`'s
 * own dist/index.d.ts does not type-check under `exactOptionalPropertyTypes` with `skipLibCheck` off,
 * while those two do, so a strict project that imports this package checks clean (README, "Use it in your
 * own project"). The values are the same types `ai` exports. The adapter runs with ai 6 and ai 7: where
 * their types differ (ai 7's language models are `LanguageModelV4`), the names here take either.
 */
import type { LanguageModelV3Middleware } from "@ai-sdk/provider";
import type { ModelMessage, Tool } from "@ai-sdk/provider-utils";

export type { ModelMessage };

/**
 * The language-model specification the adapter's middleware reads (`LanguageModelV3Middleware`, ai 6's):
 * ai 7 hands a `LanguageModelV4`'s calls over in the same shape for what the adapter reads and writes
 * (the prompt, the usage, a stream's `finish` part).
 */
export type ProviderMiddleware = LanguageModelV3Middleware;

/**
 * A language-model middleware as `wrapLanguageModel` takes it in ai 6 (`LanguageModelV3Middleware`) and
 * in ai 7 (`LanguageModelMiddleware`, over `LanguageModelV4`). Its call options and results are those of
 * whichever specification the wrapped model speaks, so they are left open here.
 */
export interface LanguageModelMiddleware {
  readonly specificationVersion: "v3";
  transformParams: (options: { type: "generate" | "stream"; params: any; model: any }) => PromiseLike<any>;
  wrapGenerate: (options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }) => PromiseLike<any>;
  wrapStream: (options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }) => PromiseLike<any>;
}

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
