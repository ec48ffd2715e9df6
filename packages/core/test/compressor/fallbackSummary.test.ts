import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import { FALLBACK_SUMMARY_MAX_CHARS } from "../../src/compressor/summaryBody.js";
import { runSummaryLadder } from "../../src/compressor/summaryLadder.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { assistant, roughCounter, system, toolTurn, user } from "./fixtures.js";

const failing: Summarizer = {
  name: "failing",
  async summarize() {
    throw new Error("upstream exploded");
  },
};

/** Asserts every template heading is present, on its own line, in order. */
function expectAllHeadingsInOrder(summary: string): void {
  let at = -1;
  for (const heading of SUMMARY_SECTIONS) {
    const found = summary.split("\n").indexOf(heading, at + 1);
    expect(found, heading).toBeGreaterThan(at);
    at = found;
  }
}

describe("fallback summaries", () => {
  it("caps a fallback summary at 8,000 characters without losing a template heading", async () => {
    const verbose: Summarizer = {
      name: "verbose",
      async summarize() {
        return SUMMARY_SECTIONS.map((h) => `${h}\n${Array.from({ length: 60 }, (_, i) => `- ${h.replace(/#/g, "").trim()} item ${i} ${"detail ".repeat(10)}`).join("\n")}`).join("\n\n");
      },
    };
    const outcome = await runSummaryLadder({ primary: failing, fallback: verbose, request: { messages: [user("a")], maxTokens: 10_000 }, abortOnFailure: false });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.fallbackUsed).toBe(true);
    expect(outcome.summary.length).toBeLessThanOrEqual(FALLBACK_SUMMARY_MAX_CHARS);
    expectAllHeadingsInOrder(outcome.summary);
    expect(outcome.summary).toContain("Critical Context item 0");
  });

  it("asks the fallback summarizer for a summary that fits the cap", async () => {
    const requests: SummaryRequest[] = [];
    const recording: Summarizer = { name: "recording", summarize: async (request) => (requests.push(request), "## Goal\n- g") };
    await runSummaryLadder({ primary: failing, fallback: recording, request: { messages: [user("a")], maxTokens: 10_000 }, abortOnFailure: false });
    expect(requests[0]!.maxTokens * 4).toBeLessThanOrEqual(FALLBACK_SUMMARY_MAX_CHARS);
  });

  it("keeps every heading of the extractive fallback summary of a long session on a large window", async () => {
    const messages: ChatMessage[] = [system("s"), user("Make the test suite pass")];
    for (let i = 0; i < 200; i++) {
      messages.push(...toolTurn("terminal", { command: `pytest tests/test_${i}.py` }, `Error: failure ${i} in src/mod_${i}.py\nexit code: 1\n${"x".repeat(3_000)}`));
      messages.push(assistant(`Decided to use approach ${i} because it is simpler`), user(`Please also fix issue ${i}`));
    }
    const engine = new ContextCompressor({ summarizer: failing, tokenCounter: roughCounter, model: { model: "big", contextLength: 1_000_000 } });
    const out = await engine.compress(messages, { force: true });
    expect(engine.lastCompression).toMatchObject({ aborted: false, fallbackUsed: true });
    const summary = out.map(parseSummaryMessage).find((parsed) => parsed !== undefined)!.summary;
    expect(summary.length).toBeLessThanOrEqual(FALLBACK_SUMMARY_MAX_CHARS);
    expectAllHeadingsInOrder(summary);
  });
});
