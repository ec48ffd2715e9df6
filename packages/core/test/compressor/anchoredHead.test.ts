import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { messageText } from "../../src/compressor/content.js";
import { withCompactionNote } from "../../src/compressor/assemble.js";
import { parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import { formatSummaryContent } from "../../src/compressor/summaryBody.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { longOutput, roughCounter, system, toolTurn, user } from "./fixtures.js";

const ASK = "Build the inventory service and keep it listening on port 8123";

/** `count` terminal calls with short outputs (under the 200-char clearing limit), labelled `label`. */
function agentSteps(label: string, count: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < count; i++) out.push(...toolTurn("terminal", { command: `make ${label}-${i}` }, `built ${label}-${i}: ok`));
  return out;
}

function summaries(messages: ChatMessage[]) {
  return messages.map(parseSummaryMessage).filter((parsed) => parsed !== undefined);
}

describe("progress when an anchor pins the whole conversation into the tail", () => {
  it("summarizes the agent's work after the only user ask on a later compaction, keeping the ask verbatim", async () => {
    const engine = new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 20_000 }, tokenCounter: roughCounter });
    const first = await engine.compress([system("You are a coding agent."), user(ASK), ...agentSteps("first", 30)], { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);

    const grown = [...first, ...agentSteps("second", 30)];
    const second = await engine.compress(grown, { force: true });
    const report = engine.lastCompression!;
    expect(report.aborted).toBe(false);
    expect(report.droppedMessages).toBeGreaterThan(30);
    expect(second.length).toBeLessThan(12);
    expect(validateConversation(second)).toEqual([]);
    // the ask stays verbatim, right after the system prompt, and appears once
    expect(second[1]).toEqual(user(ASK));
    expect(second.filter((m) => m.role === "user" && messageText(m).includes(ASK))).toHaveLength(1);
    // one summary, updated from the previous one: work from both rounds is in it
    const found = summaries(second);
    expect(found).toHaveLength(1);
    expect(found[0]!.summary).toMatch(/make first-0/);
    expect(found[0]!.summary).toMatch(/make second-0/);
    expect(second.at(-1)).toBe(grown.at(-1));
  });

  it("folds a summary merged into the ask into the new summary and keeps the ask's own text", async () => {
    const settings = { compression: { protect_last_n: 4, threshold_tokens: 20_000 }, tokenCounter: roughCounter };
    const previous = "## Goal\n- Set up the repo with pnpm\n## Progress\n### Done\n- ran `make setup-0`";
    const merged: ChatMessage = { role: "user", content: `${formatSummaryContent(previous)}\n\n${ASK}` };
    const twice = [withCompactionNote(system("s")), merged, ...agentSteps("build", 30)];
    const engine = new ContextCompressor(settings);
    const out = await engine.compress([...twice, ...agentSteps("deploy", 30)], { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(engine.lastCompression!.droppedMessages).toBeGreaterThan(50);
    expect(validateConversation(out)).toEqual([]);
    expect(out[1]).toEqual(user(ASK));
    const found = summaries(out);
    expect(found).toHaveLength(1);
    for (const step of ["make setup-0", "make build-0", "make deploy-0"]) expect(found[0]!.summary).toContain(step);
  });

  it("keeps one summary when the previous one sits inside the protected tail, folding it into the new one", async () => {
    const [call, result] = toolTurn("terminal", { command: "make setup-0" }, "built setup-0: ok");
    const previous = "## Goal\n- Set up the repo\n## Progress\n### Done\n- ran `make setup-0`";
    const messages: ChatMessage[] = [
      user(`Set up the repo. Notes:\n${longOutput("setup notes", 60)}`),
      user(ASK),
      { ...call!, content: formatSummaryContent(previous) },
      result!,
      ...agentSteps("build", 2),
    ];
    const engine = new ContextCompressor({ compression: { protect_first_n: 2, protect_last_n: 1, min_tail_user_messages: 0, threshold_tokens: 3_000 }, tokenCounter: roughCounter });
    const out = await engine.compress(messages, { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(validateConversation(out)).toEqual([]);
    const found = summaries(out);
    expect(found).toHaveLength(1);
    expect(found[0]!.summary).toContain("make setup-0");
    expect(out.some((m) => m.role === "user" && messageText(m).includes(ASK))).toBe(true);
    // the call that carried the old summary keeps its tool call and result
    expect(out.find((m) => m.tool_calls?.[0]?.id === call!.tool_calls![0]!.id)?.content).toBeNull();
    expect(out.some((m) => m === result)).toBe(true);
  });
});

