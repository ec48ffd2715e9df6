import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { formatSummaryContent } from "../../src/compressor/summaryBody.js";
import { buildSummaryRequest } from "../../src/compressor/summaryRequest.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { assistant, fastApiConversation, roughCounter, user } from "./fixtures.js";

const fixture = useOpenAIFixtureServer({ kind: "success", content: SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n") });

function engine(): ContextCompressor {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
  return new ContextCompressor({ compression: { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 }, summarizer, tokenCounter: roughCounter });
}

function sentPrompt(): string {
  return fixture.current.requests.at(-1)!.body.messages[0].content;
}

describe("auto-focus from the latest user asks", () => {
  it("focuses the summary on the latest user asks when no focus topic is given", async () => {
    await engine().compress(fastApiConversation());
    const prompt = sentPrompt();
    const focus = prompt.slice(prompt.indexOf("Focus:"));
    expect(prompt).toContain("Focus:");
    // the newest asks, oldest first; the latest two live in the tail, outside the turns summarized
    expect(focus).toContain("- Run the tests\n- Fix the failing tests\n- Great, also add error handling");
  });

  it("uses an explicit focus topic instead of the recent asks", async () => {
    await engine().compress(fastApiConversation(), { focusTopic: "the database layer" });
    const prompt = sentPrompt();
    expect(prompt).toContain('"the database layer"');
    expect(prompt).not.toContain("- Great, also add error handling");
  });

  it("takes the last three real user asks, shortened, and never a summary message", () => {
    const long = `Please refactor ${"the payment module ".repeat(40)}`;
    const request = buildSummaryRequest({
      middle: [user("first ask"), assistant("ok"), user("second ask")],
      contentTokens: 5_000,
      maxSummaryTokens: 10_000,
      tail: [assistant("done"), user(long), assistant("on it"), user("   "), user(formatSummaryContent("## Goal\n- an older summary")), user("and keep the API stable")],
    });
    expect(request.recentUserAsks).toHaveLength(3);
    expect(request.recentUserAsks![0]).toBe("second ask");
    expect(request.recentUserAsks![1]!.length).toBeLessThanOrEqual(260);
    expect(request.recentUserAsks![2]).toBe("and keep the API stable");
  });
});
