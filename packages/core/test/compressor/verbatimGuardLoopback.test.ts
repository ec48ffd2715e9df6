/** The verbatim guard end to end: a loopback OpenAI-compatible summarizer invents a path, the compressor keeps it out. */
import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { fastApiConversation, roughCounter } from "./fixtures.js";

const fixture = useOpenAIFixtureServer();

function engine(): ContextCompressor {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
  return new ContextCompressor({ compression: { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 }, summarizer, tokenCounter: roughCounter });
}

function summaryIn(messages: ChatMessage[]): string {
  return messages.map(parseSummaryMessage).find((parsed) => parsed !== undefined)!.summary;
}

/** A model summary of the FastAPI example that invents `app/payments/stripe_webhook.py` twice: alone in a list item, and beside a real file. */
const INVENTING_SUMMARY = [
  "## Goal",
  "- Set up a FastAPI project with a SQLite database via SQLAlchemy",
  "## Constraints & Preferences",
  "- keep using pytest for tests",
  "## Progress",
  "### Done",
  "- ran `pip install sqlalchemy==2.0.36` and `alembic init migrations`",
  "- app/payments/stripe_webhook.py — created",
  "### In Progress",
  "- fixing the 2 failing tests in tests/test_api.py",
  "### Blocked",
  "- (none)",
  "## Key Decisions",
  "- SQLAlchemy 2.0",
  "## Relevant Files",
  "- app/main.py, app/payments/stripe_webhook.py",
  "## Next Steps",
  "- make `pytest` pass",
  "## Critical Context",
  "- port 8000",
].join("\n");

describe("the verbatim guard on an LLM summary", () => {
  it("keeps a path the summary model invented out of the compressed conversation and counts it in the report", async () => {
    fixture.current.script({ kind: "success", content: INVENTING_SUMMARY });
    const compressor = engine();
    const out = await compressor.compress(fastApiConversation());
    const report = compressor.lastCompression!;
    expect(report.aborted).toBe(false);
    expect(report.summarizer).toContain("summary-model");
    const summary = summaryIn(out);
    expect(summary).not.toContain("stripe_webhook");
    expect(out.some((m) => JSON.stringify(m.content).includes("stripe_webhook"))).toBe(false);
    // the rest of the summary is kept: the real file beside it, the commands, the constraint
    expect(summary).toContain("- app/main.py, [unverified path]");
    expect(summary).toContain("`alembic init migrations`");
    expect(summary).toContain("keep using pytest for tests");
    expect(report.verbatim).toEqual({ checked: expect.any(Number), removed: 1, flagged: 1 });
    expect(report.verbatim!.checked).toBeGreaterThanOrEqual(7);
    expect(validateConversation(out)).toEqual([]);
  });

  it("does not hand an invented path on to the next update as the previous summary", async () => {
    fixture.current.script({ kind: "success", content: INVENTING_SUMMARY });
    const compressor = engine();
    await compressor.compress(fastApiConversation());
    expect(compressor.previousSummary).toBeDefined();
    expect(compressor.previousSummary).not.toContain("stripe_webhook");
  });

  it("asks the summary model to copy facts verbatim and never invent one", async () => {
    fixture.current.script({ kind: "success", content: INVENTING_SUMMARY });
    await engine().compress(fastApiConversation());
    const prompt: string = fixture.current.requests[0]!.body.messages[0].content;
    expect(prompt).toMatch(/exactly as they appear/);
    expect(prompt).toMatch(/Never invent/);
  });

  it("reports nothing removed or flagged for a summary that states only facts of the turns", async () => {
    fixture.current.script({ kind: "success", content: INVENTING_SUMMARY.replace("- app/payments/stripe_webhook.py — created\n", "").replace(", app/payments/stripe_webhook.py", "") });
    const compressor = engine();
    await compressor.compress(fastApiConversation());
    expect(compressor.lastCompression!.verbatim).toMatchObject({ removed: 0, flagged: 0 });
  });
});
