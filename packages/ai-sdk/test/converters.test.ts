import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { PRUNED_TOOL_PLACEHOLDER, validateConversation, type ChatMessage } from "@context-engine/core";
import { importAiSdkMessages } from "@context-engine/core/lab";
import { AI_SDK_MARKER, AiSdkConversionError, toChatMessages, toModelMessages } from "../src/index.js";
import { modelMessages } from "./arbitraries.js";

const FIXTURE = join(import.meta.dirname, "../../../test/fixtures/ai-sdk/multi-step-tools.json");
const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as ModelMessage[];

/** The OpenAI fields of chat messages, without the marker. */
function shown(messages: ChatMessage[]): ChatMessage[] {
  return messages.map(({ [AI_SDK_MARKER]: _marker, ...rest }) => rest as ChatMessage);
}

describe("AI SDK ModelMessage ⇄ chat messages", () => {
  it("gives back exactly the AI SDK messages it was given: every part kind, media of every data kind, provider options, approvals", () => {
    fc.assert(
      fc.property(modelMessages(false), (messages) => {
        expect(toModelMessages(toChatMessages(messages))).toStrictEqual(messages);
      }),
      { numRuns: 400 },
    );
  });

  it("gives them back after the chat messages went through JSON text, as a store keeps them", () => {
    fc.assert(
      fc.property(modelMessages(true), (messages) => {
        const stored = JSON.parse(JSON.stringify(toChatMessages(messages))) as ChatMessage[];
        expect(toModelMessages(stored)).toStrictEqual(messages);
      }),
      { numRuns: 400 },
    );
  });

  it("converts a chat message it made back to the same chat message, so engines that hash messages see no change", () => {
    fc.assert(
      fc.property(modelMessages(true), (messages) => {
        const chat = toChatMessages(messages);
        expect(toChatMessages(toModelMessages(chat))).toStrictEqual(chat);
      }),
      { numRuns: 200 },
    );
  });

  it("shows engines the core importer's reading of the messages, which passes validateConversation", () => {
    const chat = toChatMessages(fixture);
    expect(shown(chat)).toEqual(importAiSdkMessages(JSON.stringify(fixture)).messages);
    expect(validateConversation(chat)).toEqual([]);
    expect(toModelMessages(chat)).toStrictEqual(fixture);
  });

  it("lets an engine's changes win: a cleared tool output, a summary put before a user's image, a shortened call", () => {
    const chat = toChatMessages(fixture);
    const changed = chat.map((m, i): ChatMessage => {
      if (m.role === "tool" && m.tool_call_id === "call_1") return { ...m, content: `${PRUNED_TOOL_PLACEHOLDER} [readFile] package.json` };
      if (i === 1) return { ...m, content: [{ type: "text", text: "[CONTEXT COMPACTION] summary" }, ...(m.content as [])] };
      if (m.tool_calls?.[0]?.id === "call_3") return { ...m, tool_calls: [{ ...m.tool_calls[0]!, function: { name: "runShell", arguments: '{"command":"pnpm i"}' } }] };
      return m;
    });
    const back = toModelMessages(changed);
    const user = back[1] as Extract<ModelMessage, { role: "user" }>;
    expect(user.content).toEqual([{ type: "text", text: "[CONTEXT COMPACTION] summary" }, ...(fixture[1]!.content as [])]);
    const results = (back[3] as Extract<ModelMessage, { role: "tool" }>).content;
    expect(results[0]).toEqual({ type: "tool-result", toolCallId: "call_1", toolName: "readFile", output: { type: "text", value: `${PRUNED_TOOL_PLACEHOLDER} [readFile] package.json` } });
    expect(results[1]).toEqual((fixture[3] as Extract<ModelMessage, { role: "tool" }>).content[1]);
    expect((back[4] as Extract<ModelMessage, { role: "assistant" }>).content).toEqual([{ type: "tool-call", toolCallId: "call_3", toolName: "runShell", input: { command: "pnpm i" } }]);
  });

  it("converts messages an engine wrote (a summary, a stub result) from their OpenAI fields, the tool name taken from the call", () => {
    const back = toModelMessages([
      { role: "user", content: "go" },
      { role: "assistant", content: "[CONTEXT COMPACTION] earlier turns", reasoning_content: "why", tool_calls: [{ id: "c1", type: "function", function: { name: "lcm_grep", arguments: '{"pattern":"x"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "[no result]" },
      { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }, { type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
    ]);
    expect(back).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "reasoning", text: "why" }, { type: "text", text: "[CONTEXT COMPACTION] earlier turns" }, { type: "tool-call", toolCallId: "c1", toolName: "lcm_grep", input: { pattern: "x" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "lcm_grep", output: { type: "text", value: "[no result]" } }] },
      { role: "user", content: [{ type: "text", text: "see" }, { type: "image", image: "AAAA", mediaType: "image/png" }, { type: "image", image: new URL("https://example.com/a.png") }] },
    ]);
  });

  it("names the place of input it cannot convert", () => {
    expect(() => toChatMessages([{ role: "user", content: "a" }, { role: "robot", content: "b" } as never])).toThrow(/messages\[1\]: expected an AI SDK message/);
    expect(() => toChatMessages([{ role: "user", content: [{ text: "no type" }] } as never])).toThrow(/messages\[0\]\.content\[0\]: expected a part with a string type/);
    expect(() => toModelMessages([{ role: "tool", tool_call_id: "nowhere", content: "x" }])).toThrow(/messages\[0\]: tool result "nowhere" answers no earlier tool call/);
    expect(() => toModelMessages([{ role: "user", content: "x", [AI_SDK_MARKER]: { role: "user", parts: "nope" } }])).toThrow(AiSdkConversionError);
    expect(() => toModelMessages([{ role: "user", content: [{ type: "input_video", video: {} }] }])).toThrow(/messages\[0\]\.content\[0\]: a 'input_video' content part has no AI SDK equivalent/);
  });
});
