import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { assistant, fastApiConversation, roughCounter } from "./fixtures.js";

const fixture = useOpenAIFixtureServer();

const SPEC_EXAMPLE = { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };

function engineWith(summarizer: Summarizer): ContextCompressor {
  return new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer, tokenCounter: roughCounter });
}

function openai(): OpenAICompatibleSummarizer {
  return new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
}

function summaryIn(messages: ChatMessage[]): string {
  return messages.map(parseSummaryMessage).find((parsed) => parsed !== undefined)!.summary;
}

/** The summary budget the prompt asked for ("Stay within about N tokens"). */
function askedBudget(): number {
  const prompt: string = fixture.current.requests.at(-1)!.body.messages[0].content;
  return Number(/about (\d+) tokens/.exec(prompt)![1]);
}

const TEMPLATE = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");

describe("what a compaction stores as its summary", () => {
  it("stores no reasoning block the summary model wrote, and does not feed it to the next update", async () => {
    fixture.current.script({ kind: "success", content: `<think>First I will list the secrets I saw.</think>\n${TEMPLATE}` });
    const engine = engineWith(openai());
    const out = await engine.compress(fastApiConversation());
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(summaryIn(out)).not.toContain("list the secrets");
    expect(engine.previousSummary).not.toContain("<think>");
  });

  it("strips reasoning blocks from a custom summarizer's answer too", async () => {
    const engine = engineWith({ name: "custom", summarize: async () => `<reasoning>scratch notes</reasoning>\n${TEMPLATE}` });
    const out = await engine.compress(fastApiConversation());
    expect(summaryIn(out)).not.toContain("scratch notes");
  });

  it("keeps an assistant's reasoning blocks out of an offline fallback summary", async () => {
    const conversation = fastApiConversation();
    conversation.splice(20, 0, assistant("<think>I decided to use the hidden musing approach.</think>I decided to use SQLAlchemy 2.0 for the models."));
    const engine = engineWith({ name: "failing", summarize: async () => Promise.reject(new Error("model exploded")) });
    const out = await engine.compress(conversation);
    expect(engine.lastCompression!.fallbackUsed).toBe(true);
    expect(summaryIn(out)).not.toContain("hidden musing");
  });

  it("caps an over-budget model summary within the summary budget, keeping every heading", async () => {
    const huge = SUMMARY_SECTIONS.map((h) => `${h}\n${Array.from({ length: 150 }, (_, i) => `- detail ${i}: ${"specific value ".repeat(5)}`).join("\n")}`).join("\n");
    fixture.current.script({ kind: "success", content: huge });
    const engine = engineWith(openai());
    const out = await engine.compress(fastApiConversation());
    const report = engine.lastCompression!;
    expect(report.aborted).toBe(false);
    const budget = askedBudget();
    expect(roughCounter.count(huge)).toBeGreaterThan(budget);
    const summary = summaryIn(out);
    expect(roughCounter.count(summary)).toBeLessThanOrEqual(budget);
    expect(report.summaryTokens).toBeLessThanOrEqual(budget);
    expect(report.summaryCappedFromTokens).toBeGreaterThan(budget);
    for (const heading of SUMMARY_SECTIONS) expect(summary).toContain(heading);
    expect(validateConversation(out)).toEqual([]);
  });

  it("cools down for as long as a rate-limited endpoint's Retry-After asks when that is beyond the wait it honours", async () => {
    const rateLimited = { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } };
    fixture.current.script({ kind: "status", status: 429, body: rateLimited, headers: { "retry-after": "120" } });
    const engine = engineWith(openai());
    const messages = fastApiConversation();
    expect(await engine.compress(messages)).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, cooldownSeconds: 120 });
    expect(fixture.current.requests).toHaveLength(1);
  });
});
