import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ContextCompressor } from "@context-engine/core";
import { backgroundHost, BACKGROUND_SUMMARY, readNoteAfterSummary, scriptBackgroundLoop, SHORT_NOTE } from "../../../test/support/backgroundLoopScenario.js";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { FINAL_ANSWER, sentMessages, SYSTEM_PROMPT, USER_ASK } from "../../../test/support/toolLoopScenario.js";
import { contextEngineMiddleware, type LangChainCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();
let summaries: FixtureServer;
beforeAll(async () => void (summaries = await startOpenAIFixtureServer()));
afterAll(() => summaries.close());

describe("the LangChain middleware with background compaction (compression.prepare_at)", () => {
  it("prepares the summary past the preparation point while the agent goes on, and applies it at the trigger with the later turns after it", async () => {
    const host = (loop.host = await backgroundHost(loop.dir, summaries));
    scriptBackgroundLoop(loop.server, summaries);
    const events: LangChainCompressionEvent[] = [];
    const readFile = tool(({ path }: { path: string }) => readNoteAfterSummary(path, host), { name: "readFile", description: "Read a note", schema: z.object({ path: z.string() }) });
    const agent = createAgent({
      model: new ChatOpenAI({ model: "fixture-model", apiKey: "fixture-key", configuration: { baseURL: loop.server.baseUrl } }),
      tools: [readFile],
      middleware: [contextEngineMiddleware({ host, onCompress: (event) => events.push(event) })],
    });
    const state = await agent.invoke({ messages: [new SystemMessage(SYSTEM_PROMPT), new HumanMessage(USER_ASK)] });

    expect(state.messages.at(-1)?.content).toBe(FINAL_ANSWER);
    // one summary, asked for below the trigger and answered before it fired
    expect(summaries.requests.map((r) => r.answered)).toEqual([true]);
    expect((host.engine as ContextCompressor).lastCompression?.preparation).toEqual({ outcome: "applied" });
    expect(events.map((e) => e.promptTokens)).toEqual([7_600]);
    const fourth = sentMessages(loop.server.requests[3]!);
    expect(fourth.findIndex((m) => typeof m.content === "string" && m.content.includes(BACKGROUND_SUMMARY.split("\n")[0]!))).toBeGreaterThan(0);
    // the turns after the prepared range (the short note's call and result) follow the summary, once
    expect(fourth.slice(-2).map((m) => m.role)).toEqual(["assistant", "tool"]);
    expect(fourth.at(-2)?.tool_calls?.[0]?.function.arguments).toContain(SHORT_NOTE);
    expect(fourth.filter((m) => m.role === "tool" && m.content === "A short note.")).toHaveLength(1);
  });
});
