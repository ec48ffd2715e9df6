import { describe, expect, it } from "vitest";
import { importOpenAIMessages } from "../../src/importers/openai.js";
import { TranscriptImportError } from "../../src/importers/types.js";
import { countRoles, expectValidConversation, rawFixture } from "./helpers.js";

const FNCALL = "openhands-sdk/tests/fixtures/llm_data/fncall-llm-message.json";
const LITELLM = "openhands-sdk/tests/fixtures/llm_data/llm-logs/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json";

describe("importOpenAIMessages", () => {
  it("keeps an OpenAI messages array as it is", () => {
    const text = rawFixture(FNCALL);
    const { messages, warnings } = importOpenAIMessages(text);
    expect(warnings).toEqual([]);
    expect(messages).toEqual(JSON.parse(text));
    expectValidConversation(messages);
  });

  it("appends the response of a litellm log and reports its unanswered call", () => {
    const log = JSON.parse(rawFixture(LITELLM)) as { messages: unknown[] };
    const { messages, warnings } = importOpenAIMessages(rawFixture(LITELLM), { fileName: "log.json" });
    expect(messages).toHaveLength(log.messages.length + 1);
    expect(countRoles(messages)).toEqual({ system: 1, user: 1, assistant: 6, tool: 5 });
    const last = messages[messages.length - 1];
    expect(last).toMatchObject({ role: "assistant", content: expect.stringMatching(/^Great! The `hello.py` file/) });
    expect(last?.tool_calls).toBeUndefined();
    expect(warnings).toEqual(['log.json: response.choices[0].message: tool call "toolu_01Pb8xPvaUVpxYwNxRHKrhKB" (finish) has no result; left out of tool_calls']);
    expectValidConversation(messages);
  });

  it("drops null optional fields and accepts {messages: [...]}", () => {
    const text = JSON.stringify({ messages: [{ role: "user", content: "hi", tool_calls: null, name: null }, { role: "assistant", content: "hello", tool_calls: [] }] });
    expect(importOpenAIMessages(text).messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  it("fails naming the file and the message index of a bad message", () => {
    const text = JSON.stringify([{ role: "user", content: "hi" }, { role: "robot", content: "x" }]);
    expect(() => importOpenAIMessages(text, { fileName: "m.json" })).toThrow(TranscriptImportError);
    expect(() => importOpenAIMessages(text, { fileName: "m.json" })).toThrow(/in m\.json[\s\S]*messages\[1\]\.role/);
    expect(() => importOpenAIMessages('"text"', { fileName: "m.json" })).toThrow(/^m\.json: expected an array of messages/);
  });
});
