import type { LanguageModelUsage, ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { aiSdkUsageReport, createAiSdkAdapter, engineTools } from "../src/index.js";
import type { ChatMessage } from "@context-engine/core";
import { RecordingEngine } from "../../../test/support/recordingEngine.js";

/** An engine that, like a sliding window with nothing to drop, answers compress() with an equal copy of the messages. */
class CopyingEngine extends RecordingEngine {
  override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages.map((m) => ({ ...m }));
  }
}

/** An AI SDK step usage with `inputTokens` prompt tokens and 5 output tokens. */
function usage(inputTokens: number | undefined, extra: Partial<LanguageModelUsage> = {}): LanguageModelUsage {
  return {
    inputTokens,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    outputTokens: 5,
    outputTokenDetails: { textTokens: 5, reasoningTokens: undefined },
    totalTokens: inputTokens === undefined ? undefined : inputTokens + 5,
    ...extra,
  };
}

const user = (content: string): ModelMessage => ({ role: "user", content });

describe("the AI SDK adapter", () => {
  it("reports AI SDK usage as OpenAI usage, cache reads and writes included, and nothing without input tokens", () => {
    expect(aiSdkUsageReport(usage(120, { inputTokenDetails: { noCacheTokens: 20, cacheReadTokens: 90, cacheWriteTokens: 10 } }))).toEqual({
      prompt_tokens: 120,
      completion_tokens: 5,
      total_tokens: 125,
      prompt_tokens_details: { cached_tokens: 90, cache_write_tokens: 10 },
    });
    expect(aiSdkUsageReport(usage(undefined))).toBeUndefined();
  });

  it("compresses when the last step's usage reaches the threshold and sends later steps the compacted view", async () => {
    const engine = new RecordingEngine();
    const adapter = createAiSdkAdapter({ engine });
    const history = [user("a"), user("b")];
    expect(await adapter.prepareStep({ steps: [{ usage: usage(50) }], stepNumber: 1, messages: history })).toBeUndefined();
    expect(await adapter.prepareStep({ steps: [{ usage: usage(150) }], stepNumber: 2, messages: history })).toEqual({ messages: [user("b")] });
    expect(engine.compressionCount).toBe(1);
    const later = [...history, user("c")];
    expect(await adapter.prepareStep({ steps: [], stepNumber: 3, messages: later })).toEqual({ messages: [user("b"), user("c")] });
    // a copy of the same history is recognised; another conversation is sent as it is
    expect(adapter.view(structuredClone(later))).toEqual([user("b"), user("c")]);
    expect(adapter.view([user("x")])).toEqual([user("x")]);
    expect(adapter.view(later)).toBe(later);
  });

  it("judges by its own conversation's usage and names its session to the engine, which other conversations' usage does not move", async () => {
    const engine = new RecordingEngine();
    const mine = createAiSdkAdapter({ engine, sessionId: "s1" });
    const other = createAiSdkAdapter({ engine, sessionId: "s2" });
    mine.onStepFinish({ usage: usage(50) });
    other.onStepFinish({ usage: usage(500) });
    expect(await mine.prepareStep({ steps: [], stepNumber: 1, messages: [user("a"), user("b")] })).toBeUndefined();
    expect(await other.prepareStep({ steps: [], stepNumber: 1, messages: [user("c"), user("d")] })).toEqual({ messages: [user("d")] });
    expect(engine.sessions).toEqual(["s1", "s2", "s1", "s2", "s2"]);
    // after its compaction a conversation waits for the next reported usage
    expect(await other.prepareStep({ steps: [], stepNumber: 2, messages: [user("c"), user("d"), user("e")] })).toEqual({ messages: [user("d"), user("e")] });
    expect(engine.compressionCount).toBe(1);
  });

  it("fires onCompress only when the engine changed the messages, and sends them as they were otherwise", async () => {
    const events: unknown[] = [];
    const adapter = createAiSdkAdapter({ engine: new CopyingEngine(), onCompress: (e) => events.push(e) });
    const history = [user("a"), user("b")];
    expect(await adapter.prepareStep({ steps: [{ usage: usage(150) }], stepNumber: 1, messages: history })).toBeUndefined();
    expect(events).toEqual([]);
    const changing = createAiSdkAdapter({ engine: new RecordingEngine(), onCompress: (e) => events.push(e) });
    await changing.prepareStep({ steps: [{ usage: usage(150) }], stepNumber: 1, messages: history });
    expect(events).toHaveLength(1);
  });

  it("feeds each finished step's usage to the engine", () => {
    const engine = new RecordingEngine();
    const adapter = createAiSdkAdapter({ host: { engine } });
    adapter.onStepFinish({ usage: usage(77) });
    expect([engine.lastPromptTokens, engine.lastCompletionTokens, engine.lastTotalTokens]).toEqual([77, 5, 82]);
  });

  it("offers the engine's tools as AI SDK tools that run handleToolCall", async () => {
    const tools = engineTools(new RecordingEngine());
    expect(Object.keys(tools)).toEqual(["echo"]);
    expect(tools.echo!.description).toBe("Echo the input");
    const result = await tools.echo!.execute!({ text: "hi" }, { toolCallId: "c1", messages: [] });
    expect(result).toBe('{"echoed":{"text":"hi"}}');
  });

  it("refuses options without an engine, saying what to give", () => {
    expect(() => createAiSdkAdapter({} as never)).toThrow(/give `engine` \(a ContextEngine\) or `host`/);
  });
});
