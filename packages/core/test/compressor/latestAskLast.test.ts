import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assembleCompressed } from "../../src/compressor/assemble.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { messageText } from "../../src/compressor/content.js";
import { SUMMARY_END_MARKER } from "../../src/messages/compactionMarker.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { roughCounter } from "./fixtures.js";
import { LATEST_ASKS } from "../../../../test/support/latestAsks.js";

const askArb = fc.constantFrom(...LATEST_ASKS);

interface Shape {
  withSystem: boolean;
  firstAnswered: boolean;
  turns: number[];
  ask: ChatMessage["content"];
  stepsAfterAsk: number;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  withSystem: fc.boolean(),
  firstAnswered: fc.boolean(),
  turns: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 8 }),
  ask: askArb,
  stepsAfterAsk: fc.integer({ min: 0, max: 6 }),
});

const settingsArb = fc.record({
  protect_first_n: fc.integer({ min: 0, max: 5 }),
  protect_last_n: fc.integer({ min: 1, max: 8 }),
  min_tail_user_messages: fc.integer({ min: 0, max: 2 }),
  threshold_tokens: fc.integer({ min: 500, max: 20_000 }),
});

/**
 * A conversation ending with the latest ask (then, maybe, the agent's steps on it, which say what they do:
 * the last visible reply then follows the ask, so the tail may start at the ask, right after the middle).
 */
function build(shape: Shape): { messages: ChatMessage[]; ask: ChatMessage } {
  let seq = 0;
  const steps = (n: number, label: string): ChatMessage[] =>
    Array.from({ length: n }, () => {
      const id = `call_${++seq}`;
      return [
        { role: "assistant", content: label === "after" ? `Reading step ${seq}.` : null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${label}_${seq}.py` }) } }] } as ChatMessage,
        { role: "tool", tool_call_id: id, content: `contents of src/${label}_${seq}.py\n`.repeat(30) } as ChatMessage,
      ];
    }).flat();
  const m: ChatMessage[] = [];
  if (shape.withSystem) m.push({ role: "system", content: "You are a careful agent." });
  m.push({ role: "user", content: "Set up the project." });
  if (shape.firstAnswered) m.push({ role: "assistant", content: "Done: the project is set up." });
  shape.turns.forEach((n, t) => {
    if (m.at(-1)?.role !== "user") m.push({ role: "user", content: `Task ${t}: fix module ${t}.` });
    m.push(...steps(n, `t${t}`), { role: "assistant", content: `Fixed module ${t}.` });
  });
  if (m.at(-1)?.role === "user") m.push({ role: "assistant", content: "Ready." });
  const ask: ChatMessage = { role: "user", content: shape.ask };
  m.push(ask, ...steps(shape.stepsAfterAsk, "after"));
  return { messages: m, ask };
}

/** The ask's own content is the last thing in `carrier`: its parts end the list, its text ends the text, after any summary's end marker. */
function expectAskLast(carrier: ChatMessage, ask: ChatMessage): void {
  const own = ask.content;
  if (Array.isArray(own)) {
    expect(Array.isArray(carrier.content)).toBe(true);
    const parts = carrier.content as unknown[];
    expect(parts.slice(parts.length - own.length)).toEqual(own);
    // whatever was put before them (the summary) holds the end marker, never after them
    expect(JSON.stringify(parts.slice(parts.length - own.length))).not.toContain(SUMMARY_END_MARKER);
    return;
  }
  const text = messageText(carrier);
  const ownText = typeof own === "string" ? own : "";
  expect(text.endsWith(ownText)).toBe(true);
  const marker = text.lastIndexOf(SUMMARY_END_MARKER);
  if (marker >= 0) expect(marker + SUMMARY_END_MARKER.length).toBeLessThanOrEqual(text.length - ownText.length);
}

describe("the latest ask stays last in its message", () => {
  it("holds for every compressed output of the built-in compressor, for text, empty-text and image-only asks", async () => {
    let merged = 0;
    await fc.assert(
      fc.asyncProperty(shapeArb, settingsArb, async (shape, settings) => {
        const { messages, ask } = build(shape);
        fc.pre(validateConversation(messages).length === 0);
        const engine = new ContextCompressor({ compression: settings, tokenCounter: roughCounter });
        const out = await engine.compress(messages, { force: true });
        expect(validateConversation(out)).toEqual([]);
        // the ask itself (kept as it was), or the copy a summary was merged into
        const carrier = out.includes(ask) ? ask : out.findLast((m) => m.role === "user" && messageText(m).includes(SUMMARY_END_MARKER));
        expect(carrier).toBeDefined();
        if (carrier !== ask) merged++;
        expectAskLast(carrier!, ask);
      }),
      { numRuns: 300 },
    );
    // the property met the case it is about: summaries merged into the ask
    expect(merged).toBeGreaterThan(0);
  });

  it("holds for the summary merged into an ask right after the head, which collides on both sides", () => {
    fc.assert(
      fc.property(askArb, (content) => {
        const ask: ChatMessage = { role: "user", content };
        const out = assembleCompressed({
          head: [{ role: "system", content: "s" }, { role: "user", content: "Help me" }, { role: "assistant", content: "Sure." }],
          summary: "## Goal\n- fix the layout",
          tail: [ask, { role: "assistant", content: "On it." }],
          isFirstCompaction: false,
        });
        expect(out.mergedIntoTail).toBe(true);
        expect(messageText(out.messages[3]!)).toContain(SUMMARY_END_MARKER);
        expectAskLast(out.messages[3]!, ask);
      }),
    );
  });
});
