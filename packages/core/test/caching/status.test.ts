import { describe, expect, it } from "vitest";
import { cachingProvider, isClaudeModel, promptCachingStatus } from "../../src/caching/status.js";

describe("promptCachingStatus", () => {
  it("is enabled for a Claude model via OpenRouter, with the exact banner", () => {
    const status = promptCachingStatus("anthropic/claude-sonnet-4.5", "openrouter");
    expect(status.enabled).toBe(true);
    expect(status.banner).toBe("💾 Prompt caching: ENABLED (Claude via OpenRouter, 5m TTL)");
    expect(status.nativeAnthropic).toBe(false);
  });

  it("is enabled for a Claude model on Anthropic direct with the 1h TTL, and marks the request as native", () => {
    const status = promptCachingStatus("claude-opus-4-1-20250805", "anthropic", "1h");
    expect(status).toMatchObject({ enabled: true, ttl: "1h", nativeAnthropic: true });
    expect(status.banner).toBe("💾 Prompt caching: ENABLED (Claude via Anthropic, 1h TTL)");
  });

  it("is disabled for a model that is not Claude, naming the model", () => {
    const status = promptCachingStatus("gpt-4o", "openrouter");
    expect(status.enabled).toBe(false);
    expect(status.banner).toBe("💾 Prompt caching: DISABLED (gpt-4o is not a Claude model)");
  });

  it("is disabled for a provider without cache_control, naming the provider", () => {
    const status = promptCachingStatus("claude-sonnet-4-5", "openai");
    expect(status.enabled).toBe(false);
    expect(status.banner).toBe("💾 Prompt caching: DISABLED (provider openai does not support cache_control)");
  });

  it("defaults the TTL to 5m and rejects any other value", () => {
    expect(promptCachingStatus("claude-haiku-4-5", "anthropic").ttl).toBe("5m");
    expect(() => promptCachingStatus("claude-haiku-4-5", "anthropic", "2h" as "1h")).toThrow(/ttl must be "5m" or "1h"/);
  });
});

describe("isClaudeModel", () => {
  it("recognises Claude model ids in their usual spellings", () => {
    for (const id of ["claude-3-5-haiku-20241022", "anthropic/claude-opus-4.6", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "Claude-Sonnet-4", "sonnet-4.5", "opus"]) {
      expect(isClaudeModel(id), id).toBe(true);
    }
  });

  it("rejects other models", () => {
    for (const id of ["gpt-4o", "gpt-5.1-codex", "gemini-2.5-pro", "llama-3.1-70b", "deepseek-chat", "personality", ""]) {
      expect(isClaudeModel(id), id).toBe(false);
    }
  });
});

describe("cachingProvider", () => {
  it("knows Anthropic direct and OpenRouter, case-insensitively", () => {
    expect(cachingProvider("Anthropic")).toBe("Anthropic");
    expect(cachingProvider("OPENROUTER")).toBe("OpenRouter");
    expect(cachingProvider("openai")).toBeUndefined();
    expect(cachingProvider("custom")).toBeUndefined();
  });
});
