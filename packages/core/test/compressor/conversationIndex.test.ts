import { describe, expect, it } from "vitest";
import { hasTurnsBetween, indexConversation, scanConversation, turnsBetween } from "../../src/compressor/conversationIndex.js";
import { COMPACTION_SYSTEM_NOTE, parseSummaryMessage, turnsForSummary } from "../../src/compressor/earlierSummaries.js";
import { formatSummaryContent } from "../../src/compressor/summaryBody.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { alignBoundaryBackward, alignBoundaryForward } from "../../src/messages/toolPairs.js";
import { assistant, call, result, system, toolTurn, user } from "./fixtures.js";

const summary = (body: string): string => formatSummaryContent(`## Goal\n- ${body}`);

/** A conversation with two earlier summaries (one pure, one merged into a reply), tool groups and an orphan result. */
function compacted(): ChatMessage[] {
  const twoCalls = { role: "assistant", content: null, tool_calls: [call("read_file", { path: "a" }).tool_calls![0]!, call("read_file", { path: "b" }).tool_calls![0]!] } as ChatMessage;
  return [
    system("s"),
    user(summary("first")), // 1: pure summary in a user message
    assistant("Understood."), // 2
    user("fix the build"), // 3
    twoCalls, // 4
    result(twoCalls, "a"), // 5
    { role: "tool", tool_call_id: twoCalls.tool_calls![1]!.id, content: "b" }, // 6
    { role: "tool", tool_call_id: "orphan", content: "stray" }, // 7: no call of its own, but in 4's run
    user("and the tests"), // 8
    ...toolTurn("terminal", { command: "pytest" }, "ok"), // 9, 10
    assistant(`Looked at it.\n\n${summary("second")}`), // 11: a reply with a summary merged after its own text
    assistant(summary("only")), // 12: pure summary in an assistant message
  ];
}

describe("the conversation index (the compressor's one scan)", () => {
  it("marks each earlier summary, pure or merged into a turn, and points at the newest", () => {
    const messages = compacted();
    const index = indexConversation(messages);
    expect(index.summaries.map((s, i) => (s === undefined ? undefined : i)).filter((i) => i !== undefined)).toEqual([1, 11, 12]);
    expect(index.summaries[11]).toEqual(parseSummaryMessage(messages[11]!));
    expect(index.latestSummary).toBe(12);
    expect(index.isFirstCompaction).toBe(false);
  });

  it("counts a conversation as never compacted only without a summary and without the system note", () => {
    expect(indexConversation([system("s"), user("hi")]).isFirstCompaction).toBe(true);
    expect(indexConversation([system(`s\n\n${COMPACTION_SYSTEM_NOTE}`), user("hi")]).isFirstCompaction).toBe(false);
  });

  it("lists the real user turns, leaving out a user message that is only a summary", () => {
    expect(indexConversation(compacted()).realUsers).toEqual([3, 8]);
  });

  it("finds the last reply with visible text of its own, not one that only carries a summary", () => {
    expect(indexConversation(compacted()).lastReply).toBe(11);
    expect(indexConversation([user("hi"), call("terminal", { command: "ls" })]).lastReply).toBe(-1);
  });

  it("answers for every position what aligning a boundary backward and forward answers", () => {
    const messages = [{ role: "tool", tool_call_id: "x", content: "leading orphan" } as ChatMessage, ...compacted()];
    const index = indexConversation(messages);
    for (let i = 0; i <= messages.length; i++) {
      expect(index.groupStart[i]).toBe(alignBoundaryBackward(messages, i));
      expect(index.runEnd[i]).toBe(alignBoundaryForward(messages, i));
    }
    expect(index.callers).toEqual([5, 10]);
    expect(index.results).toEqual([0, 6, 7, 8, 11]);
  });

  it("counts the turns between two positions without the pure summaries", () => {
    const index = indexConversation(compacted());
    expect(hasTurnsBetween(index, 1, 2)).toBe(false);
    expect(hasTurnsBetween(index, 12, 13)).toBe(false);
    expect(hasTurnsBetween(index, 11, 13)).toBe(true);
    expect(hasTurnsBetween(index, 5, 5)).toBe(false);
  });

  it("gives the turns a summarizer sees, as turnsForSummary does", () => {
    const messages = compacted();
    const index = indexConversation(messages);
    expect(turnsBetween(index, messages, 0, messages.length)).toEqual(turnsForSummary(messages));
    expect(turnsBetween(index, messages, 9, 13)).toEqual(turnsForSummary(messages.slice(9, 13)));
  });

  it("keeps a trailing group of calls still running apart, and indexes only the settled part", () => {
    const running = call("terminal", { command: "make" });
    const messages = [system("s"), user("build it"), assistant("On it."), running];
    const scan = scanConversation(messages);
    expect(scan.pendingStart).toBe(3);
    expect(scan.settled).toEqual(messages.slice(0, 3));
    expect(scan.inFlight).toEqual([running]);
    expect(scan.index.messages).toBe(scan.settled);
    expect(scan.index.callers).toEqual([]);
  });

  it("indexes the whole conversation when no call is in flight", () => {
    const messages = compacted();
    const scan = scanConversation(messages);
    expect(scan.pendingStart).toBe(-1);
    expect(scan.settled).toBe(messages);
    expect(scan.inFlight).toEqual([]);
  });
});
