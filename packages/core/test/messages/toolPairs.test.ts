import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import {
  alignBoundaryBackward,
  alignBoundaryForward,
  sanitizeToolPairs,
  STUB_TOOL_RESULT,
  toolCallKey,
} from "../../src/messages/toolPairs.js";
import { validateConversation } from "../../src/messages/validate.js";
import { call, calls, result, say, system, user } from "./builders.js";

const roles = (messages: ChatMessage[]) => messages.map((m) => (m.role === "tool" ? `tool:${m.tool_call_id}` : m.role));

describe("toolCallKey", () => {
  it("uses call_id when the call carries one (Responses API)", () => {
    expect(toolCallKey(call("fc_1", "terminal", "{}", "call_1"))).toBe("call_1");
  });
  it("falls back to id", () => {
    expect(toolCallKey(call("call_9"))).toBe("call_9");
  });
});

describe("alignBoundaryBackward", () => {
  const conversation = [system(), user("go"), calls("a", "b"), result("a"), result("b"), say("done"), user("more")];

  it("moves a cut inside a result run back to the assistant that issued the calls", () => {
    expect(alignBoundaryBackward(conversation, 3)).toBe(2);
    expect(alignBoundaryBackward(conversation, 4)).toBe(2);
  });
  it("leaves a cut that is not on a tool result where it is", () => {
    expect(alignBoundaryBackward(conversation, 2)).toBe(2);
    expect(alignBoundaryBackward(conversation, 5)).toBe(5);
    expect(alignBoundaryBackward(conversation, conversation.length)).toBe(conversation.length);
  });
  it("leaves a cut on orphan results (no assistant before the run) where it is", () => {
    expect(alignBoundaryBackward([user("x"), result("z"), result("y")], 2)).toBe(2);
  });
  it("rejects an index outside the list, naming it", () => {
    expect(() => alignBoundaryBackward(conversation, -1)).toThrow(/index -1 is outside \[0, 7\]/);
    expect(() => alignBoundaryBackward(conversation, 8)).toThrow(RangeError);
  });
});

describe("alignBoundaryForward", () => {
  it("advances a cut past tool results", () => {
    const conversation = [user("go"), calls("a", "b"), result("a"), result("b"), say("done")];
    expect(alignBoundaryForward(conversation, 2)).toBe(4);
    expect(alignBoundaryForward(conversation, 1)).toBe(1);
  });
  it("may advance to the end of the list", () => {
    expect(alignBoundaryForward([user("go"), calls("a"), result("a")], 2)).toBe(3);
  });
});

describe("sanitizeToolPairs", () => {
  it("returns a valid conversation unchanged, message for message", () => {
    const input = [system(), user("go"), calls("a", "b"), result("a"), result("b"), say("done")];
    const output = sanitizeToolPairs(input);
    expect(output).toHaveLength(input.length);
    output.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it("removes a tool result whose call was dropped", () => {
    const output = sanitizeToolPairs([user("go"), result("gone"), say("done")]);
    expect(roles(output)).toEqual(["user", "assistant"]);
  });

  it("removes a tool result that has no tool_call_id", () => {
    const output = sanitizeToolPairs([user("go"), { role: "tool", content: "?" }, say("done")]);
    expect(roles(output)).toEqual(["user", "assistant"]);
  });

  it("inserts a stub result right after the assistant for a call whose result was dropped", () => {
    const output = sanitizeToolPairs([user("go"), calls("a", "b"), result("a"), say("done")]);
    expect(roles(output)).toEqual(["user", "assistant", "tool:a", "tool:b", "assistant"]);
    expect(output[3]).toEqual({ role: "tool", tool_call_id: "b", content: STUB_TOOL_RESULT });
  });

  it("stubs with the call_id when a call carries one", () => {
    const assistant: ChatMessage = { role: "assistant", content: null, tool_calls: [call("fc_1", "terminal", "{}", "call_1")] };
    const output = sanitizeToolPairs([user("go"), assistant]);
    expect(output[2]).toMatchObject({ role: "tool", tool_call_id: "call_1" });
  });

  it("matches results by call_id, not id", () => {
    const assistant: ChatMessage = { role: "assistant", content: null, tool_calls: [call("fc_1", "terminal", "{}", "call_1")] };
    const input = [user("go"), assistant, result("call_1")];
    expect(sanitizeToolPairs(input)).toEqual(input);
  });

  it("moves a result that sits after another message into its call's run", () => {
    const late = result("a");
    const output = sanitizeToolPairs([user("go"), calls("a"), user("wait"), late]);
    expect(roles(output)).toEqual(["user", "assistant", "tool:a", "user"]);
    expect(output[2]).toBe(late);
  });

  it("moves a result that appears before its call to after the call", () => {
    const output = sanitizeToolPairs([user("go"), result("a"), calls("a"), say("done")]);
    expect(roles(output)).toEqual(["user", "assistant", "tool:a", "assistant"]);
    expect(output[2]?.content).toBe("output of a");
  });

  it("keeps the first of several results for one call", () => {
    const output = sanitizeToolPairs([user("go"), calls("a"), result("a", "first"), result("a", "second")]);
    expect(output.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["first"]);
  });

  it("prefers the result already in place over a misplaced one for the same call", () => {
    const output = sanitizeToolPairs([user("go"), calls("a"), result("a", "in place"), user("x"), result("a", "stray")]);
    expect(roles(output)).toEqual(["user", "assistant", "tool:a", "user"]);
    expect(output[2]?.content).toBe("in place");
  });

  it("keeps in-place results in their order and appends moved results and stubs in call order", () => {
    const output = sanitizeToolPairs([user("go"), calls("a", "b", "c", "d"), result("c"), result("a"), user("x"), result("d")]);
    expect(roles(output)).toEqual(["user", "assistant", "tool:c", "tool:a", "tool:b", "tool:d", "user"]);
    expect(output[4]?.content).toBe(STUB_TOOL_RESULT);
    expect(output[5]?.content).toBe("output of d");
  });

  it("pairs results of a repeated id with the assistant whose run they sit in", () => {
    const input = [user("go"), calls("call_0"), result("call_0", "one"), user("again"), calls("call_0"), result("call_0", "two")];
    expect(sanitizeToolPairs(input)).toEqual(input);
  });

  it("drops a call that repeats a key within the same message", () => {
    const output = sanitizeToolPairs([user("go"), calls("a", "a"), result("a")]);
    expect(output[1]?.tool_calls).toHaveLength(1);
  });

  it("drops an assistant message that has empty content and no tool calls", () => {
    for (const content of [null, "", []] as ChatMessage["content"][]) {
      expect(roles(sanitizeToolPairs([user("go"), { role: "assistant", content }, user("more")]))).toEqual(["user", "user"]);
    }
    expect(roles(sanitizeToolPairs([user("go"), { role: "assistant", content: "", tool_calls: [] }]))).toEqual(["user"]);
  });

  it("removes an empty tool_calls array but keeps the assistant's text", () => {
    const output = sanitizeToolPairs([user("go"), { role: "assistant", content: "hi", tool_calls: [] }]);
    expect(output[1]).toEqual({ role: "assistant", content: "hi" });
  });

  it("keeps unknown fields of the messages it keeps", () => {
    const assistant = { ...calls("a"), reasoning_details: [{ kind: "x" }] } as ChatMessage;
    const output = sanitizeToolPairs([user("go"), assistant]);
    expect(output[1]).toBe(assistant);
  });

  it("never mutates its input", () => {
    const input = [user("go"), calls("a", "a", "b"), result("a"), result("zz"), user("x"), result("b"), { role: "assistant", content: "" } as ChatMessage];
    const snapshot = structuredClone(input);
    sanitizeToolPairs(input);
    expect(input).toEqual(snapshot);
  });

  it("produces output with no pairing problems for a badly broken conversation", () => {
    const input = [result("x"), system(), user("go"), result("b"), calls("a", "b"), user("u"), result("a"), result("a"), calls("c"), say("")];
    const problems = validateConversation(sanitizeToolPairs(input)).map((p) => p.code);
    expect(problems).not.toContain("orphan_tool_result");
    expect(problems).not.toContain("missing_tool_result");
    expect(problems).not.toContain("misplaced_tool_result");
    expect(problems).not.toContain("duplicate_tool_result");
    expect(problems).not.toContain("tool_result_before_call");
    expect(problems).not.toContain("empty_assistant");
  });
});
