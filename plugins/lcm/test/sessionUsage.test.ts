import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AWAITING_REAL_USAGE } from "../src/core.js";
import { CountingSummarizer, conversation, makeEngine, tempDir } from "./support.js";

describe("lcm serving several sessions", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("judges each session by the usage reported for it, and awaits real usage only in the one it compacted", async () => {
    const engine = makeEngine(dir, { summarizer: new CountingSummarizer() }); // trigger 3,000 tokens
    engine.updateFromResponse({ prompt_tokens: 3_500, completion_tokens: 10 }, "a");
    engine.updateFromResponse({ prompt_tokens: 200, completion_tokens: 10 }, "b");
    expect(engine.shouldCompress(undefined, "a")).toBe(true);
    expect(engine.shouldCompress(undefined, "b")).toBe(false);
    expect(engine.shouldCompress(undefined, "c")).toBe(false);
    expect(engine.getStatus("a").lastPromptTokens).toBe(3_500);

    engine.updateFromResponse({ prompt_tokens: 3_200, completion_tokens: 10 }, "b");
    await engine.compress(conversation(12), { sessionId: "a", currentTokens: 3_500 });
    expect(engine.compressionCount).toBe(1);
    expect(engine.lastPromptTokensOf("a")).toBe(AWAITING_REAL_USAGE);
    expect(engine.lastPromptTokensOf("b")).toBe(3_200);
    expect(engine.shouldCompress(undefined, "b")).toBe(true);
    // each session's status: its own last compaction
    expect(engine.getStatus("a").lastCompaction?.messagesBefore).toBe(conversation(12).length);
    expect(engine.getStatus("b").lastCompaction).toBeUndefined();
    expect(engine.getStatus().lastCompaction).toEqual(engine.getStatus("a").lastCompaction);
    engine.close();
  });

  it("keeps the engine-wide usage for a host that names no session", async () => {
    const engine = makeEngine(dir, { contextLength: 100_000 });
    engine.updateFromResponse({ prompt_tokens: 90_000, completion_tokens: 10 }, "a");
    engine.updateFromResponse({ prompt_tokens: 80_000, completion_tokens: 10 });
    expect(engine.lastPromptTokensOf("a")).toBe(80_000);
    expect(engine.shouldCompress(undefined, "b")).toBe(true);
    engine.close();
  });
});
