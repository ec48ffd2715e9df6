import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { contextEngineMiddleware, engineTools, langChainUsageReport, REMOVE_ALL_MESSAGES } from "../src/index.js";
import type { ChatMessage } from "@context-engine/core";
import { RecordingEngine } from "../../../test/support/recordingEngine.js";

/** An engine that, like a sliding window with nothing to drop, answers compress() with an equal copy of the messages. */
class CopyingEngine extends RecordingEngine {
  override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages.map((m) => ({ ...m }));
  }
}

describe("the LangChain middleware's parts", () => {
  it("reports usage_metadata as OpenAI usage, cache reads and writes included, and nothing without it", () => {
    expect(langChainUsageReport({ input_tokens: 120, output_tokens: 5, total_tokens: 125, input_token_details: { cache_read: 90, cache_creation: 10 } })).toEqual({
      prompt_tokens: 120,
      completion_tokens: 5,
      total_tokens: 125,
      prompt_tokens_details: { cached_tokens: 90, cache_write_tokens: 10 },
    });
    expect(langChainUsageReport(undefined)).toBeUndefined();
  });

  it("offers the engine's tools as LangChain tools that run handleToolCall", async () => {
    const [echo] = engineTools(new RecordingEngine());
    expect([echo!.name, echo!.description]).toEqual(["echo", "Echo the input"]);
    expect(await echo!.invoke({ text: "hi" })).toBe('{"echoed":{"text":"hi"}}');
  });

  it("leaves the state alone and fires no onCompress when the engine's answer equals the messages", async () => {
    const events: unknown[] = [];
    const middleware = contextEngineMiddleware({ engine: new CopyingEngine(), onCompress: (e) => events.push(e) });
    const hook = (h: unknown) => (typeof h === "function" ? h : (h as { hook: Function }).hook) as (state: { messages: BaseMessage[] }, runtime: unknown) => Promise<{ messages: BaseMessage[] } | undefined>;
    const answer = new AIMessage({ content: "ok", usage_metadata: { input_tokens: 150, output_tokens: 1, total_tokens: 151 } });
    expect(await hook(middleware.beforeModel)({ messages: [new HumanMessage("a"), answer, new HumanMessage("b")] }, {})).toBeUndefined();
    expect(events).toEqual([]);
  });

  it("registers the engine's tools with the agent and refuses options without an engine", () => {
    expect(contextEngineMiddleware({ engine: new RecordingEngine() }).tools?.map((t) => t.name)).toEqual(["echo"]);
    expect(() => contextEngineMiddleware({} as never)).toThrow(/give `engine` \(a ContextEngine\) or `host`/);
  });

  it("compresses when the latest answer in the agent's state reports usage past the threshold, replacing every message, and names its session", async () => {
    const engine = new RecordingEngine();
    const middleware = contextEngineMiddleware({ engine, sessionId: "thread-1" });
    const hook = (h: unknown) => (typeof h === "function" ? h : (h as { hook: Function }).hook) as (state: { messages: BaseMessage[] }, runtime: unknown) => Promise<{ messages: BaseMessage[] } | undefined>;
    const answer = (tokens: number) => new AIMessage({ content: "ok", usage_metadata: { input_tokens: tokens, output_tokens: 1, total_tokens: tokens + 1 } });
    expect(await hook(middleware.beforeModel)({ messages: [new HumanMessage("a"), answer(50), new HumanMessage("b")] }, {})).toBeUndefined();
    const update = await hook(middleware.beforeModel)({ messages: [new HumanMessage("a"), answer(150), new HumanMessage({ content: "b", id: "h2" })] }, {});
    expect(update!.messages[0]).toBeInstanceOf(RemoveMessage);
    expect(update!.messages[0]!.id).toBe(REMOVE_ALL_MESSAGES);
    expect(update!.messages.slice(1).map((m) => [m.getType(), m.content, m.id])).toEqual([["human", "b", "h2"]]);
    await hook(middleware.afterModel)({ messages: [answer(30)] }, {});
    expect(engine.lastPromptTokens).toBe(30);
    expect(engine.sessions).toEqual(["thread-1", "thread-1", "thread-1", "thread-1"]);
  });
});
