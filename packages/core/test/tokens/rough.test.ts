import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import {
  estimateMessagesTokensRough,
  estimateMessageTokensRough,
  estimateTokensRough,
  IMAGE_TOKENS,
  MESSAGE_ENVELOPE_TOKENS,
} from "../../src/tokens/rough.js";

describe("estimateTokensRough", () => {
  it("is ceil(chars / 4)", () => {
    expect(estimateTokensRough("")).toBe(0);
    expect(estimateTokensRough("a")).toBe(1);
    expect(estimateTokensRough("abcd")).toBe(1);
    expect(estimateTokensRough("abcde")).toBe(2);
    expect(estimateTokensRough("x".repeat(400))).toBe(100);
    expect(estimateTokensRough("x".repeat(401))).toBe(101);
  });
  it("agrees with (chars + 3) // 4 for every length up to 100", () => {
    for (let n = 0; n <= 100; n += 1) expect(estimateTokensRough("y".repeat(n))).toBe(Math.floor((n + 3) / 4));
  });
});

describe("estimateMessagesTokensRough", () => {
  it("counts string content plus the per-message envelope", () => {
    expect(estimateMessagesTokensRough([{ role: "user", content: "x".repeat(40) }])).toBe(10 + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts null content as the envelope alone", () => {
    expect(estimateMessageTokensRough({ role: "assistant", content: null })).toBe(MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts the text parts of a content list and each image as IMAGE_TOKENS", () => {
    const message: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: "x".repeat(6) },
        { type: "image_url", image_url: { url: "data:image/png;base64," + "A".repeat(10_000) } },
        { type: "input_image", image_url: "https://example.com/a.png" },
        { type: "image", source: { data: "..." } },
        { type: "text", text: "y".repeat(6) },
      ],
    };
    expect(IMAGE_TOKENS).toBe(1_500);
    expect(estimateMessageTokensRough(message)).toBe(3 + 3 * IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts a content part of an unknown kind by its serialized form", () => {
    const part = { type: "input_audio", input_audio: { data: "abcd", format: "wav" } };
    const message: ChatMessage = { role: "user", content: [part] };
    expect(estimateMessageTokensRough(message)).toBe(Math.ceil(JSON.stringify(part).length / 4) + MESSAGE_ENVELOPE_TOKENS);
  });

  it("counts each tool call's name and arguments", () => {
    const message: ChatMessage = {
      role: "assistant",
      content: "ok",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "terminal", arguments: '{"cmd":"ls -la"}' } },
        { id: "c2", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
      ],
    };
    const chars = 2 + "terminal".length + '{"cmd":"ls -la"}'.length + "read_file".length + '{"path":"a.ts"}'.length;
    expect(estimateMessageTokensRough(message)).toBe(Math.ceil(chars / 4) + MESSAGE_ENVELOPE_TOKENS);
  });

  it("sums over messages", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "x".repeat(8) },
      { role: "user", content: "x".repeat(3) },
      { role: "tool", tool_call_id: "c1", content: "x".repeat(100) },
    ];
    expect(estimateMessagesTokensRough(messages)).toBe(2 + 1 + 25 + 3 * MESSAGE_ENVELOPE_TOKENS);
    expect(estimateMessagesTokensRough([])).toBe(0);
  });
});
