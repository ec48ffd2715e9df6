import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ContextHost } from "@context-engine/core";
import { expectCompressedLoop, useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, FINAL_ANSWER, lcmHost, readNote, scriptToolLoop, SYSTEM_PROMPT, USER_ASK } from "../../../test/support/toolLoopScenario.js";
import { contextEngineMiddleware, type LangChainCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

/** Runs the scenario's loop with a createAgent agent through the loopback server. */
async function runLoop(agentHost: ContextHost, events: LangChainCompressionEvent[]) {
  const readFile = tool(async ({ path }: { path: string }) => readNote(path), { name: "readFile", description: "Read a note", schema: z.object({ path: z.string() }) });
  const agent = createAgent({
    model: new ChatOpenAI({ model: "fixture-model", apiKey: "fixture-key", configuration: { baseURL: loop.server.baseUrl } }),
    tools: [readFile],
    middleware: [contextEngineMiddleware({ host: agentHost, onCompress: (event) => events.push(event) })],
  });
  return agent.invoke({ messages: [new SystemMessage(SYSTEM_PROMPT), new HumanMessage(USER_ASK)] });
}

describe("the LangChain middleware in createAgent's tool loop, against a loopback OpenAI server", () => {
  it("compresses through lcm past the threshold, sends a valid compacted conversation, feeds usage_metadata back and runs lcm_grep for the model", async () => {
    const host = (loop.host = await lcmHost(loop.dir));
    scriptToolLoop(loop.server, "lcm_grep");
    const events: LangChainCompressionEvent[] = [];
    const state = await runLoop(host, events);
    expect(state.messages.at(-1)?.content).toBe(FINAL_ANSWER);
    const { compacted } = expectCompressedLoop(loop.server, host, "lcm_grep");
    expect(events).toEqual([{ messagesBefore: 6, messagesAfter: compacted.length, promptTokens: 7_600, compressionCount: 1, trigger: "usage" }]);
    // the agent's state holds the compacted conversation, then the lcm_grep call, its result and the answer
    expect(state.messages.map((m) => m.getType())).toEqual([...compacted.map((m) => ({ system: "system", user: "human", assistant: "ai", tool: "tool" })[m.role]), "ai", "tool", "ai"]);
    expect(state.messages[0]).toBeInstanceOf(SystemMessage);
  });

  it("compresses through the built-in compressor the same way (an engine without tools)", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    scriptToolLoop(loop.server, "readFile");
    const events: LangChainCompressionEvent[] = [];
    const state = await runLoop(host, events);
    expect(state.messages.at(-1)?.content).toBe(FINAL_ANSWER);
    const { compacted } = expectCompressedLoop(loop.server, host, "readFile");
    expect(compacted.some((m) => typeof m.content === "string" && m.content.includes("## Goal"))).toBe(true);
    expect(events).toHaveLength(1);
  });
});
