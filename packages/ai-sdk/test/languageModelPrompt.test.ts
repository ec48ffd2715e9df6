import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateConversation, type ChatMessage } from "@context-engine/core";
import { promptToChatMessages, toChatMessages, toLanguageModelPrompt, type LanguageModelPrompt } from "../src/index.js";
import { languageModelPrompts, withUndefinedKeys } from "./arbitraries.js";

const prompts = (faithful: boolean) => languageModelPrompts(faithful) as unknown as fc.Arbitrary<LanguageModelPrompt>;

describe("AI SDK provider prompts (LanguageModelV3Prompt) ⇄ chat messages", () => {
  it("gives back exactly the prompt it was given: every part kind, media of every data kind, provider options, approvals", () => {
    fc.assert(
      fc.property(prompts(false), (prompt) => {
        expect(toLanguageModelPrompt(promptToChatMessages(prompt))).toStrictEqual(prompt);
      }),
      { numRuns: 400 },
    );
  });

  it("gives it back after the chat messages went through JSON text, as a store keeps them", () => {
    fc.assert(
      fc.property(prompts(true), (prompt) => {
        const stored = JSON.parse(JSON.stringify(promptToChatMessages(prompt))) as ChatMessage[];
        expect(toLanguageModelPrompt(stored)).toStrictEqual(prompt);
      }),
      { numRuns: 400 },
    );
  });

  it("reads the `providerOptions: undefined` the AI SDK writes as no provider options", () => {
    fc.assert(
      fc.property(prompts(false), (prompt) => {
        const written = withUndefinedKeys(prompt as never) as unknown as LanguageModelPrompt;
        expect(toLanguageModelPrompt(promptToChatMessages(written))).toStrictEqual(prompt);
      }),
      { numRuns: 200 },
    );
  });

  it("turns messages an engine wrote into the provider's form: text content as a text part, images as image files", () => {
    const prompt = toLanguageModelPrompt([
      { role: "system", content: "be brief" },
      { role: "user", content: "[CONTEXT COMPACTION] earlier turns" },
      { role: "assistant", content: "noted" },
      { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
    ]);
    expect(prompt).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "[CONTEXT COMPACTION] earlier turns" }] },
      { role: "assistant", content: [{ type: "text", text: "noted" }] },
      { role: "user", content: [{ type: "text", text: "see" }, { type: "file", data: new URL("https://example.com/a.png"), mediaType: "image/*" }] },
    ]);
  });

  it("shows engines the same chat messages as the AI SDK messages the prompt was made from, which pass validateConversation", () => {
    const prompt: LanguageModelPrompt = [
      { role: "system", content: "sys", providerOptions: undefined },
      { role: "user", content: [{ type: "text", text: "read a.txt", providerOptions: undefined }], providerOptions: undefined },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "readFile", input: { path: "a.txt" }, providerExecuted: undefined, providerOptions: undefined }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "readFile", output: { type: "text", value: "hello" } }] },
    ];
    const chat = promptToChatMessages(prompt);
    expect(validateConversation(chat)).toEqual([]);
    expect(chat.map(({ role, content }) => ({ role, content }))).toEqual(
      toChatMessages([
        { role: "system", content: "sys" },
        { role: "user", content: [{ type: "text", text: "read a.txt" }] },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "readFile", input: { path: "a.txt" } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "readFile", output: { type: "text", value: "hello" } }] },
      ]).map(({ role, content }) => ({ role, content })),
    );
  });

  it("names the place of a prompt it cannot read", () => {
    expect(() => promptToChatMessages([{ role: "user", content: [{ type: "text", text: "a" }] }, { role: "robot", content: [] } as never])).toThrow(/prompt\[1\]: expected an AI SDK message/);
  });
});
