import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuxiliaryCompressionSchema } from "../../src/config/schema.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { createSummarizer } from "../../src/summarizers/resolve.js";
import { AnthropicSummarizer } from "../../src/summarizers/anthropic.js";
import { startAnthropicFixtureServer } from "../../../../test/support/anthropicFixtureServer.js";
import { startOpenAIFixtureServer } from "../../../../test/support/openaiFixtureServer.js";
import type { FixtureServer } from "../../../../test/support/openaiFixtureServer.js";

const aux = (input: Record<string, unknown> = {}) => AuxiliaryCompressionSchema.parse(input);
const request = { messages: [{ role: "user" as const, content: "summarize me" }], maxTokens: 2_000 };

describe("createSummarizer", () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startOpenAIFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("falls back to the offline extractive summarizer when no endpoint is available", () => {
    const { summarizer, description } = createSummarizer(aux(), undefined, {});
    expect(summarizer).toBeInstanceOf(ExtractiveSummarizer);
    expect(description).toMatch(/extractive/);
  });

  it("uses OpenRouter in auto mode when OPENROUTER_API_KEY is set", () => {
    const { summarizer, description } = createSummarizer(aux(), undefined, { OPENROUTER_API_KEY: "sk-or-v1-abc", OPENAI_API_KEY: "sk-openai" });
    expect(summarizer).toBeInstanceOf(OpenAICompatibleSummarizer);
    expect(description).toContain("https://openrouter.ai/api/v1");
    expect(description).not.toContain("sk-or-v1-abc");
  });

  it("uses OpenAI in auto mode when only OPENAI_API_KEY is set", () => {
    const { description } = createSummarizer(aux(), undefined, { OPENAI_API_KEY: "sk-openai" });
    expect(description).toContain("https://api.openai.com/v1");
  });

  it("honours an explicit provider and reports a missing key", () => {
    expect(createSummarizer(aux({ provider: "openai" }), undefined, { OPENAI_API_KEY: "k" }).description).toContain("api.openai.com");
    const missing = createSummarizer(aux({ provider: "openrouter" }), undefined, { OPENAI_API_KEY: "k" });
    expect(missing.summarizer).toBeInstanceOf(ExtractiveSummarizer);
    expect(missing.description).toContain("OPENROUTER_API_KEY");
  });

  it("uses the configured model, else the main model, else a provider default", () => {
    const env = { OPENAI_API_KEY: "k" };
    expect(createSummarizer(aux({ model: "gpt-4.1-mini" }), { model: "gpt-5" }, env).summarizer.name).toBe("openai:gpt-4.1-mini");
    expect(createSummarizer(aux(), { model: "gpt-5" }, env).summarizer.name).toBe("openai:gpt-5");
    expect(createSummarizer(aux(), undefined, env).summarizer.name).toBe("openai:gpt-4o-mini");
  });

  it("lets an explicit base_url win and sends 'none' as the key of a keyless local server", async () => {
    const { summarizer, description } = createSummarizer(aux({ base_url: server.baseUrl, model: "local-llama", provider: "openrouter" }), undefined, {});
    expect(description).toContain(server.baseUrl);
    await summarizer.summarize(request);
    const sent = server.requests.at(-1)!;
    expect(sent.body.model).toBe("local-llama");
    expect(sent.headers.authorization).toBe("Bearer none");
  });

  it("sends the configured api_key to an explicit base_url", async () => {
    const { summarizer } = createSummarizer(aux({ base_url: server.baseUrl, api_key: "local-secret" }), undefined, { OPENAI_API_KEY: "env-key" });
    await summarizer.summarize(request);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer local-secret");
  });

  it("uses the main model's endpoint for provider main and falls back to the main model", async () => {
    const { summarizer } = createSummarizer(aux({ provider: "main", model: "small" }), { model: "big", baseUrl: server.baseUrl, apiKey: "main-key" }, {});
    server.script({ kind: "status", status: 500 }, { kind: "success", content: "## Goal\n- ok" });
    const before = server.requests.length;
    await summarizer.summarize(request);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.body.model)).toEqual(["small", "big"]);
    expect(sent[0]!.headers.authorization).toBe("Bearer main-key");
  });

  it("sends the aux timeout to the server as the client timeout", async () => {
    const { summarizer } = createSummarizer(aux({ base_url: server.baseUrl, timeout: 0.2 }), undefined, {});
    server.script({ kind: "hang" });
    await expect(summarizer.summarize(request)).rejects.toThrow(/timed out/i);
  });

  it("does not offer a built-in endpoint for an unknown provider", () => {
    const { summarizer, description } = createSummarizer(aux({ provider: "nous" }), undefined, { OPENAI_API_KEY: "k" });
    expect(summarizer).toBeInstanceOf(ExtractiveSummarizer);
    expect(description).toContain("base_url");
  });

  describe("provider anthropic", () => {
    let messages: FixtureServer;
    beforeAll(async () => {
      messages = await startAnthropicFixtureServer();
    });
    afterAll(async () => {
      await messages.close();
    });

    it("calls the Messages API at base_url with ANTHROPIC_API_KEY, the Claude main model as the summary model", async () => {
      const { summarizer, description } = createSummarizer(aux({ provider: "anthropic", base_url: messages.origin }), { model: "anthropic/claude-sonnet-4-6" }, { ANTHROPIC_API_KEY: "sk-ant-env", OPENAI_API_KEY: "sk-openai" });
      expect(summarizer).toBeInstanceOf(AnthropicSummarizer);
      expect(summarizer.name).toBe("anthropic:claude-sonnet-4-6");
      expect(description).toContain(messages.origin);
      expect(description).toContain("key: ANTHROPIC_API_KEY");
      expect(description).not.toContain("sk-ant-env");
      await summarizer.summarize(request);
      const sent = messages.requests.at(-1)!;
      expect(sent.path).toBe("/v1/messages");
      expect(sent.body.model).toBe("claude-sonnet-4-6");
      expect(sent.headers.authorization).toBe("Bearer sk-ant-env");
    });

    it("uses the configured model and api_key, and falls back once to a Claude main model", async () => {
      const { summarizer, description } = createSummarizer(aux({ provider: "anthropic", base_url: `${messages.origin}/v1`, model: "claude-haiku-4-5", api_key: "sk-ant-config" }), { model: "claude-opus-4-6" }, {});
      expect(description).toContain("falls back to claude-opus-4-6");
      messages.script({ kind: "status", status: 500 }, { kind: "success", content: "## Goal\n- ok" });
      const before = messages.requests.length;
      await summarizer.summarize(request);
      expect(messages.requests.slice(before).map((r) => [r.body.model, r.headers.authorization])).toEqual([
        ["claude-haiku-4-5", "Bearer sk-ant-config"],
        ["claude-opus-4-6", "Bearer sk-ant-config"],
      ]);
    });

    it("picks the default Claude model for a main model of another family, and summarizes offline without a key", () => {
      expect(createSummarizer(aux({ provider: "anthropic" }), { model: "gpt-5" }, { ANTHROPIC_API_KEY: "k" }).summarizer.name).toBe("anthropic:claude-haiku-4-5");
      const missing = createSummarizer(aux({ provider: "anthropic" }), undefined, { OPENAI_API_KEY: "k" });
      expect(missing.summarizer).toBeInstanceOf(ExtractiveSummarizer);
      expect(missing.description).toContain("ANTHROPIC_API_KEY");
    });
  });
});
