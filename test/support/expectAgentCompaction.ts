/** The checks of the adapters' compact_context loop (agentCompactionScenario.ts), on what the model and the summarizer were sent. */
import { expect } from "vitest";
import { validateConversation } from "@context-engine/core";
import type { FixtureServer } from "./openaiFixtureServer.js";
import { FOCUS, LATER_ASK } from "./agentCompactionScenario.js";
import { sentMessages } from "./toolLoopScenario.js";

/**
 * Four requests: the model's compact_context call, the summarizer's (with the focus in its prompt), the
 * model's call after the compaction (shorter, provider-valid, ending with the accepted tool result) and
 * the later user turn's, which is sent as the user wrote it, or with the notice when `notice` is set.
 */
export function expectAgentCompactionLoop(server: FixtureServer, notice: boolean): void {
  expect(server.requests).toHaveLength(4);
  const [asked, summary, afterCompaction, laterRequest] = server.requests;
  expect(summary!.rawBody).toContain(`Focus: prioritise everything related to \\"${FOCUS}\\"`);
  const sent = sentMessages(afterCompaction!);
  expect(sent.length).toBeLessThan(sentMessages(asked!).length);
  expect(validateConversation(sent)).toEqual([]);
  expect(JSON.parse(sent.at(-1)!.content as string)).toMatchObject({ accepted: true, focus: FOCUS });
  expect(JSON.stringify(sent)).not.toContain("[Context compacted");
  const later = sentMessages(laterRequest!);
  expect(validateConversation(later)).toEqual([]);
  expect(later.filter((m) => m.role === "tool").every((m) => !String(m.content).includes("[Context compacted"))).toBe(true);
  if (!notice) {
    expect(later.at(-1)).toEqual({ role: "user", content: LATER_ASK });
    return;
  }
  const [ask, line] = (later.at(-1)!.content as string).split("\n\n");
  expect(ask).toBe(LATER_ASK);
  expect(line).toMatch(/^\[Context compacted: \d+ messages → \d+, [\d,]+ → [\d,]+ tokens; older turns are summarized \(focus: the zebra migration\)\.\]$/);
}
