import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { buildSummaryPrompt } from "../../src/summarizers/prompt.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const turns: ChatMessage[] = [
  { role: "assistant", content: "Running the tests.", tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"command":"cargo test"}' } }] },
  { role: "tool", tool_call_id: "c1", content: "12 passed" },
];
const preceding = "## Goal\n- Port the scheduler to Rust.\n\n## Progress\n### Done\n- Read src/scheduler.py";

describe("the summary of the turns before these (precedingSummary)", () => {
  it("carries its goal into an extractive summary of turns that state none, without its other sections", async () => {
    const summary = await new ExtractiveSummarizer().summarize({ messages: turns, maxTokens: 2000, precedingSummary: preceding });
    expect(summary.split("## Constraints")[0]).toContain("Port the scheduler to Rust.");
    expect(summary).not.toContain("Read src/scheduler.py");
  });

  it("is shown to an LLM as earlier context before the turns to summarize, not as a summary to update", () => {
    const prompt = buildSummaryPrompt({ messages: turns, maxTokens: 2000, precedingSummary: preceding }, "[ASSISTANT]: Running the tests.");
    expect(prompt).toMatch(/EARLIER CONTEXT[^\n]*do not repeat it[^\n]*\n## Goal\n- Port the scheduler to Rust\.[\s\S]*\n\nTURNS TO SUMMARIZE:/);
    expect(prompt).not.toContain("PREVIOUS SUMMARY");
  });
});
