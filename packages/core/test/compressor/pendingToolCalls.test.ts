import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { pendingToolCallsStart, STUB_TOOL_RESULT } from "../../src/messages/toolPairs.js";
import { validateConversation } from "../../src/messages/validate.js";
import type { ChatMessage } from "../../src/messages/schema.js";

function longSession(): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are an agent." }, { role: "user", content: "Build the project." }];
  for (let i = 0; i < 40; i++) {
    messages.push({ role: "assistant", content: `step ${i}`, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "terminal", arguments: JSON.stringify({ command: `make step${i}` }) } }] });
    messages.push({ role: "tool", tool_call_id: `c${i}`, content: `step ${i} output\n`.repeat(200) });
  }
  messages.push({ role: "user", content: "Now run the full build." });
  return messages;
}

const pendingCall = (id: string) => ({ id, type: "function" as const, function: { name: "terminal", arguments: '{"command":"make all"}' } });

describe("tool calls still in flight", () => {
  it("finds the trailing assistant whose calls have no result yet", () => {
    const messages = longSession();
    expect(pendingToolCallsStart(messages)).toBe(-1);
    const inFlight = [...messages, { role: "assistant", content: null, tool_calls: [pendingCall("p1"), pendingCall("p2")] } as ChatMessage, { role: "tool", tool_call_id: "p1", content: "done" } as ChatMessage];
    expect(pendingToolCallsStart(inFlight)).toBe(messages.length);
    expect(pendingToolCallsStart([...inFlight, { role: "tool", tool_call_id: "p2", content: "done" }])).toBe(-1);
  });

  it("accepts pending calls only when asked to", () => {
    const inFlight: ChatMessage[] = [...longSession(), { role: "assistant", content: null, tool_calls: [pendingCall("p1")] }];
    expect(validateConversation(inFlight).map((p) => p.code)).toEqual(["missing_tool_result"]);
    expect(validateConversation(inFlight, { allowPendingToolCalls: true })).toEqual([]);
  });

  it("compacts around in-flight calls and returns them unchanged, without stub results", async () => {
    const pending: ChatMessage = { role: "assistant", content: null, tool_calls: [pendingCall("p1")] };
    const input = [...longSession(), pending];
    const output = await new ContextCompressor().compress(input, { force: true });
    expect(output.length).toBeLessThan(input.length);
    expect(output.at(-1)).toBe(pending);
    expect(JSON.stringify(output)).not.toContain(STUB_TOOL_RESULT);
    expect(validateConversation(output, { allowPendingToolCalls: true })).toEqual([]);
    // The real result arriving later makes a valid conversation.
    expect(validateConversation([...output, { role: "tool", tool_call_id: "p1", content: "built" }])).toEqual([]);
  });

  it("reports the whole conversation, in-flight group included, in lastCompression", async () => {
    const pending: ChatMessage = { role: "assistant", content: null, tool_calls: [pendingCall("p1"), pendingCall("p2")] };
    const input = [...longSession(), pending, { role: "tool", tool_call_id: "p1", content: "partial output" } as ChatMessage];
    const engine = new ContextCompressor();
    const output = await engine.compress(input, { force: true });
    const report = engine.lastCompression!;
    expect(report.aborted).toBe(false);
    expect(report.messagesBefore).toBe(input.length);
    expect(report.messagesAfter).toBe(output.length);
    // Before: exact for what was counted (head, tail), the calibrated estimate for the summarized middle.
    const exactBefore = engine.tokenCounter.countMessages(input);
    expect(Math.abs(report.tokensBefore - exactBefore) / exactBefore).toBeLessThan(0.1);
    expect(report.tokensAfter).toBe(engine.tokenCounter.countMessages(output));
    expect(report.headMessages + report.droppedMessages + report.tailMessages).toBe(input.length);
  });
});

