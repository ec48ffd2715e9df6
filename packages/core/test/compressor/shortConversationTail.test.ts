import { describe, expect, it } from "vitest";
import { planBoundaries, type BoundaryOptions } from "../../src/compressor/planBoundaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { estimateMessageTokensRough } from "../../src/tokens/rough.js";
import { agentRounds, system } from "./fixtures.js";

const base: BoundaryOptions = {
  protectFirstN: 3,
  protectLastN: 20,
  tailTokenBudget: 20_000,
  minTailUserMessages: 1,
  isFirstCompaction: false,
  countTokens: (m) => estimateMessageTokensRough(m),
};

/** How many messages, walked back from the end, fit in `budget` tokens. */
function messagesWithin(messages: readonly ChatMessage[], budget: number): number {
  let used = 0;
  let count = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += estimateMessageTokensRough(messages[i]!);
    if (used > budget) break;
    count++;
  }
  return count;
}

describe("phase 2: a conversation shorter than protect_last_n", () => {
  it("keeps the tail the token budget covers instead of shrinking it to 3", () => {
    const messages = [system("s"), ...agentRounds(5, 400)]; // 16 messages, fewer than protect_last_n = 20
    const budget = messages.slice(-6).reduce((sum, m) => sum + estimateMessageTokensRough(m), 0); // the last 6 messages
    const covered = messagesWithin(messages, budget);
    expect(covered).toBeGreaterThan(4);
    const plan = planBoundaries(messages, { ...base, tailTokenBudget: budget });
    expect(messages.length - plan.tailStart).toBeGreaterThanOrEqual(covered);
    expect(plan.tailStart - plan.headEnd).toBeGreaterThanOrEqual(2);
  });
});
