import { SUMMARY_END_MARKER, SUMMARY_PREFIX } from "../../src/messages/compactionMarker.js";
import { describe, expect, it } from "vitest";
import { userAskOf, userAsks, userWords } from "../../src/facts/userAsks.js";
import type { ChatMessage } from "../../src/messages/schema.js";

describe("user asks", () => {
  it("keeps the user's words and drops injected blocks and placeholders", () => {
    expect(userWords("[Image #2]\n\nhmm so how does phrase search work in FTS?")).toBe("hmm so how does phrase search work in FTS?");
    expect(userWords("<system-reminder>Be brief.</system-reminder>\nFix the build")).toBe("Fix the build");
  });

  it("does not take interrupts, images, command echoes, notes or acknowledgements for asks", () => {
    const notAsks = [
      "[Request interrupted by user]",
      "[Image: source: /var/folders/jc/T/Xnapper-2026-06-23-18.19.47.png]",
      "<command-name>/login</command-name>\n<command-message>login</command-message>\n<command-args></command-args>",
      "<local-command-stdout>Login successful</local-command-stdout>",
      "This session is being continued from a previous conversation that ran out of context. The summary below covers it.",
      `${SUMMARY_PREFIX}\n\nGoal\n- fix the parser\n\n${SUMMARY_END_MARKER}`,
      "proceed",
      "ok",
    ];
    for (const text of notAsks) expect(userAskOf({ role: "user", content: text }), text).toBeUndefined();
    expect(userAskOf({ role: "user", content: "fix the underscore path normalization bug" })).toBe("fix the underscore path normalization bug");
    // only our signed summaries are skipped: a user may start a real ask with the tag
    expect(userAskOf({ role: "user", content: "[CONTEXT COMPACTION] tags should be hidden in the transcript viewer" })).toBeDefined();
  });

  it("treats the user messages answering a text-action agent's actions (SWE-agent) as observations", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "We're currently solving the following issue: the pixel handler needs Pixel Representation." },
      { role: "assistant", content: "Let me create a script.\n\n```\ncreate reproduce_bug.py\n```" },
      { role: "user", content: "[File: /repo/reproduce_bug.py (1 lines total)]\n1:\n(Open file: /repo/reproduce_bug.py)\nbash-$" },
      { role: "assistant", content: "Now run it.\n\n```\npython reproduce_bug.py\n```" },
      { role: "user", content: "Traceback (most recent call last):\nAttributeError: no attribute\n(Open file: /repo/reproduce_bug.py)\nbash-$" },
    ];
    expect(userAsks(messages).map((a) => a.index)).toEqual([0]);
  });

  it("still takes a reply to an assistant message that ends in a code block for an ask in an ordinary chat", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "How do I resume a session?" },
      { role: "assistant", content: "Try this in your terminal:\n\n```\nclaude -c\n```" },
      { role: "user", content: "still no conversation found to continue" },
      { role: "assistant", content: "Then the session folder name is wrong." },
      { role: "user", content: "how do I fix the folder name" },
    ];
    expect(userAsks(messages).map((a) => a.index)).toEqual([0, 2, 4]);
  });
});
