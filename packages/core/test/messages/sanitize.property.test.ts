import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage, ToolCall } from "../../src/messages/schema.js";
import { isEmptyAssistant, sanitizeToolPairs, STUB_TOOL_RESULT } from "../../src/messages/toolPairs.js";
import { validateConversation, type ConversationProblemCode } from "../../src/messages/validate.js";

/** Problems sanitizing must always remove. */
const PAIRING_CODES: ConversationProblemCode[] = [
  "orphan_tool_result",
  "missing_tool_result",
  "misplaced_tool_result",
  "duplicate_tool_result",
  "tool_result_before_call",
  "duplicate_tool_call_id",
  "empty_assistant",
];

/** One assistant step: how many calls it makes (0 = a text reply) and whether calls carry `call_id`. */
const stepArb = fc.record({ callCount: fc.integer({ min: 0, max: 3 }), responsesIds: fc.boolean(), withText: fc.boolean() });
const turnArb = fc.array(stepArb, { minLength: 0, maxLength: 4 });
const conversationShapeArb = fc.record({ withSystem: fc.boolean(), turns: fc.array(turnArb, { minLength: 1, maxLength: 6 }) });

interface ConversationShape {
  withSystem: boolean;
  turns: { callCount: number; responsesIds: boolean; withText: boolean }[][];
}

/** Builds a valid conversation (unique call ids, every result right after its call) from a shape. */
function buildConversation(shape: ConversationShape): ChatMessage[] {
  const messages: ChatMessage[] = shape.withSystem ? [{ role: "system", content: "You are helpful." }] : [];
  let next = 0;
  shape.turns.forEach((steps, turn) => {
    messages.push({ role: "user", content: `request ${turn}` });
    for (const step of steps) {
      if (step.callCount === 0) {
        messages.push({ role: "assistant", content: `reply ${next++}` });
        continue;
      }
      const calls: ToolCall[] = [];
      for (let c = 0; c < step.callCount; c += 1) {
        const n = next++;
        calls.push({
          id: step.responsesIds ? `fc_${n}` : `call_${n}`,
          type: "function",
          function: { name: "terminal", arguments: `{"n":${n}}` },
          ...(step.responsesIds ? { call_id: `call_${n}` } : {}),
        });
      }
      messages.push({ role: "assistant", content: step.withText ? "working" : null, tool_calls: calls });
      for (const c of calls) messages.push({ role: "tool", tool_call_id: c.call_id ?? c.id, content: `result ${c.id}` });
    }
  });
  return messages;
}

const conversationArb = conversationShapeArb.map(buildConversation);

function pairingProblems(messages: ChatMessage[]) {
  return validateConversation(messages).filter((p) => PAIRING_CODES.includes(p.code));
}

/** Call keys whose real result was replaced by a stub although `input` still held a result for them. */
function stubbedDespiteResult(input: ChatMessage[], output: ChatMessage[]): string[] {
  const answered = new Set(input.filter((m) => m.role === "tool").map((m) => m.tool_call_id));
  return output.filter((m) => m.role === "tool" && m.content === STUB_TOOL_RESULT && answered.has(m.tool_call_id)).map((m) => m.tool_call_id ?? "");
}

/** The messages sanitizing must keep, in order: everything but tool results and empty assistants. */
const kept = (messages: ChatMessage[]) => messages.filter((m) => m.role !== "tool" && !isEmptyAssistant(m));

describe("sanitizeToolPairs (properties)", () => {
  it("leaves generated valid conversations untouched, object for object", () => {
    fc.assert(
      fc.property(conversationArb, (messages) => {
        expect(validateConversation(messages)).toEqual([]);
        const output = sanitizeToolPairs(messages);
        expect(output).toHaveLength(messages.length);
        output.forEach((m, i) => expect(m).toBe(messages[i]));
      }),
    );
  });

  it("repairs every pairing problem after an arbitrary subset of messages is removed", () => {
    const arb = conversationArb.chain((messages) =>
      fc.tuple(fc.constant(messages), fc.array(fc.boolean(), { minLength: messages.length, maxLength: messages.length })),
    );
    fc.assert(
      fc.property(arb, ([messages, keep]) => {
        const damaged = messages.filter((_, i) => keep[i]);
        const repaired = sanitizeToolPairs(damaged);
        expect(pairingProblems(repaired)).toEqual([]);
        expect(kept(repaired)).toEqual(kept(damaged));
        expect(stubbedDespiteResult(damaged, repaired)).toEqual([]);
        expect(sanitizeToolPairs(repaired)).toEqual(repaired);
      }),
      { numRuns: 300 },
    );
  });

  it("repairs every pairing problem after messages are removed, moved and tool results duplicated", () => {
    const editArb = fc.record({ kind: fc.constantFrom("remove", "move", "duplicate"), from: fc.nat(), to: fc.nat() });
    const arb = fc.tuple(conversationArb, fc.array(editArb, { maxLength: 8 }));
    fc.assert(
      fc.property(arb, ([messages, edits]) => {
        const damaged = [...messages];
        for (const edit of edits) {
          if (damaged.length === 0) break;
          const from = edit.from % damaged.length;
          const to = edit.to % (damaged.length + 1);
          const [taken] = edit.kind === "duplicate" ? [damaged[from]] : damaged.splice(from, 1);
          // Duplicating an assistant would duplicate its call ids, which sanitizing does not rename.
          if (taken === undefined || edit.kind === "remove" || (edit.kind === "duplicate" && taken.role !== "tool")) continue;
          damaged.splice(Math.min(to, damaged.length), 0, taken);
        }
        const input = structuredClone(damaged);
        const repaired = sanitizeToolPairs(damaged);
        expect(damaged).toEqual(input);
        expect(pairingProblems(repaired)).toEqual([]);
        expect(kept(repaired)).toEqual(kept(damaged));
        expect(stubbedDespiteResult(damaged, repaired)).toEqual([]);
        expect(sanitizeToolPairs(repaired)).toEqual(repaired);
      }),
      { numRuns: 300 },
    );
  });
});
