import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { STUB_TOOL_RESULT } from "../../src/messages/toolPairs.js";
import { validateConversation } from "../../src/messages/validate.js";
import { assistant, call, fastApiConversation, roughCounter, system, user } from "./fixtures.js";

/** A short conversation with a call whose result is gone and a result whose call is gone. */
function withOrphans(): ChatMessage[] {
  const lost = call("terminal", { command: "ls" }, "call_lost");
  return [system("s"), user("list the files"), lost, assistant("Here they are."), { role: "tool", tool_call_id: "call_gone", content: "stray output" }, user("thanks")];
}

describe("compress() repairs orphan tool calls and results", () => {
  it("repairs them and reports how many when there is nothing to compact", async () => {
    const engine = new ContextCompressor({ tokenCounter: roughCounter });
    const messages = withOrphans();
    expect(validateConversation(messages).map((p) => p.code)).toEqual(expect.arrayContaining(["missing_tool_result", "orphan_tool_result"]));
    const out = await engine.compress(messages, { force: true });
    expect(validateConversation(out)).toEqual([]);
    expect(out.find((m) => m.role === "tool" && m.tool_call_id === "call_lost")?.content).toBe(STUB_TOOL_RESULT);
    expect(out.some((m) => m.tool_call_id === "call_gone")).toBe(false);
    expect(out.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["list the files", "thanks"]);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "nothing_to_compress", repairedToolPairs: 2, messagesAfter: out.length });
  });

  it("reports the orphans a compaction repaired", async () => {
    const engine = new ContextCompressor({ compression: { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 }, tokenCounter: roughCounter });
    const messages = fastApiConversation();
    messages.push(assistant("On it."), { role: "tool", tool_call_id: "call_gone", content: "stray output" }, user("and add logging"));
    const out = await engine.compress(messages);
    expect(validateConversation(out)).toEqual([]);
    expect(engine.lastCompression).toMatchObject({ aborted: false, repairedToolPairs: 1 });
  });

  it("returns a conversation without orphans as it is and reports none", async () => {
    const engine = new ContextCompressor({ tokenCounter: roughCounter });
    const messages = [system("s"), user("hi"), assistant("hello")];
    expect(await engine.compress(messages, { force: true })).toBe(messages);
    expect(engine.lastCompression!.repairedToolPairs).toBe(0);
  });
});
