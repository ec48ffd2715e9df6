import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applyAnthropicCacheControl, countCacheBreakpoints, markerPlacement, stripCacheControl } from "../../src/caching/anthropicCacheControl.js";
import type { ChatMessage } from "../../src/messages/schema.js";

const EPHEMERAL = { type: "ephemeral" };
const EPHEMERAL_1H = { type: "ephemeral", ttl: "1h" };

function conversation(): ChatMessage[] {
  return [
    { role: "system", content: "You are a careful coding agent." },
    { role: "user", content: "Fix the failing test." },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"cmd":"pytest"}' } }] },
    { role: "tool", tool_call_id: "c1", content: "1 failed" },
    { role: "assistant", content: "The assertion is off by one; fixing it." },
    { role: "user", content: [{ type: "text", text: "Also run the linter." }] },
  ];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Indexes of messages that carry a marker, anywhere. */
function markedIndexes(messages: ChatMessage[]): number[] {
  return messages.flatMap((m, i) => (countCacheBreakpoints([m]) > 0 ? [i] : []));
}

describe("applyAnthropicCacheControl — strategy system_and_3", () => {
  it("puts breakpoint 1 on the system prompt and the other three on the last three non-system messages", () => {
    const out = applyAnthropicCacheControl(conversation());
    expect(markedIndexes(out)).toEqual([0, 3, 4, 5]);
    expect(countCacheBreakpoints(out)).toBe(4);
  });

  it("uses a plain ephemeral marker for the 5m TTL and adds ttl 1h for the 1-hour TTL", () => {
    const fiveMinutes = applyAnthropicCacheControl(conversation(), { ttl: "5m" });
    expect(fiveMinutes[0]?.content).toEqual([{ type: "text", text: "You are a careful coding agent.", cache_control: EPHEMERAL }]);
    const oneHour = applyAnthropicCacheControl(conversation(), { ttl: "1h" });
    expect(oneHour[0]?.content).toEqual([{ type: "text", text: "You are a careful coding agent.", cache_control: EPHEMERAL_1H }]);
  });

  it("never places more than 4 markers, however long the conversation", () => {
    const long: ChatMessage[] = [{ role: "system", content: "sys" }];
    for (let i = 0; i < 50; i += 1) long.push({ role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}` });
    expect(countCacheBreakpoints(applyAnthropicCacheControl(long))).toBe(4);
    expect(countCacheBreakpoints(applyAnthropicCacheControl(long, { nativeAnthropic: true }))).toBe(4);
  });

  it("gives the rolling window all 4 breakpoints when there is no system prompt", () => {
    const noSystem = conversation().slice(1);
    expect(markedIndexes(applyAnthropicCacheControl(noSystem, { nativeAnthropic: true }))).toEqual([1, 2, 3, 4]);
    // envelope: the assistant with null content (index 1) cannot carry one, so the window reaches index 0
    expect(markedIndexes(applyAnthropicCacheControl(noSystem, { nativeAnthropic: false }))).toEqual([0, 2, 3, 4]);
  });

  it("marks every message of a short conversation once", () => {
    const out = applyAnthropicCacheControl([{ role: "system", content: "sys" }, { role: "user", content: "hi" }]);
    expect(markedIndexes(out)).toEqual([0, 1]);
  });

  it("returns an empty list for an empty conversation", () => {
    expect(applyAnthropicCacheControl([])).toEqual([]);
  });

  it("does not count a later system message as part of the rolling window", () => {
    const messages: ChatMessage[] = [...conversation(), { role: "system", content: "late system note" }];
    expect(markedIndexes(applyAnthropicCacheControl(messages))).toEqual([0, 3, 4, 5]);
  });

  it("rejects a TTL other than 5m or 1h with a clear error", () => {
    expect(() => applyAnthropicCacheControl(conversation(), { ttl: "10m" as "5m" })).toThrow(/ttl must be "5m" or "1h", got "10m"/);
  });
});

describe("applyAnthropicCacheControl — content shapes (the content-shape table)", () => {
  const tail = (message: ChatMessage, nativeAnthropic: boolean): ChatMessage =>
    applyAnthropicCacheControl([{ role: "system", content: "sys" }, message], { nativeAnthropic })[1] as ChatMessage;

  it("native: a tool message gets a top-level marker and keeps its content", () => {
    const out = tail({ role: "tool", tool_call_id: "c1", content: "ok" }, true);
    expect(out).toEqual({ role: "tool", tool_call_id: "c1", content: "ok", cache_control: EPHEMERAL });
  });

  it("native: an empty tool message still gets a top-level marker", () => {
    expect(tail({ role: "tool", tool_call_id: "c1", content: "" }, true).cache_control).toEqual(EPHEMERAL);
  });

  it("envelope: a tool message with content is wrapped into a text part carrying the marker", () => {
    const out = tail({ role: "tool", tool_call_id: "c1", content: "ok" }, false);
    expect(out).toEqual({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "ok", cache_control: EPHEMERAL }] });
  });

  it("envelope: an empty tool message is skipped and does not use a breakpoint", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "user", content: "c" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "" },
    ];
    const out = applyAnthropicCacheControl(messages, { nativeAnthropic: false });
    expect(out[5]).toEqual(messages[5]);
    // the empty tool result and the empty assistant are skipped, so the window reaches back to messages 1-3
    expect(markedIndexes(out)).toEqual([0, 1, 2, 3]);
  });

  it("native: an assistant with null content gets a top-level marker", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    const out = tail({ role: "assistant", content: null, tool_calls: [call] }, true);
    expect(out).toEqual({ role: "assistant", content: null, tool_calls: [call], cache_control: EPHEMERAL });
  });

  it("native: an assistant with empty-string content gets a top-level marker", () => {
    expect(tail({ role: "assistant", content: "" }, true).cache_control).toEqual(EPHEMERAL);
  });

  it("envelope: an assistant with empty or null content is skipped", () => {
    const empty: ChatMessage = { role: "assistant", content: "" };
    const none: ChatMessage = { role: "assistant", content: null };
    expect(tail(empty, false)).toEqual(empty);
    expect(tail(none, false)).toEqual(none);
    expect(markerPlacement(none, false)).toBe("none");
  });

  it("string content becomes one text part carrying the marker, native and envelope alike", () => {
    for (const native of [true, false]) {
      expect(tail({ role: "user", content: "hello" }, native).content).toEqual([{ type: "text", text: "hello", cache_control: EPHEMERAL }]);
    }
  });

  it("a non-empty list gets the marker on its last part only", () => {
    for (const native of [true, false]) {
      const out = tail({ role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "https://x/y.png" } }] }, native);
      expect(out.content).toEqual([{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "https://x/y.png" }, cache_control: EPHEMERAL }]);
    }
  });

  it("envelope: a list whose last part is not an object is skipped", () => {
    const odd = { role: "user", content: [{ type: "text", text: "a" }, "bare string"] } as unknown as ChatMessage;
    expect(markerPlacement(odd, false)).toBe("none");
    expect(tail(odd, false)).toEqual(odd);
  });

  it("an empty list is a no-op and does not use a breakpoint", () => {
    for (const native of [true, false]) {
      const messages: ChatMessage[] = [
        { role: "system", content: "sys" },
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
        { role: "user", content: [] },
      ];
      const out = applyAnthropicCacheControl(messages, { nativeAnthropic: native });
      expect(out[4]).toEqual({ role: "user", content: [] });
      expect(markedIndexes(out)).toEqual([0, 1, 2, 3]);
    }
  });

  it("an empty system prompt carries no breakpoint, native or envelope, so the rolling window takes all 4", () => {
    for (const native of [true, false]) {
      const messages: ChatMessage[] = [
        { role: "system", content: "" },
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
        { role: "assistant", content: "d" },
      ];
      const out = applyAnthropicCacheControl(messages, { nativeAnthropic: native });
      expect(out[0]).toEqual({ role: "system", content: "" });
      expect(markedIndexes(out)).toEqual([1, 2, 3, 4]);
    }
  });

  it("keeps unknown fields of a marked message", () => {
    const out = tail({ role: "user", content: "hi", name: "alice", x_trace: { id: 7 } }, false);
    expect(out).toMatchObject({ name: "alice", x_trace: { id: 7 } });
  });
});

describe("applyAnthropicCacheControl — idempotence and immutability", () => {
  it("gives the same result when applied twice (markers are replaced, not piled up)", () => {
    for (const nativeAnthropic of [true, false]) {
      const once = applyAnthropicCacheControl(conversation(), { nativeAnthropic });
      const twice = applyAnthropicCacheControl(once, { nativeAnthropic });
      expect(twice).toEqual(once);
      expect(countCacheBreakpoints(twice)).toBe(4);
    }
  });

  it("moves the rolling window when a message is appended to an already-marked conversation", () => {
    const marked = applyAnthropicCacheControl(conversation());
    const next = applyAnthropicCacheControl([...marked, { role: "assistant", content: "Linter is clean." }]);
    expect(markedIndexes(next)).toEqual([0, 4, 5, 6]);
    expect(countCacheBreakpoints(next)).toBe(4);
  });

  it("replaces a 5m marker by a 1h marker when re-applied with ttl 1h", () => {
    const out = applyAnthropicCacheControl(applyAnthropicCacheControl(conversation()), { ttl: "1h" });
    const markers = JSON.stringify(out).match(/"cache_control":\{[^}]*\}/g) ?? [];
    expect(markers).toHaveLength(4);
    for (const m of markers) expect(m).toBe('"cache_control":{"type":"ephemeral","ttl":"1h"}');
  });

  it("never mutates its input (deep-frozen input, unchanged snapshot)", () => {
    const input = deepFreeze(conversation());
    const snapshot = structuredClone(input);
    for (const nativeAnthropic of [true, false]) applyAnthropicCacheControl(input, { nativeAnthropic });
    expect(input).toEqual(snapshot);
  });

  it("does not share marker objects between messages", () => {
    const out = applyAnthropicCacheControl(conversation(), { nativeAnthropic: true });
    const tool = out[3] as ChatMessage;
    const assistant = out[4]?.content as Array<{ cache_control?: object }>;
    expect(tool.cache_control).not.toBe(assistant[0]?.cache_control);
  });

  it("holds for arbitrary conversations: ≤ 4 markers, idempotent, input untouched", () => {
    const part = fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.string() }),
      fc.record({ type: fc.constant("text"), text: fc.string(), cache_control: fc.constant({ type: "ephemeral" }) }),
    );
    const message = fc.record({
      role: fc.constantFrom("system", "user", "assistant", "tool"),
      content: fc.oneof(fc.constant(null), fc.string({ maxLength: 5 }), fc.array(part, { maxLength: 3 })),
    }) as fc.Arbitrary<ChatMessage>;
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.boolean(), fc.constantFrom("5m" as const, "1h" as const), (messages, nativeAnthropic, ttl) => {
        const snapshot = structuredClone(messages);
        const once = applyAnthropicCacheControl(messages, { nativeAnthropic, ttl });
        expect(messages).toEqual(snapshot);
        expect(countCacheBreakpoints(once)).toBeLessThanOrEqual(4);
        expect(applyAnthropicCacheControl(once, { nativeAnthropic, ttl })).toEqual(once);
      }),
    );
  });
});

describe("stripCacheControl and countCacheBreakpoints", () => {
  it("removes top-level and part-level markers without touching anything else", () => {
    const marked = applyAnthropicCacheControl(conversation(), { nativeAnthropic: true });
    const stripped = stripCacheControl(marked);
    expect(countCacheBreakpoints(stripped)).toBe(0);
    expect(stripped[3]).toEqual({ role: "tool", tool_call_id: "c1", content: "1 failed" });
    expect(stripped[5]).toEqual({ role: "user", content: [{ type: "text", text: "Also run the linter." }] });
  });

  it("returns unmarked messages as they are", () => {
    const input = conversation();
    const stripped = stripCacheControl(input);
    expect(stripped).not.toBe(input);
    stripped.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it("counts markers at the top level and inside parts", () => {
    const messages = [
      { role: "tool", tool_call_id: "a", content: "x", cache_control: { type: "ephemeral" } },
      { role: "user", content: [{ type: "text", text: "a", cache_control: { type: "ephemeral" } }, { type: "text", text: "b", cache_control: { type: "ephemeral", ttl: "1h" } }] },
    ] as ChatMessage[];
    expect(countCacheBreakpoints(messages)).toBe(3);
  });
});
