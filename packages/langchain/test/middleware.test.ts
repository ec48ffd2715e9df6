import { describe, expect, it } from "vitest";
import { ContextEngine, type ChatMessage } from "@context-engine/core";
import { contextEngineMiddleware, engineTools, langChainUsageReport } from "../src/index.js";

/** An engine offering one tool. */
class EchoEngine extends ContextEngine {
  readonly name = "echo";
  shouldCompress(): boolean {
    return false;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages;
  }
  override getToolSchemas() {
    return [{ type: "function" as const, function: { name: "echo", description: "Echo the input", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } } }];
  }
  override async handleToolCall(name: string, args: unknown): Promise<string> {
    return name === "echo" ? JSON.stringify({ echoed: args }) : super.handleToolCall(name, args);
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
    const [echo] = engineTools(new EchoEngine());
    expect([echo!.name, echo!.description]).toEqual(["echo", "Echo the input"]);
    expect(await echo!.invoke({ text: "hi" })).toBe('{"echoed":{"text":"hi"}}');
  });

  it("registers the engine's tools with the agent and refuses options without an engine", () => {
    expect(contextEngineMiddleware({ engine: new EchoEngine() }).tools?.map((t) => t.name)).toEqual(["echo"]);
    expect(() => contextEngineMiddleware({} as never)).toThrow(/give `engine` \(a ContextEngine\) or `host`/);
  });
});
