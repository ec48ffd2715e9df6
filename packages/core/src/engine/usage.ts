/**
 * Usage normalization: OpenAI chat, OpenAI Responses and Anthropic usage objects → one shape.
 * Validated with zod so garbage gives a clear error instead of NaN counters; a count that is missing or
 * null reads as 0 (upstream's `usage.get("prompt_tokens", 0)`), so does an object with no known count.
 */
import { z } from "zod";
import { lazy } from "../lazy.js";
import type { NormalizedUsage } from "./types.js";

/** A token count: a whole number ≥ 0, or missing/null (read as 0). */
const count = lazy(() => z.number().int().nonnegative().nullish());

const openAIChatUsage = lazy(() => z.looseObject({
  prompt_tokens: count(),
  completion_tokens: count(),
  total_tokens: count(),
  // OpenRouter adds cache_write_tokens (Anthropic models behind the OpenAI shape).
  prompt_tokens_details: z.looseObject({ cached_tokens: count().nullish(), cache_write_tokens: count().nullish() }).nullish(),
}));

const anthropicUsage = lazy(() => z.looseObject({
  input_tokens: count(),
  output_tokens: count(),
  cache_creation_input_tokens: count().nullish(),
  cache_read_input_tokens: count().nullish(),
}));

const responsesUsage = lazy(() => z.looseObject({
  input_tokens: count(),
  output_tokens: count(),
  total_tokens: count(),
  input_tokens_details: z.looseObject({ cached_tokens: count().nullish() }).nullish(),
}));

/** Thrown when a usage object is none of the known shapes. */
export class InvalidUsageError extends Error {
  constructor(detail: string) {
    super(`Invalid usage report: ${detail}`);
    this.name = "InvalidUsageError";
  }
}

/** What a usage object without any known count reads as. */
const NO_USAGE: NormalizedUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * Reduces a provider usage object to {@link NormalizedUsage}. Anthropic's prompt tokens are the sum of
 * uncached input, cache writes and cache reads; OpenAI's `prompt_tokens` already include cached ones.
 * Missing or null counts read as 0 (an object without any reads as all zeros); a count that is not a
 * whole number ≥ 0 throws {@link InvalidUsageError}.
 */
export function normalizeUsage(usage: unknown): NormalizedUsage {
  if (typeof usage !== "object" || usage === null) throw new InvalidUsageError(`expected an object, got ${usage === null ? "null" : typeof usage}`);
  const record = usage as Record<string, unknown>;
  if ("prompt_tokens" in record || "completion_tokens" in record) {
    const parsed = openAIChatUsage().safeParse(record);
    if (!parsed.success) throw new InvalidUsageError(z.prettifyError(parsed.error));
    const u = parsed.data;
    const prompt = u.prompt_tokens ?? 0;
    const completion = u.completion_tokens ?? 0;
    return {
      promptTokens: prompt,
      completionTokens: completion,
      totalTokens: u.total_tokens ?? prompt + completion,
      cacheReadTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: u.prompt_tokens_details?.cache_write_tokens ?? 0,
    };
  }
  if ("cache_creation_input_tokens" in record || "cache_read_input_tokens" in record) {
    const parsed = anthropicUsage().safeParse(record);
    if (!parsed.success) throw new InvalidUsageError(z.prettifyError(parsed.error));
    const u = parsed.data;
    const write = u.cache_creation_input_tokens ?? 0;
    const read = u.cache_read_input_tokens ?? 0;
    const prompt = (u.input_tokens ?? 0) + write + read;
    const completion = u.output_tokens ?? 0;
    return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion, cacheReadTokens: read, cacheWriteTokens: write };
  }
  if ("input_tokens" in record || "output_tokens" in record) {
    const parsed = responsesUsage().safeParse(record);
    if (!parsed.success) throw new InvalidUsageError(z.prettifyError(parsed.error));
    const u = parsed.data;
    const prompt = u.input_tokens ?? 0;
    const completion = u.output_tokens ?? 0;
    return {
      promptTokens: prompt,
      completionTokens: completion,
      totalTokens: u.total_tokens ?? prompt + completion,
      cacheReadTokens: u.input_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: 0,
    };
  }
  return { ...NO_USAGE };
}
