import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat, importAiSdkMessages, importTranscript, TRANSCRIPT_FORMATS } from "../../src/importers/index.js";
import { aiSdkMessageToChat } from "../../src/internal/index.js";
import { expectValidConversation, FIXTURES_DIR } from "./helpers.js";

const text = readFileSync(resolve(FIXTURES_DIR, "ai-sdk/multi-step-tools.json"), "utf8");

describe("importAiSdkMessages", () => {
  it("turns a multi-step AI SDK tool conversation into messages that pass validateConversation", () => {
    const { messages, warnings, format } = importAiSdkMessages(text, { fileName: "ai.json" });
    expect([format, warnings]).toEqual(["ai-sdk", []]);
    expectValidConversation(messages);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "tool", "assistant", "user"]);
  });

  it("maps tool calls, every tool output kind, reasoning, images and files onto OpenAI fields", () => {
    const { messages } = importAiSdkMessages(text);
    const [, user, first, lockfile, missing, , install] = messages;
    expect(user?.content).toEqual([
      { type: "text", text: "Why does the build fail? Here is a screenshot and the log." },
      { type: "image_url", image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
      { type: "file", file: { filename: "build.log", file_data: "data:text/plain;base64,ZXJyb3I6IGNhbm5vdCBmaW5kIG1vZHVsZQ==" } },
    ]);
    expect(first).toMatchObject({ content: "Let me look at the package manifest and the lockfile.", reasoning_content: "The log mentions a missing module; check package.json first." });
    expect(first?.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ["call_1", "readFile", '{"path":"package.json"}'],
      ["call_2", "readFile", '{"path":"pnpm-lock.yaml"}'],
    ]);
    expect([lockfile?.tool_call_id, lockfile?.content]).toEqual(["call_1", '{"name":"app","dependencies":{"left-pad":"1.3.0"}}']);
    expect([missing?.tool_call_id, missing?.content]).toEqual(["call_2", "ENOENT: pnpm-lock.yaml not found"]);
    expect(install?.content).toBe("Lockfile written; 1 package added.");
  });

  it("reads AI SDK v4 args/result and leaves out a call whose result never came, with a warning", () => {
    const v4 = JSON.stringify({
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "t", args: { x: 1 } }, { type: "tool-call", toolCallId: "b", toolName: "t", args: {} }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "t", result: { ok: true } }] },
      ],
    });
    const { messages, warnings } = importAiSdkMessages(v4, { fileName: "v4.json" });
    expectValidConversation(messages);
    expect(messages[1]?.tool_calls?.map((c) => c.function.arguments)).toEqual(['{"x":1}']);
    expect(messages[2]?.content).toBe('{"ok":true}');
    expect(warnings).toEqual(['v4.json: messages[1]: tool call "b" (t) has no result; left out of tool_calls']);
  });

  it("converts one message without repairing pairs, leaving a provider-executed call out of tool_calls with a warning", () => {
    const warnings: string[] = [];
    const message = {
      role: "assistant",
      content: [
        { type: "text", text: "Searching." },
        { type: "tool-call", toolCallId: "ws_1", toolName: "web_search", input: { query: "x" }, providerExecuted: true },
        { type: "tool-result", toolCallId: "ws_1", toolName: "web_search", output: { type: "json", value: [] } },
        { type: "tool-call", toolCallId: "c1", toolName: "readFile", input: { path: "a" } },
      ],
    };
    expect(aiSdkMessageToChat(message, "m[0]", warnings)).toEqual([
      { role: "assistant", content: "Searching.", tool_calls: [{ id: "c1", type: "function", function: { name: "readFile", arguments: '{"path":"a"}' } }] },
    ]);
    expect(warnings).toEqual([
      'm[0]: provider-executed tool call "ws_1" (web_search) has no OpenAI equivalent; left out',
      "m[0]: assistant 'tool-result' part has no OpenAI equivalent; left out",
    ]);
  });

  it("is a transcript format that detection picks for AI SDK messages", () => {
    expect(TRANSCRIPT_FORMATS).toContain("ai-sdk");
    expect(detectTranscriptFormat(text)).toBe("ai-sdk");
    expect(detectTranscriptFormat(JSON.stringify({ messages: JSON.parse(text) }))).toBe("ai-sdk");
    expect(detectTranscriptFormat(JSON.stringify([{ role: "user", content: [{ type: "text", text: "hi" }] }]))).toBe("openai");
    expect(importTranscript(text).format).toBe("ai-sdk");
  });
});
