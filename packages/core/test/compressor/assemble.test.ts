import { describe, expect, it } from "vitest";
import { assembleCompressed, chooseSummaryPlacement } from "../../src/compressor/assemble.js";
import { COMPACTION_SYSTEM_NOTE, SUMMARY_END_MARKER, SUMMARY_PREFIX, parseSummaryMessage, turnsForSummary } from "../../src/compressor/earlierSummaries.js";
import { buildSummaryRequest } from "../../src/compressor/summaryRequest.js";
import { computeThresholds } from "../../src/engine/thresholds.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { STUB_TOOL_RESULT } from "../../src/messages/toolPairs.js";
import { assistant, call, system, user } from "./fixtures.js";

const SUMMARY = "## Goal\n- ship it";

describe("summary message framing", () => {
  it("starts with [CONTEXT COMPACTION], calls itself background and points at the latest message", () => {
    expect(SUMMARY_PREFIX.startsWith("[CONTEXT COMPACTION]")).toBe(true);
    expect(SUMMARY_PREFIX).toMatch(/background/);
    expect(SUMMARY_PREFIX).toMatch(/latest message/);
    expect(SUMMARY_PREFIX).toMatch(/tools remain available/i);
    expect(SUMMARY_END_MARKER).toBe("--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---");
    expect(COMPACTION_SYSTEM_NOTE.startsWith("[Note: Some earlier conversation turns have been compacted")).toBe(true);
  });

  it("sizes the summary budget at 20 % of the content with a floor of 2,000 and the ceiling", () => {
    const middle = [user("a")];
    expect(buildSummaryRequest({ middle, contentTokens: 50_000, maxSummaryTokens: 12_000 }).maxTokens).toBe(10_000);
    expect(buildSummaryRequest({ middle, contentTokens: 1_000, maxSummaryTokens: 12_000 }).maxTokens).toBe(2_000);
    expect(buildSummaryRequest({ middle, contentTokens: 500_000, maxSummaryTokens: 12_000 }).maxTokens).toBe(12_000);
  });

  it("gives a small window's summary the 2,000-token floor even where the 5 % ceiling is lower", () => {
    const plan = computeThresholds({ model: "m", contextLength: 32_000 }, { threshold: 0.5, modelThresholds: {}, targetRatio: 0.2 });
    expect(plan.maxSummaryTokens).toBe(1_600);
    expect(buildSummaryRequest({ middle: [user("a")], contentTokens: 30_000, maxSummaryTokens: plan.maxSummaryTokens }).maxTokens).toBe(2_000);
  });

  it("hands over the previous summary and the focus topic, and keeps old summary messages out of the turns", () => {
    const old: ChatMessage = { role: "user", content: `${SUMMARY_PREFIX}\n\n${SUMMARY}\n\n${SUMMARY_END_MARKER}` };
    const request = buildSummaryRequest({ middle: [old, assistant("a")], contentTokens: 10, maxSummaryTokens: 12_000, previousSummary: SUMMARY, focusTopic: " auth " });
    expect(request.previousSummary).toBe(SUMMARY);
    expect(request.focusTopic).toBe("auth");
    expect(request.messages).toEqual([assistant("a")]);
  });

  it("keeps the tool calls of an assistant message the summary was merged into", () => {
    const a = call("terminal", { command: "ls" });
    const merged: ChatMessage = { ...a, content: `${SUMMARY_PREFIX}\n\n${SUMMARY}\n\n${SUMMARY_END_MARKER}` };
    expect(turnsForSummary([merged])).toEqual([{ ...a, content: null }]);
  });

  it("recovers the summary and the original text of a tail message the summary was merged into", () => {
    const merged: ChatMessage = { role: "user", content: `${SUMMARY_PREFIX}\n\n${SUMMARY}\n\n${SUMMARY_END_MARKER}\n\nFix the failing tests` };
    expect(parseSummaryMessage(merged)).toEqual({ summary: SUMMARY, rest: "Fix the failing tests" });
    expect(turnsForSummary([merged])).toEqual([{ role: "user", content: "Fix the failing tests" }]);
  });
});

describe("phase 4: assembling", () => {
  it("appends the system note on the first compaction and never twice", () => {
    const first = assembleCompressed({ head: [system("sys"), user("hi")], summary: SUMMARY, tail: [user("next")], isFirstCompaction: true });
    expect(first.noteAdded).toBe(true);
    expect(first.messages[0]!.content).toBe(`sys\n\n${COMPACTION_SYSTEM_NOTE}`);
    const again = assembleCompressed({ head: [first.messages[0]!], summary: SUMMARY, tail: [assistant("x"), user("y")], isFirstCompaction: true });
    expect(again.noteAdded).toBe(false);
    expect(String(again.messages[0]!.content).split(COMPACTION_SYSTEM_NOTE).length).toBe(2);
  });

  it("gives the summary the role neither neighbour has", () => {
    const out = assembleCompressed({ head: [system("s"), user("first")], summary: SUMMARY, tail: [user("Fix the failing tests")], isFirstCompaction: false });
    expect(out.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(String(out.messages[2]!.content).startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(String(out.messages[2]!.content).endsWith(SUMMARY_END_MARKER)).toBe(true);
  });

  it("forces a user summary when only the system prompt is kept", () => {
    expect(chooseSummaryPlacement([system("s")], [assistant("a")])).toEqual({ role: "user", merge: false });
  });

  it("forces a user summary when no user message would survive", () => {
    const a = call("terminal", { command: "ls" });
    const head: ChatMessage[] = [system("s"), assistant("hello")];
    expect(chooseSummaryPlacement(head, [a]).role).toBe("user");
  });

  it("merges the summary into the first tail message when both roles collide", () => {
    const tail: ChatMessage[] = [user("Fix the failing tests"), assistant("ok")];
    const out = assembleCompressed({ head: [system("s")], summary: SUMMARY, tail, isFirstCompaction: false });
    expect(out.mergedIntoTail).toBe(true);
    expect(out.messages).toHaveLength(3);
    expect(out.messages[1]!.role).toBe("user");
    expect(parseSummaryMessage(out.messages[1]!)).toEqual({ summary: SUMMARY, rest: "Fix the failing tests" });
    expect(out.messages[2]).toBe(tail[1]);
    expect(tail[0]!.content).toBe("Fix the failing tests");
  });

  it("keeps the tail messages as the same objects", () => {
    const tail: ChatMessage[] = [user("b"), assistant("a")];
    const out = assembleCompressed({ head: [system("s"), user("first")], summary: SUMMARY, tail, isFirstCompaction: false });
    expect(out.messages.slice(-2)[0]).toBe(tail[0]);
    expect(out.messages.slice(-2)[1]).toBe(tail[1]);
  });

  it("adds a stub result for a tail call whose result is gone", () => {
    const a = call("terminal", { command: "ls" });
    const out = assembleCompressed({ head: [system("s"), user("go")], summary: SUMMARY, tail: [a], isFirstCompaction: false });
    const last = out.messages.at(-1)!;
    expect(last.role).toBe("tool");
    expect(last.content).toBe(STUB_TOOL_RESULT);
  });
});
