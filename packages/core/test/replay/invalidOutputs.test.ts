import { describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { InvalidEngineOutputError, invalidEngineOutput } from "../../src/engine/invalidOutput.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { replayConversation } from "../../src/replay/replayConversation.js";
import { toolRounds } from "../../../../test/support/toolRounds.js";

/** An engine that compacts before every request by keeping the system prompt, the first ask and the last message. */
class KeepLastEngine extends ContextEngine {
  readonly name = "keep_last";
  /** Throw as the host's checked engine does instead of returning the output. */
  constructor(private readonly checked = false) {
    super({ model: { model: "claude-sonnet-4", contextLength: 200_000 } });
  }
  shouldCompress(): boolean {
    return true;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    if (messages.length <= 3) return messages;
    const output = [messages[0]!, messages[1]!, ...messages.slice(-1)];
    const invalid = this.checked ? invalidEngineOutput(this.name, messages, output) : undefined;
    if (invalid !== undefined) throw new InvalidEngineOutputError(this.name, invalid);
    return output;
  }
}

describe("the replay checks every engine output", () => {
  it("counts the outputs that break provider rules, with the first problem and its request, and keeps the context", async () => {
    const report = await replayConversation(toolRounds(3), { engine: new KeepLastEngine(), model: "claude-sonnet-4", provider: "anthropic" });
    // request 1 ends with the first tool result: keeping it alone orphans it
    expect(report.invalidOutputs.count).toBe(3);
    expect(report.invalidOutputs.first).toEqual({
      request: 1,
      layer: "agent",
      problem: { code: "orphan_tool_result", index: 2, message: 'messages[2] (tool, tool_call_id "call_0"): result has no matching tool call' },
      text: "engine 'keep_last' returned a conversation a provider would reject: messages[2] (tool, tool_call_id \"call_0\"): result has no matching tool call [orphan_tool_result]",
    });
    expect(report.requests[1]!.invalidOutput).toEqual(report.invalidOutputs.first);
    expect(report.requests[1]!.compactionAborted?.reason).toBe(report.invalidOutputs.first!.text);
    // the refused output was not used: request 1 sent the whole context
    expect(report.requests[1]!.messages).toBe(4);
  });

  it("counts the refusal of an engine a host checks (InvalidEngineOutputError) the same way", async () => {
    const report = await replayConversation(toolRounds(3), { engine: new KeepLastEngine(true), model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.invalidOutputs.count).toBe(3);
    expect(report.invalidOutputs.first?.request).toBe(1);
    expect(report.invalidOutputs.first?.problem?.code).toBe("orphan_tool_result");
  });

  it("reports none for an engine whose outputs are valid", async () => {
    const valid = new (class extends KeepLastEngine {
      override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        return messages;
      }
    })();
    const report = await replayConversation(toolRounds(3), { engine: valid, model: "claude-sonnet-4", provider: "anthropic" });
    expect(report.invalidOutputs).toEqual({ count: 0 });
  });
});
