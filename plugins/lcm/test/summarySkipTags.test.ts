import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import type { ChatMessage } from "../src/core.js";
import { parseLcmConfig } from "../src/config.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const server = useOpenAIFixtureServer({ kind: "success", content: "## Goal\n- fixture summary" });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** The test conversation with a memory plugin's blocks injected into every user turn. */
function withMemoryBlocks(turns: number): ChatMessage[] {
  return conversation(turns).map((m, i) =>
    m.role === "user"
      ? {
          ...m,
          content: `<hindsight_memories>\nrecalled-fact-${i}: the user once liked tabs\n</hindsight_memories>\n${m.content as string}\n<system-reminder>reminder-${i}: stay terse</system-reminder>`,
        }
      : m,
  );
}

const summarizer = () => new OpenAICompatibleSummarizer({ baseUrl: server.current.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: 5_000 });

describe("lcm.summary_skip_tags", () => {
  it("leaves memory-plugin blocks out of what the summarizer reads and keeps the stored turns verbatim", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer() });
    const input = withMemoryBlocks(40);
    await engine.compress(input);
    const sent = server.current.requests.map((r) => r.rawBody).join("\n");
    expect(server.current.requests.length).toBeGreaterThan(0);
    expect(sent).toContain("zeta1 invariant");
    expect(sent).not.toMatch(/recalled-fact-|reminder-\d|hindsight_memories|system-reminder/);
    const stored = engine.store.getMessagesBySeq("default", 1, 4);
    expect(stored[0]!.message.content).toBe(input[1]!.content);
    engine.close();
  });

  it("leaves them out of the deterministic fallback too", async () => {
    server.current.setDefault({ kind: "status", status: 500 });
    const engine = makeEngine(dir, { summarizer: summarizer(), warn: () => {} });
    await engine.compress(withMemoryBlocks(40));
    const summaries = engine.store.allSummaries("default");
    expect(summaries.some((s) => s.level === 3 && s.content.includes("zeta"))).toBe(true);
    expect(summaries.map((s) => s.content).join("\n")).not.toMatch(/recalled-fact-|reminder-\d/);
    engine.close();
  });

  it("follows a configured list: its tags are skipped, others are read", async () => {
    const engine = makeEngine(dir, { summarizer: summarizer(), config: { summary_skip_tags: ["system-reminder"] } });
    await engine.compress(withMemoryBlocks(40));
    const sent = server.current.requests.map((r) => r.rawBody).join("\n");
    expect(sent).toContain("recalled-fact-");
    expect(sent).not.toContain("reminder-");
    engine.close();
  });

  it("refuses a tag written with angle brackets, naming the key", () => {
    expect(() => parseLcmConfig({ summary_skip_tags: ["<memories>"] })).toThrow(/lcm\.summary_skip_tags\.0: must be a tag name/);
  });
});
