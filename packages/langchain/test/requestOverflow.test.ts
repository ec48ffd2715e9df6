import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateConversation } from "@context-engine/core";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, sentMessages, SYSTEM_PROMPT } from "../../../test/support/toolLoopScenario.js";
import { contextEngineMiddleware, type LangChainCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

/** A log longer than the scenario's whole 8,000-token window. */
const BIG_LOG = Array.from({ length: 1_000 }, (_, i) => `line ${i}: request ${i * 7} took ${i % 13} ms`).join("\n");

describe("the LangChain middleware before a model call whose request would cross the window less the output reserve", () => {
  it("compacts first though the latest reported usage is far below the trigger: the tool output larger than the window is cleared", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const events: LangChainCompressionEvent[] = [];
    const readLog = tool(() => BIG_LOG, { name: "readLog", description: "Read the build log", schema: z.object({ path: z.string() }) });
    const agent = createAgent({
      model: new ChatOpenAI({ model: "fixture-model", apiKey: "fixture-key", configuration: { baseURL: loop.server.baseUrl } }),
      tools: [readLog],
      middleware: [contextEngineMiddleware({ host, onCompress: (event) => events.push(event) })],
    });
    loop.server.script(
      { kind: "reply", reply: { toolCalls: [{ id: "call_log", name: "readLog", arguments: { path: "build.log" } }], usage: { prompt_tokens: 60 } } },
      { kind: "reply", reply: { content: "The log is long.", usage: { prompt_tokens: 300 } } },
    );
    await agent.invoke({ messages: [new SystemMessage(SYSTEM_PROMPT), new HumanMessage("Read build.log.")] });
    expect(events.map((e) => e.trigger)).toEqual(["overflow"]);
    expect(events[0]!.promptTokens).toBeGreaterThan(host.engine.requestLimitTokens);
    const second = sentMessages(loop.server.requests[1]!);
    expect(String(second.at(-1)!.content)).toMatch(/^\[Old tool output cleared to save context space\] \[readLog\]/);
    expect(validateConversation(second)).toEqual([]);
  });
});
