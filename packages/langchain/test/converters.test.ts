import fc from "fast-check";
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { contentText, PRUNED_TOOL_PLACEHOLDER, validateConversation, type ChatMessage, type ContentPart } from "@context-engine/core";
import { LANGCHAIN_MARKER, toBaseMessages, toChatMessages } from "../src/index.js";
import { baseMessages } from "./arbitraries.js";

/** What a message is: its class and its fields. */
function described(messages: BaseMessage[]): unknown[] {
  return messages.map((m) => ({ class: m.constructor.name, ...Object.fromEntries(Object.entries(m).filter(([k, v]) => k !== "lc_kwargs" && v !== undefined)) }));
}

describe("LangChain BaseMessage ⇄ chat messages", () => {
  it("gives back the same messages: class, id, name, metadata, usage, tool calls, every content block", () => {
    fc.assert(
      fc.property(baseMessages(false), (messages) => {
        expect(described(toBaseMessages(toChatMessages(messages)))).toStrictEqual(described(messages));
      }),
      { numRuns: 300 },
    );
  });

  it("gives them back after the chat messages went through JSON text, as a store keeps them", () => {
    fc.assert(
      fc.property(baseMessages(true), (messages) => {
        const stored = JSON.parse(JSON.stringify(toChatMessages(messages))) as ChatMessage[];
        expect(described(toBaseMessages(stored))).toStrictEqual(described(messages));
        expect(toChatMessages(toBaseMessages(stored))).toStrictEqual(stored);
      }),
      { numRuns: 300 },
    );
  });

  it("shows engines OpenAI messages: text, images as image_url, tool calls with JSON arguments, reasoning, tool results", () => {
    const messages = [
      new SystemMessage("be brief"),
      new HumanMessage({ content: [{ type: "text", text: "look" }, { type: "image", data: "AAAA", mimeType: "image/png" }], id: "h1" }),
      new AIMessage({ content: "checking", tool_calls: [{ id: "c1", name: "lcm_grep", args: { pattern: "x" }, type: "tool_call" }], additional_kwargs: { reasoning_content: "why" } }),
      new ToolMessage({ content: "found 2", tool_call_id: "c1", name: "lcm_grep" }),
    ];
    const chat = toChatMessages(messages).map(({ [LANGCHAIN_MARKER]: _m, ...rest }) => rest);
    expect(chat).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
      { role: "assistant", content: "checking", reasoning_content: "why", tool_calls: [{ id: "c1", type: "function", function: { name: "lcm_grep", arguments: '{"pattern":"x"}' } }] },
      { role: "tool", content: "found 2", tool_call_id: "c1", name: "lcm_grep" },
    ]);
    expect(validateConversation(chat as ChatMessage[])).toEqual([]);
  });

  it("shows a block by a provider's file id as a file part with that id, and gives the block back unchanged", () => {
    const blocks = [{ type: "text", text: "what is in these?" }, { type: "image", fileId: "file-abc", mimeType: "image/png" }, { type: "file", source_type: "id", id: "file-def" }];
    const chat = toChatMessages([new HumanMessage({ content: blocks, id: "h1" })]);
    expect(chat[0]!.content).toEqual([{ type: "text", text: "what is in these?" }, { type: "file", file: { file_id: "file-abc" } }, { type: "file", file: { file_id: "file-def" } }]);
    expect(contentText(chat[0]!.content)).toBe("what is in these?\n[file]\n[file]");
    expect(toBaseMessages(chat)[0]!.content).toEqual(blocks);
    // an engine that points the part at another file changes the block's id
    const changed = { ...chat[0]!, content: [(chat[0]!.content as ContentPart[])[0]!, { type: "file", file: { file_id: "file-xyz" } }, (chat[0]!.content as ContentPart[])[2]!] };
    expect(toBaseMessages([changed])[0]!.content).toEqual([blocks[0], { ...blocks[1], fileId: "file-xyz" }, blocks[2]]);
  });

  it("lets an engine's changes win and builds its own messages from the OpenAI fields", () => {
    const chat = toChatMessages([new HumanMessage({ content: "go", id: "h1" }), new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "readFile", args: { path: "a" } }], id: "a1" }), new ToolMessage({ content: "x".repeat(300), tool_call_id: "c1", id: "t1" })]);
    const changed: ChatMessage[] = [{ role: "user", content: "[CONTEXT COMPACTION] summary" }, ...chat.slice(1, 2), { ...chat[2]!, content: PRUNED_TOOL_PLACEHOLDER }];
    const back = toBaseMessages(changed);
    expect(back[0]).toBeInstanceOf(HumanMessage);
    expect([back[0]!.content, back[0]!.id]).toEqual(["[CONTEXT COMPACTION] summary", undefined]);
    expect(back[1]).toMatchObject({ id: "a1", tool_calls: [{ id: "c1", name: "readFile", args: { path: "a" } }] });
    expect(back[2]).toBeInstanceOf(ToolMessage);
    expect([back[2]!.content, back[2]!.id, (back[2] as ToolMessage).tool_call_id]).toEqual([PRUNED_TOOL_PLACEHOLDER, "t1", "c1"]);
  });

  it("names the place of a message it cannot express", () => {
    expect(() => toChatMessages([new HumanMessage("a"), new RemoveMessage({ id: "x" })])).toThrow(/messages\[1\]: a 'remove' message has no chat equivalent/);
    expect(() => toBaseMessages([{ role: "user", content: "a", [LANGCHAIN_MARKER]: { kind: "human" } }])).toThrow(/messages\[0\]\.langchain: not a marker/);
  });
});
