import { describe, expect, it } from "vitest";
import { messageText } from "../../src/compressor/content.js";
import { assembleCompressed } from "../../src/compressor/assemble.js";
import { SUMMARY_END_MARKER, SUMMARY_PREFIX, parseSummaryMessage, turnsForSummary } from "../../src/compressor/earlierSummaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { assistant, system, user } from "./fixtures.js";

const SUMMARY = "## Goal\n- ship the API\n## Progress\n### Done\n- wrote app/main.py";

describe("a summary merged into the first tail message", () => {
  it("ends an assistant carrier with the end marker: the carrier's own reply first, then the summary", () => {
    const tail: ChatMessage[] = [assistant("The migration is complete."), user("What should I do next?")];
    const out = assembleCompressed({ head: [system("s"), user("Start the migration")], summary: SUMMARY, tail, isFirstCompaction: false });
    expect(out.mergedIntoTail).toBe(true);
    const merged = out.messages[2]!;
    expect(merged.role).toBe("assistant");
    const text = String(merged.content);
    expect(text.startsWith("The migration is complete.")).toBe(true);
    expect(text).toContain(SUMMARY_PREFIX);
    expect(text.trimEnd().endsWith(SUMMARY_END_MARKER)).toBe(true);
    expect(out.messages[3]).toBe(tail[1]);
    expect(validateConversation(out.messages)).toEqual([]);
  });

  it("puts the summary before a user carrier's own words, so the ask stays last, right after the end marker", () => {
    const tail: ChatMessage[] = [user("Fix the failing tests"), assistant("Fixed: the fixture now overrides get_db.")];
    const out = assembleCompressed({ head: [system("s"), user("Help me"), assistant("Sure.")], summary: SUMMARY, tail, isFirstCompaction: false });
    expect(out.mergedIntoTail).toBe(true);
    const merged = out.messages[3]!;
    const text = String(merged.content);
    expect(text.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(text.endsWith(`${SUMMARY_END_MARKER}\n\nFix the failing tests`)).toBe(true);
    expect(parseSummaryMessage(merged)).toEqual({ summary: SUMMARY, rest: "Fix the failing tests" });
    expect(validateConversation(out.messages)).toEqual([]);
  });

  it("is read back as the summary plus the carrier's own text, which the next compaction summarizes", () => {
    const tail: ChatMessage[] = [assistant("The migration is complete."), user("What should I do next?")];
    const merged = assembleCompressed({ head: [system("s"), user("Start the migration")], summary: SUMMARY, tail, isFirstCompaction: false }).messages[2]!;
    expect(parseSummaryMessage(merged)).toEqual({ summary: SUMMARY, rest: "The migration is complete." });
    expect(turnsForSummary([merged]).map(messageText)).toEqual(["The migration is complete."]);
  });

  it("reads back a merge into a multi-part carrier too", () => {
    const carrier: ChatMessage = { role: "assistant", content: [{ type: "text", text: "Here is the chart." }] };
    const out = assembleCompressed({ head: [system("s"), user("Plot it")], summary: SUMMARY, tail: [carrier, user("thanks")], isFirstCompaction: false });
    const merged = out.messages[2]!;
    expect(messageText(merged).trimEnd().endsWith(SUMMARY_END_MARKER)).toBe(true);
    expect(parseSummaryMessage(merged)).toEqual({ summary: SUMMARY, rest: "Here is the chart." });
  });

  it("keeps the summary first, before the user's words, when only the system prompt precedes it", () => {
    const tail: ChatMessage[] = [user("Fix the failing tests"), assistant("ok")];
    const out = assembleCompressed({ head: [system("s")], summary: SUMMARY, tail, isFirstCompaction: false });
    const text = String(out.messages[1]!.content);
    expect(text.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(text.endsWith(`${SUMMARY_END_MARKER}\n\nFix the failing tests`)).toBe(true);
  });
});
