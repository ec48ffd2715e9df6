import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { SUMMARY_END_MARKER, parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { agentRounds, fastApiConversation, roughCounter, system, user } from "./fixtures.js";

const SPEC_EXAMPLE = { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };

/** The prefix summaries of versions before the invisible signature began with. */
const LEGACY_PREFIX =
  "[CONTEXT COMPACTION] Earlier turns of this conversation were compacted into the summary below. " +
  "It is background reference only, written from turns that are no longer shown; it may be incomplete. " +
  "Respond to the latest message after this summary — that is what to act on now, not the summary itself. " +
  "All tools remain available: re-read files or re-run commands when you need details the summary left out.";

function recordingSummarizer(word = "item"): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    name: "template",
    requests,
    async summarize(request) {
      requests.push(request);
      return SUMMARY_SECTIONS.map((h) => `${h}\n- ${word}`).join("\n");
    },
  };
}

const texts = (messages: ChatMessage[]) => messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe("recognising our summaries", () => {
  it("keeps a latest user ask that starts with [CONTEXT COMPACTION]", async () => {
    const ask = "[CONTEXT COMPACTION] what does this header mean? Explain it, then add error handling.";
    const input = [...fastApiConversation().slice(0, -1), user(ask)];
    const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer: recordingSummarizer(), tokenCounter: roughCounter });
    const out = await engine.compress(input);
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(out.at(-1)).toEqual(user(ask));
    expect(validateConversation(out)).toEqual([]);
  });

  it("keeps a first user ask that starts with [CONTEXT COMPACTION] in the head and out of the previous summary", async () => {
    const ask = "[CONTEXT COMPACTION] notes: build the inventory service on port 8123.";
    const summarizer = recordingSummarizer();
    const input = [system("You are a coding agent."), user(ask), ...agentRounds(12, 3_000, "work")];
    const engine = new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 15_000, target_ratio: 0.1 }, summarizer, tokenCounter: roughCounter });
    const out = await engine.compress(input);
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(texts(out)).toContain(ask);
    expect(summarizer.requests[0]!.previousSummary).toBeUndefined();
  });

  it("recognises its summary after a round trip through JSON and the session store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "summary-marker-"));
    const store = openSqliteStore(join(dir, "s.db"));
    try {
      const summarizer = recordingSummarizer("remember-8123");
      const engine = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer, tokenCounter: roughCounter });
      const first = await engine.compress(fastApiConversation());
      store.createSession({ id: "s", platform: "test" });
      store.appendMessages("s", JSON.parse(JSON.stringify([...first, ...agentRounds(8, 3_000, "later")])) as ChatMessage[]);
      const reloaded = store.activeMessages("s");
      const fresh = new ContextCompressor({ compression: SPEC_EXAMPLE, summarizer, tokenCounter: roughCounter });
      const second = await fresh.compress(reloaded);
      expect(fresh.lastCompression!.aborted).toBe(false);
      expect(summarizer.requests[1]!.previousSummary).toContain("remember-8123");
      expect(second.map((m) => parseSummaryMessage(m)).filter((p) => p !== undefined)).toHaveLength(1);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("recognises a summary an older version wrote (its full prefix and end marker)", async () => {
    const legacy = user(`${LEGACY_PREFIX}\n\n## Goal\n- legacy-goal-55\n\n${SUMMARY_END_MARKER}`);
    expect(parseSummaryMessage(legacy)?.summary).toBe("## Goal\n- legacy-goal-55");
    const summarizer = recordingSummarizer();
    const input = [system("You are a coding agent."), legacy, { role: "assistant" as const, content: "Understood." }, ...agentRounds(12, 3_000, "work")];
    const engine = new ContextCompressor({ compression: { protect_first_n: 1, protect_last_n: 4, threshold_tokens: 15_000, target_ratio: 0.1 }, summarizer, tokenCounter: roughCounter });
    const out = await engine.compress(input);
    expect(summarizer.requests[0]!.previousSummary).toContain("legacy-goal-55");
    expect(texts(out).some((t) => t.includes("legacy-goal-55") && t.startsWith(LEGACY_PREFIX))).toBe(false);
  });

  it("treats text that only starts like an old summary (no end marker) as a real turn", () => {
    expect(parseSummaryMessage(user(`${LEGACY_PREFIX}\n\nI pasted this header — what does it mean?`))).toBeUndefined();
    expect(parseSummaryMessage(user("[CONTEXT COMPACTION] please keep this"))).toBeUndefined();
    expect(parseSummaryMessage({ role: "assistant", content: "[CONTEXT COMPACTION] is a header you will see later." })).toBeUndefined();
  });
});
