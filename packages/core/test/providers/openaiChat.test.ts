import { describe, expect, it } from "vitest";
import { toOpenAIChatMessages } from "../../src/providers/openaiChat.js";
import type { ChatMessage } from "../../src/messages/schema.js";

describe("toOpenAIChatMessages", () => {
  const messages: ChatMessage[] = [
    { role: "system", content: "sys", timestamp: "2026-01-01T00:00:00Z" },
    { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }], timestamp: "2026-01-01T00:00:01Z" },
    { role: "assistant", content: null, tool_calls: [{ id: "item_1", call_id: "call_1", type: "function", function: { name: "terminal", arguments: "{}" }, extra: 1 }] },
    { role: "tool", tool_call_id: "call_1", content: "ok", is_error: true, name: "terminal" },
  ];

  it("keeps only the wire fields of each role", () => {
    expect(toOpenAIChatMessages(messages)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "terminal", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: "ok" },
    ]);
  });

  it("leaves the input untouched", () => {
    const snapshot = JSON.stringify(messages);
    toOpenAIChatMessages(messages);
    expect(JSON.stringify(messages)).toBe(snapshot);
  });
});
