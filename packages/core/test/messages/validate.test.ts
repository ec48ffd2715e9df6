import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation, type ConversationProblemCode } from "../../src/messages/validate.js";
import { call, calls, result, say, system, user } from "./builders.js";

const codes = (messages: ChatMessage[], strictAlternation = false) =>
  validateConversation(messages, { strictAlternation }).map((p) => [p.code, p.index] as [ConversationProblemCode, number]);

describe("validateConversation", () => {
  it("finds nothing wrong with a well-formed conversation", () => {
    const messages = [system(), user("go"), calls("a", "b"), result("b"), result("a"), say("done"), user("thanks")];
    expect(validateConversation(messages, { strictAlternation: true })).toEqual([]);
  });

  it("finds nothing wrong with an empty list or a system prompt alone", () => {
    expect(validateConversation([])).toEqual([]);
    expect(validateConversation([system()])).toEqual([]);
  });

  it("reports a tool result whose call is nowhere, naming the message", () => {
    const messages = [user("go"), say("ok"), result("call_3")];
    const problems = validateConversation(messages);
    expect(problems).toEqual([
      { code: "orphan_tool_result", index: 2, message: 'messages[2] (tool, tool_call_id "call_3"): result has no matching tool call' },
    ]);
  });

  it("reports a tool result without a tool_call_id as an orphan", () => {
    expect(codes([user("go"), say("ok"), { role: "tool", content: "x" }])).toEqual([["orphan_tool_result", 2]]);
  });

  it("reports a tool call without a result", () => {
    const problems = validateConversation([user("go"), calls("a", "b"), result("a")]);
    expect(problems.map((p) => p.code)).toEqual(["missing_tool_result"]);
    expect(problems[0]?.message).toBe('messages[1] (assistant): tool call "b" has no result after it');
  });

  it("reports a result that appears before its call (and the call as unanswered)", () => {
    expect(codes([user("go"), result("a"), calls("a")])).toEqual([
      ["tool_result_before_call", 1],
      ["missing_tool_result", 2],
    ]);
  });

  it("reports a result outside the run directly after its call's assistant", () => {
    const problems = validateConversation([user("go"), calls("a"), user("wait"), result("a")]);
    expect(problems.map((p) => [p.code, p.index])).toEqual([["misplaced_tool_result", 3]]);
    expect(problems[0]?.message).toContain("messages[1]");
  });

  it("reports a result in another assistant's run as misplaced, or as a duplicate when its call is already answered", () => {
    expect(codes([user("go"), calls("a"), result("a"), calls("b"), result("b"), result("a")])).toEqual([["duplicate_tool_result", 5]]);
    expect(codes([user("go"), calls("a"), say("hm"), calls("b"), result("b"), result("a")])).toEqual([["misplaced_tool_result", 5]]);
  });

  it("reports a second result for the same call", () => {
    expect(codes([user("go"), calls("a"), result("a"), result("a")])).toEqual([["duplicate_tool_result", 3]]);
  });

  it("reports two calls sharing an id, within a message and across messages", () => {
    expect(codes([user("go"), calls("a", "a"), result("a")])).toEqual([["duplicate_tool_call_id", 1]]);
    const across = validateConversation([user("go"), calls("a"), result("a"), user("again"), calls("a"), result("a")]);
    expect(across.map((p) => [p.code, p.index])).toEqual([["duplicate_tool_call_id", 4]]);
    expect(across[0]?.message).toBe('messages[4] (assistant): tool call id "a" is already used by messages[1]');
  });

  it("matches calls by call_id when present", () => {
    const assistant: ChatMessage = { role: "assistant", content: null, tool_calls: [call("fc_1", "t", "{}", "call_1")] };
    expect(codes([user("go"), assistant, result("call_1")])).toEqual([]);
    expect(codes([user("go"), assistant, result("fc_1")]).map(([c]) => c)).toEqual(["missing_tool_result", "orphan_tool_result"]);
  });

  it("reports a conversation whose first non-system message is a tool result", () => {
    expect(codes([system(), result("a"), user("go")])).toEqual([
      ["tool_result_first", 1],
      ["first_not_user", 1],
      ["orphan_tool_result", 1],
    ]);
  });

  it("reports a conversation whose first non-system message is not a user message", () => {
    expect(codes([system(), say("hello"), user("go")])).toEqual([["first_not_user", 1]]);
  });

  it("reports a system message after a non-system one", () => {
    const problems = validateConversation([system(), user("go"), system("again")]);
    expect(problems.map((p) => [p.code, p.index])).toEqual([["system_not_first", 2]]);
    expect(problems[0]?.message).toBe("messages[2] (system): system message after messages[1] (user)");
  });

  it("accepts several leading system messages", () => {
    expect(codes([system(), system("more"), user("go")])).toEqual([]);
  });

  it("reports an assistant with empty content and no tool calls", () => {
    for (const content of [null, "", []] as ChatMessage["content"][]) {
      expect(codes([user("go"), { role: "assistant", content }])).toEqual([["empty_assistant", 1]]);
    }
    expect(codes([user("go"), { role: "assistant", content: null, tool_calls: [] }])).toEqual([["empty_assistant", 1]]);
  });

  it("reports consecutive same-role messages only in strict alternation mode", () => {
    const messages = [user("a"), user("b"), say("c"), say("d"), calls("x"), result("x"), result("x2")];
    expect(codes(messages).map(([c]) => c)).not.toContain("consecutive_same_role");
    expect(codes(messages, true).filter(([c]) => c === "consecutive_same_role")).toEqual([
      ["consecutive_same_role", 1],
      ["consecutive_same_role", 3],
      ["consecutive_same_role", 4],
    ]);
  });

  it("returns every problem, sorted by message index", () => {
    const messages = [result("z"), system(), calls("a"), { role: "assistant", content: "" } as ChatMessage, result("a")];
    const problems = validateConversation(messages);
    expect(problems.map((p) => p.code).sort()).toEqual(
      [
        "tool_result_first",
        "first_not_user",
        "orphan_tool_result",
        "system_not_first",
        "empty_assistant",
        "misplaced_tool_result",
      ].sort(),
    );
    expect(problems.map((p) => p.index)).toEqual([...problems.map((p) => p.index)].sort((a, b) => a - b));
  });
});
