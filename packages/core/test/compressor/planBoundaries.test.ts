import { describe, expect, it } from "vitest";
import { planBoundaries, type BoundaryOptions } from "../../src/compressor/planBoundaries.js";
import { formatSummaryContent } from "../../src/compressor/summaryBody.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { estimateMessageTokensRough } from "../../src/tokens/rough.js";
import { agentRounds, assistant, fastApiConversation, longOutput, system, toolTurn, user } from "./fixtures.js";

const base: BoundaryOptions = {
  protectFirstN: 3,
  protectLastN: 20,
  tailTokenBudget: 20_000,
  minTailUserMessages: 1,
  isFirstCompaction: true,
  countTokens: (m) => estimateMessageTokensRough(m),
};

describe("phase 2: boundaries", () => {
  it("pulls the head back so the first tool call is not separated from its result (the head keeps [0] and [1])", () => {
    const plan = planBoundaries(fastApiConversation(), { ...base, protectLastN: 5, tailTokenBudget: 1_500 });
    expect(plan.headEnd).toBe(2);
  });

  it("walks the tail back by token budget and keeps the FastAPI example's tail from 'Fix the failing tests'", () => {
    const messages = fastApiConversation();
    const plan = planBoundaries(messages, { ...base, protectLastN: 5, tailTokenBudget: 1_500 });
    expect(messages[plan.tailStart]!.content).toBe("Fix the failing tests");
  });

  it("keeps at least protect_last_n messages when the budget protects fewer", () => {
    const messages = [system("s"), ...agentRounds(20, 8_000)];
    const plan = planBoundaries(messages, { ...base, tailTokenBudget: 100 });
    expect(messages.length - plan.tailStart).toBeGreaterThanOrEqual(20);
  });

  it("falls back to a floor of 3 when protect_last_n would leave nothing to compress", () => {
    const messages = [system("s"), ...agentRounds(4, 8_000)]; // 13 messages
    const plan = planBoundaries(messages, { ...base, isFirstCompaction: false, tailTokenBudget: 100 });
    expect(plan.headEnd).toBe(1);
    // the floor of 3 keeps [call, result, reply]; the last user message anchors one more
    expect(messages.length - plan.tailStart).toBe(4);
    expect(plan.tailStart).toBeGreaterThan(plan.headEnd);
  });

  it("keeps only the system prompt as head after the first compaction", () => {
    const messages: ChatMessage[] = [system("s"), { role: "user", content: formatSummaryContent("## Goal\n- x") }, assistant("ok"), ...agentRounds(10)];
    const plan = planBoundaries(messages, { ...base, isFirstCompaction: false, protectLastN: 3, tailTokenBudget: 10 });
    expect(plan.headEnd).toBe(1);
  });

  it("never starts the tail with a tool result", () => {
    const messages: ChatMessage[] = [system("s"), user("go")];
    for (let i = 0; i < 12; i++) messages.push(...toolTurn("terminal", { command: `step ${i}` }, longOutput(`step ${i}`, 20)));
    messages.push(assistant("done"), user("next"));
    for (let budget = 0; budget < 8_000; budget += 97) {
      const plan = planBoundaries(messages, { ...base, protectLastN: 3, minTailUserMessages: 0, tailTokenBudget: budget });
      expect(messages[plan.tailStart]?.role).not.toBe("tool");
      expect(messages[plan.headEnd]?.role).not.toBe("tool");
    }
  });

  it("keeps the last real user message and the last visible assistant reply in the tail", () => {
    const messages: ChatMessage[] = [system("s"), user("first"), assistant("ok"), user("the real ask"), assistant("Working on it, I'll run a few commands.")];
    for (let i = 0; i < 10; i++) messages.push(...toolTurn("terminal", { command: `cmd ${i}` }, longOutput(`cmd ${i}`, 100)));
    const plan = planBoundaries(messages, { ...base, protectLastN: 3, tailTokenBudget: 10 });
    expect(plan.tailStart).toBe(3);
  });

  it("does not count a summary message as a real user message", () => {
    const messages: ChatMessage[] = [system("s"), user("old ask"), assistant("old answer"), { role: "user", content: formatSummaryContent("## Goal\n- g") }];
    for (let i = 0; i < 6; i++) messages.push(...toolTurn("terminal", { command: `cmd ${i}` }, longOutput(`cmd ${i}`, 100)));
    const plan = planBoundaries(messages, { ...base, isFirstCompaction: false, protectLastN: 3, tailTokenBudget: 10 });
    expect(plan.tailStart).toBe(1);
  });

  it("guarantees min_tail_user_messages real user messages in the tail", () => {
    const messages = [system("s"), ...agentRounds(10, 4_000)];
    const plan = planBoundaries(messages, { ...base, protectLastN: 3, tailTokenBudget: 10, minTailUserMessages: 3 });
    const usersInTail = messages.slice(plan.tailStart).filter((m) => m.role === "user").length;
    expect(usersInTail).toBe(3);
  });

  it("keeps an anchor that would leave nothing to compress at the end of the head when asked", () => {
    const messages: ChatMessage[] = [system("s"), user("the only ask")];
    for (let i = 0; i < 10; i++) messages.push(...toolTurn("terminal", { command: `cmd ${i}` }, longOutput(`cmd ${i}`, 100)));
    const options = { ...base, isFirstCompaction: false, protectLastN: 3, tailTokenBudget: 10 };
    expect(planBoundaries(messages, options)).toEqual({ headEnd: 1, tailStart: 1 });
    const plan = planBoundaries(messages, { ...options, keepStallingAnchorsInHead: true });
    expect(plan.headEnd).toBe(2);
    expect(plan.tailStart).toBe(messages.length - 4);
    expect(messages[plan.tailStart]!.role).toBe("assistant");
  });

  it("does not treat a summary merged into a tool-calling assistant as the last visible reply", () => {
    const [merged, mergedResult] = toolTurn("terminal", { command: "make" }, "ok");
    const messages: ChatMessage[] = [system("s"), user("ask"), { ...merged!, content: formatSummaryContent("## Goal\n- g") }, mergedResult!];
    for (let i = 0; i < 6; i++) messages.push(...toolTurn("terminal", { command: `cmd ${i}` }, longOutput(`cmd ${i}`, 100)));
    const plan = planBoundaries(messages, { ...base, protectFirstN: 2, protectLastN: 3, tailTokenBudget: 10 });
    expect(plan.headEnd).toBe(2);
    expect(plan.tailStart).toBe(messages.length - 4);
  });

  it("counts the Codex replay items an assistant carries toward the tail budget, like the other replay fields", () => {
    const encrypted = (turn: number) => [{ type: "reasoning", id: `rs_${turn}`, encrypted_content: `gAAAA${"x".repeat(4_000)}` }];
    const messages: ChatMessage[] = [system("s"), ...agentRounds(6, 8_000)];
    for (let turn = 0; turn < 12; turn++) {
      messages.push(user(`ask ${turn}`), { role: "assistant", content: `done ${turn}`, codex_reasoning_items: encrypted(turn), codex_message_items: [{ type: "message", id: `msg_${turn}` }] });
    }
    const plan = planBoundaries(messages, { ...base, protectLastN: 3, tailTokenBudget: 3_000 });
    // each assistant weighs about 1,000 tokens of replay items: a 3,000-token budget protects the last few turns, not all twelve
    expect(messages.length - plan.tailStart).toBeLessThanOrEqual(6);
  });
});
