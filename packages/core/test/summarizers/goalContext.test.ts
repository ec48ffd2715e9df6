import { describe, expect, it } from "vitest";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { buildSummaryPrompt } from "../../src/summarizers/prompt.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";

const middle: ChatMessage[] = [
  { role: "assistant", content: "Running the tests.", tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"command":"pytest"}' } }] },
  { role: "tool", tool_call_id: "c1", content: "3 passed" },
];

describe("the goal of a compaction whose first ask stays in the head", () => {
  it("names the head's ask as the Goal in the extractive summary", async () => {
    const summary = await new ExtractiveSummarizer().summarize({ messages: middle, maxTokens: 2000, goalContext: ["Port the parser to Rust and keep 100% coverage."] });
    const goal = summary.split("## Constraints")[0]!;
    expect(goal).toContain("Port the parser to Rust and keep 100% coverage.");
  });

  it("shows the head's ask to an LLM as reference, apart from the turns to summarize", () => {
    const prompt = buildSummaryPrompt({ messages: middle, maxTokens: 2000, goalContext: ["Port the parser to Rust."] }, "[ASSISTANT]: Running the tests.");
    expect(prompt).toMatch(/CONVERSATION START[^\n]*\n\[USER\]: Port the parser to Rust\.\n\nTURNS TO SUMMARIZE:/);
  });

  it("is handed over by the compressor from the protected head", async () => {
    const requests: SummaryRequest[] = [];
    const recorder: Summarizer = { name: "recorder", summarize: async (r) => (requests.push(r), "## Goal\n- recorded") };
    const messages: ChatMessage[] = [{ role: "system", content: "sys" }, { role: "user", content: "Set up a FastAPI project." }, { role: "assistant", content: "Sure." }];
    for (let i = 0; i < 30; i++) messages.push({ role: "user", content: `step ${i} ` + "word ".repeat(400) }, { role: "assistant", content: `done ${i}` });
    await new ContextCompressor({ summarizer: recorder }).compress(messages, { force: true });
    expect(requests[0]?.goalContext).toEqual(["Set up a FastAPI project."]);
  });
});
