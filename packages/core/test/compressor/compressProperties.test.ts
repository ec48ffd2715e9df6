import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { messageText } from "../../src/compressor/content.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { roughCounter } from "./fixtures.js";

interface StepShape {
  calls: number;
  outputChars: number;
  useCallId: boolean;
}
interface TurnShape {
  steps: StepShape[];
  finalText: boolean;
}

const stepArb: fc.Arbitrary<StepShape> = fc.record({ calls: fc.integer({ min: 1, max: 3 }), outputChars: fc.integer({ min: 0, max: 4_000 }), useCallId: fc.boolean() });
const turnArb: fc.Arbitrary<TurnShape> = fc.record({ steps: fc.array(stepArb, { maxLength: 4 }), finalText: fc.boolean() });
interface ConversationShape {
  withSystem: boolean;
  turns: TurnShape[];
  endsWithUser: boolean;
}
const conversationArb: fc.Arbitrary<ConversationShape> = fc.record({
  withSystem: fc.boolean(),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 14 }),
  endsWithUser: fc.boolean(),
});
const settingsArb = fc.record({
  protect_first_n: fc.integer({ min: 0, max: 5 }),
  protect_last_n: fc.integer({ min: 1, max: 25 }),
  min_tail_user_messages: fc.integer({ min: 0, max: 3 }),
  threshold_tokens: fc.integer({ min: 500, max: 60_000 }),
  target_ratio: fc.double({ min: 0.1, max: 0.8, noNaN: true }),
});

function build(shape: ConversationShape): ChatMessage[] {
  let seq = 0;
  const m: ChatMessage[] = [];
  if (shape.withSystem) m.push({ role: "system", content: "You are a careful agent." });
  shape.turns.forEach((turn, t) => {
    m.push({ role: "user", content: `user ask number ${t}` });
    turn.steps.forEach((step, s) => {
      const calls = Array.from({ length: step.calls }, () => {
        seq++;
        return step.useCallId
          ? { id: `fc_${seq}`, call_id: `call_${seq}`, type: "function" as const, function: { name: "terminal", arguments: JSON.stringify({ command: `cmd ${t}.${s}.${seq}` }) } }
          : { id: `call_${seq}`, type: "function" as const, function: { name: "read_file", arguments: JSON.stringify({ path: `src/f${seq}.ts` }) } };
      });
      m.push({ role: "assistant", content: s === 0 ? null : `step ${s}`, tool_calls: calls });
      for (const c of calls) m.push({ role: "tool", tool_call_id: c.call_id ?? c.id, content: `out ${c.id} `.padEnd(step.outputChars, "x") });
    });
    if (turn.finalText || turn.steps.length === 0) m.push({ role: "assistant", content: `answer to ask ${t}` });
  });
  if (shape.endsWithUser) m.push({ role: "user", content: "the final ask" });
  return m;
}

function lastUserText(messages: ChatMessage[]): string {
  return messageText([...messages].reverse().find((m) => m.role === "user")!);
}

describe("compress() invariants", () => {
  it("turns any valid conversation into a valid one that keeps the last user message, without mutating it", async () => {
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb, settingsArb, async (shape, settings) => {
        const input = build(shape);
        fc.pre(validateConversation(input).length === 0);
        const snapshot = JSON.stringify(input);
        const engine = new ContextCompressor({ compression: settings, tokenCounter: roughCounter });
        const out = await engine.compress(input, { force: true });
        expect(JSON.stringify(input)).toBe(snapshot);
        expect(validateConversation(out)).toEqual([]);
        if (validateConversation(input, { strictAlternation: true }).length === 0) {
          expect(validateConversation(out, { strictAlternation: true })).toEqual([]);
        }
        if (!engine.lastCompression!.aborted) compacted++;
        const ask = lastUserText(input);
        expect(out.some((m) => m.role === "user" && messageText(m).includes(ask))).toBe(true);

        const next: ChatMessage[] = out.at(-1)?.role === "user" ? [...out, { role: "assistant", content: "reply" }, { role: "user", content: "one more ask" }] : [...out, { role: "user", content: "one more ask" }];
        const again = await engine.compress(next, { force: true });
        expect(validateConversation(again)).toEqual([]);
        expect(again.some((m) => m.role === "user" && messageText(m).includes("one more ask"))).toBe(true);
      }),
      { numRuns: 250 },
    );
    expect(compacted).toBeGreaterThan(100);
  });
});
