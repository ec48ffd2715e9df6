import { describe, expect, it } from "vitest";
import { indexConversation } from "../../src/compressor/conversationIndex.js";
import { knownMessageTokens } from "../../src/compressor/messageTokens.js";
import { planCompaction, type PlanSettings } from "../../src/compressor/planCompaction.js";
import { prepareCompaction } from "../../src/compressor/prepareCompaction.js";
import { PRUNED_TOOL_PLACEHOLDER } from "../../src/messages/prunedOutput.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { longOutput, system, toolTurn, user } from "./fixtures.js";

const settings: PlanSettings = { protectFirstN: 1, protectLastN: 4, minTailUserMessages: 1, tailTokenBudget: 1_000, maxSummaryTokens: 2_000, thresholdTokens: 10_000 };

/** The only ask, then an agent run of `steps` tool turns whose outputs are `output(step)`. */
function agentRun(steps: number, output: (step: number) => string): ChatMessage[] {
  const messages = [system("s"), user("port the parser to Rust")];
  for (let step = 0; step < steps; step++) messages.push(...toolTurn("terminal", { command: `cargo build ${step}` }, output(step)));
  return messages;
}

/** Counts that keep the whole run above the threshold whatever is cleared. */
const heavyCounts = (messages: ChatMessage[]) => messages.map((m) => (m.role === "tool" ? 2_000 : 10));
const heavy = (messages: ChatMessage[]) => knownMessageTokens(heavyCounts(messages));

describe("planning a compaction before anything is pruned", () => {
  it("clears the outputs inside the tail when that frees something, keeping the only ask at the head of the tail", () => {
    const messages = agentRun(6, (step) => longOutput(`build ${step}`, 20));
    const planned = planCompaction(indexConversation(messages), heavy(messages), settings);
    expect(planned.plan.tailStart).toBe(1);
    expect(planned.clearTail).toBe(true);
  });

  it("keeps the only ask in the head instead when the tail's older outputs are already cleared", () => {
    const messages = agentRun(6, (step) => `${PRUNED_TOOL_PLACEHOLDER} [terminal] ran \`cargo build ${step}\` -> 20 lines output`);
    const planned = planCompaction(indexConversation(messages), heavy(messages), settings);
    expect(planned.plan.headEnd).toBe(2);
    expect(planned.plan.tailStart).toBeGreaterThan(2);
  });

  it("prunes by the plan it chose: outputs between head and tail, and inside the tail all but the newest group", () => {
    const messages = agentRun(6, (step) => longOutput(`build ${step}`, 20));
    const prepared = prepareCompaction(messages, heavyCounts(messages), settings);
    const cleared = prepared.pruned.map((m) => m.role === "tool" && String(m.content).startsWith(PRUNED_TOOL_PLACEHOLDER));
    expect(prepared.tailToolOutputsCleared).toBe(5);
    expect(cleared.filter(Boolean)).toHaveLength(5);
    expect(cleared.at(-1)).toBe(false);
  });
});
