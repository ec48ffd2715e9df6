import { describe, expect, it } from "vitest";
import { normalizeUsage, InvalidUsageError } from "../../src/engine/usage.js";

describe("normalizeUsage", () => {
  it("reads OpenAI chat usage with cached prompt tokens", () => {
    expect(normalizeUsage({ prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 } })).toEqual({
      promptTokens: 1200, completionTokens: 80, totalTokens: 1280, cacheReadTokens: 1024, cacheWriteTokens: 0,
    });
  });

  it("reads OpenRouter's cache writes from the OpenAI chat shape", () => {
    expect(normalizeUsage({ prompt_tokens: 5000, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 3000, cache_write_tokens: 1900 } })).toMatchObject({
      promptTokens: 5000, cacheReadTokens: 3000, cacheWriteTokens: 1900,
    });
  });

  it("reads OpenAI Responses usage", () => {
    expect(normalizeUsage({ input_tokens: 900, output_tokens: 50, input_tokens_details: { cached_tokens: 0 } })).toMatchObject({ promptTokens: 900, completionTokens: 50, totalTokens: 950 });
  });

  it("counts Anthropic prompt tokens as uncached input plus cache writes plus cache reads", () => {
    expect(normalizeUsage({ input_tokens: 10, cache_creation_input_tokens: 2000, cache_read_input_tokens: 30_000, output_tokens: 400 })).toEqual({
      promptTokens: 32_010, completionTokens: 400, totalTokens: 32_410, cacheReadTokens: 30_000, cacheWriteTokens: 2000,
    });
  });

  it("rejects garbage with a readable error instead of producing NaN", () => {
    expect(() => normalizeUsage({ prompt_tokens: "many" })).toThrow(InvalidUsageError);
    expect(() => normalizeUsage({ prompt_tokens: -1 })).toThrow(/prompt_tokens/);
    expect(() => normalizeUsage(null)).toThrow("expected an object, got null");
  });
});
