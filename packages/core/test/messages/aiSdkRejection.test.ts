import { describe, expect, it } from "vitest";
import { InvalidMessagesError, parseMessages } from "../../src/messages/schema.js";

const HINT = "convert AI SDK ModelMessage[] with importAiSdkMessages() or `context-engine import --format ai-sdk`";

describe("parseMessages on Vercel AI SDK messages", () => {
  it("rejects an AI SDK tool-call part naming the message index, the field and the converter", () => {
    const messages = [
      { role: "system", content: "s" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "thinking" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a" } }] },
    ];
    expect(() => parseMessages(messages)).toThrow(InvalidMessagesError);
    expect(() => parseMessages(messages)).toThrow(`messages[3].content[0]: AI SDK 'tool-call' part — ${HINT}`);
  });

  it("rejects tool-result, reasoning, image and file parts of the AI SDK shape, and accepts OpenAI's image_url and file parts", () => {
    const aiSdk = [
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "x" } }] },
      { role: "assistant", content: [{ type: "text", text: "a" }, { type: "reasoning", text: "why" }] },
      { role: "user", content: [{ type: "image", image: "https://example.com/a.png" }] },
      { role: "user", content: [{ type: "file", data: "aGk=", mediaType: "text/plain" }] },
    ];
    const issues = (() => {
      try {
        parseMessages(aiSdk);
        return [];
      } catch (error) {
        return (error as InvalidMessagesError).issues.map((i) => `${i.index} ${i.path} ${i.message.split(" — ")[0]}`);
      }
    })();
    expect(issues).toEqual(["0 content[0] AI SDK 'tool-result' part", "1 content[1] AI SDK 'reasoning' part", "2 content[0] AI SDK 'image' part", "3 content[0] AI SDK 'file' part"]);
    const openai = [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }, { type: "file", file: { file_id: "f" } }] }];
    expect(parseMessages(openai)).toHaveLength(1);
  });
});
