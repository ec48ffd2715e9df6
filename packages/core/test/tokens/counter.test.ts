import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { defaultTokenCounter, RoughTokenCounter, TiktokenCounter } from "../../src/tokens/counter.js";
import { o200kTables } from "../../src/tokens/o200k.js";
import { estimateMessagesTokensRough, IMAGE_TOKENS, MESSAGE_ENVELOPE_TOKENS } from "../../src/tokens/rough.js";

/** A real TiktokenCounter that records every text it is asked to encode. */
class RecordingTiktokenCounter extends TiktokenCounter {
  readonly encoded: string[] = [];
  override count(text: string): number {
    this.encoded.push(text);
    return super.count(text);
  }
}

const conversation = (): ChatMessage[] => [
  { role: "system", content: "You are a careful engineer." },
  { role: "user", content: "hello world" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"cmd":"pytest -q"}' } }],
  },
  { role: "tool", tool_call_id: "c1", content: "8 passed, 2 failed" },
];

describe("TiktokenCounter", () => {
  it("counts 'hello world' as 2 tokens with o200k_base", () => {
    expect(new TiktokenCounter().count("hello world")).toBe(2);
  });

  it("counts the empty string as 0 tokens", () => {
    expect(new TiktokenCounter().count("")).toBe(0);
  });

  it("counts special-token strings as plain text instead of throwing", () => {
    expect(new TiktokenCounter().count("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("loads the encoding once per process", () => {
    expect(o200kTables()).toBe(o200kTables());
  });

  it("counts a message as its content, tool-call envelopes and arguments, images and the envelope", () => {
    const counter = new TiktokenCounter();
    const [, greeting, assistant] = conversation();
    expect(counter.countMessages([greeting!])).toBe(2 + MESSAGE_ENVELOPE_TOKENS);
    const envelope = '{"id":"c1","type":"function","function":{"name":"terminal","arguments":""}}';
    expect(counter.countMessages([assistant!])).toBe(counter.count(envelope) + counter.count('{"cmd":"pytest -q"}') + MESSAGE_ENVELOPE_TOKENS);
    const image: ChatMessage = { role: "user", content: [{ type: "text", text: "hello world" }, { type: "image_url", image_url: { url: "x" } }] };
    expect(counter.countMessages([image])).toBe(2 + IMAGE_TOKENS + MESSAGE_ENVELOPE_TOKENS);
  });

  it("sums per-message counts over a conversation", () => {
    const counter = new TiktokenCounter();
    const messages = conversation();
    expect(counter.countMessages(messages)).toBe(messages.reduce((sum, m) => sum + counter.countMessages([m]), 0));
  });

  it("only encodes the new message when a conversation is recounted after one append", () => {
    const counter = new RecordingTiktokenCounter();
    const messages = conversation();
    const before = counter.countMessages(messages);
    expect(counter.encoded.length).toBeGreaterThan(0);

    counter.encoded.length = 0;
    messages.push({ role: "assistant", content: "Two tests fail in test_api.py" });
    const after = counter.countMessages(messages);

    expect(counter.encoded).toEqual(["Two tests fail in test_api.py"]);
    expect(after - before).toBe(counter.count("Two tests fail in test_api.py") + MESSAGE_ENVELOPE_TOKENS);
  });

  it("recounts a message whose content was reassigned", () => {
    const counter = new RecordingTiktokenCounter();
    const message: ChatMessage = { role: "tool", tool_call_id: "c1", content: "a long tool output that will be cleared" };
    const first = counter.countMessages([message]);
    message.content = "[Old tool output cleared to save context space]";
    counter.encoded.length = 0;
    const second = counter.countMessages([message]);
    expect(counter.encoded).toEqual(["[Old tool output cleared to save context space]", "c1"]); // content, then the tool_call_id
    expect(second).not.toBe(first);
  });

  it("recounts a message whose reasoning field was added after it was counted", () => {
    const counter = new RecordingTiktokenCounter();
    const message = { role: "assistant", content: "Done." } as ChatMessage & { reasoning_content?: string };
    const first = counter.countMessages([message]);
    message.reasoning_content = "First I compared both test runs, then I bisected the failing commit range.";
    expect(counter.countMessages([message])).toBe(first + counter.count(message.reasoning_content));
  });

  it("keeps a separate memo per counter", () => {
    const a = new RecordingTiktokenCounter();
    const b = new RecordingTiktokenCounter();
    const messages = conversation();
    a.countMessages(messages);
    b.countMessages(messages);
    expect(b.encoded).toEqual(a.encoded);
  });
});

describe("defaultTokenCounter", () => {
  it("returns one shared TiktokenCounter", () => {
    expect(defaultTokenCounter()).toBeInstanceOf(TiktokenCounter);
    expect(defaultTokenCounter()).toBe(defaultTokenCounter());
  });
});

describe("RoughTokenCounter", () => {
  it("counts Latin text as ceil(chars / 4)", () => {
    expect(new RoughTokenCounter().count("hello world")).toBe(3);
  });

  it("agrees with estimateMessagesTokensRough", () => {
    const messages = conversation();
    expect(new RoughTokenCounter().countMessages(messages)).toBe(estimateMessagesTokensRough(messages));
  });

  it("only measures the new message when a conversation is recounted after one append", () => {
    class RecordingRoughCounter extends RoughTokenCounter {
      readonly measured: ChatMessage[] = [];
      protected override measureMessage(message: ChatMessage): number {
        this.measured.push(message);
        return super.measureMessage(message);
      }
    }
    const counter = new RecordingRoughCounter();
    const messages = conversation();
    counter.countMessages(messages);
    const appended: ChatMessage = { role: "user", content: "and now?" };
    messages.push(appended);
    counter.measured.length = 0;
    expect(counter.countMessages(messages)).toBe(estimateMessagesTokensRough(messages));
    expect(counter.measured).toEqual([appended]);
  });
});
