import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { SUMMARY_SECTIONS, type Summarizer, type SummaryRequest } from "../../src/summarizers/types.js";
import { agentRounds, roughCounter, system } from "./fixtures.js";

/** A compressor whose summarizer records what it was asked. */
function recordingEngine(): { engine: ContextCompressor; requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  const summarizer: Summarizer = { name: "recording", summarize: async (request) => (requests.push(request), SUMMARY_SECTIONS.map((h) => `${h}\n- kept`).join("\n")) };
  const engine = new ContextCompressor({ compression: { protect_last_n: 4 }, summarizer, tokenCounter: roughCounter, model: { model: "m", contextLength: 200_000 } });
  return { engine, requests };
}

/** The cleared tool outputs a summary request carried. */
const clearedOutputs = (request: SummaryRequest): ChatMessage[] => request.messages.filter((m) => m.role === "tool" && String(m.content).startsWith("[Old tool output cleared"));

describe("the compressor's memory of how a conversation was pruned", () => {
  it("clears each output of a conversation once per session: compacting it again reuses the cleared copies", async () => {
    const { engine, requests } = recordingEngine();
    const messages = [system("s"), ...agentRounds(12)];
    await engine.compress(messages, { force: true, sessionId: "a" });
    await engine.compress(messages, { force: true, sessionId: "a" });
    const [first, second] = requests.map(clearedOutputs);
    expect(first!.length).toBeGreaterThan(5);
    expect(second!.every((m, i) => m === first![i])).toBe(true);
  });

  it("keeps sessions apart and forgets a session's pruning when it ends", async () => {
    const { engine, requests } = recordingEngine();
    const messages = [system("s"), ...agentRounds(12)];
    await engine.compress(messages, { force: true, sessionId: "a" });
    await engine.compress(messages, { force: true, sessionId: "b" });
    engine.onSessionEnd("a", messages);
    await engine.compress(messages, { force: true, sessionId: "a" });
    const [a, b, aAgain] = requests.map(clearedOutputs);
    expect(b![0]).not.toBe(a![0]);
    expect(b![0]).toEqual(a![0]);
    expect(aAgain![0]).not.toBe(a![0]);
  });
});
