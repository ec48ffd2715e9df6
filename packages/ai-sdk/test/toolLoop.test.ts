import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ContextHost } from "@context-engine/core";
import { expectCompressedLoop, useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, FINAL_ANSWER, lcmHost, readNote, scriptToolLoop, SYSTEM_PROMPT, USER_ASK } from "../../../test/support/toolLoopScenario.js";
import { responseMessages } from "./responseMessages.js";
import { createAiSdkAdapter, type AiSdkCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

/** Runs the scenario's loop with generateText through the loopback server. */
async function runLoop(adapterHost: ContextHost, events: AiSdkCompressionEvent[]) {
  const adapter = createAiSdkAdapter({ host: adapterHost, onCompress: (event) => events.push(event) });
  const openai = createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" });
  const readFile = tool({
    description: "Read a note",
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readNote(path),
  });
  const messages: ModelMessage[] = [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: USER_ASK },
  ];
  const result = await generateText({
    model: openai.chat("fixture-model"),
    messages,
    allowSystemInMessages: true,
    tools: { readFile, ...adapter.tools },
    stopWhen: stepCountIs(8),
    prepareStep: adapter.prepareStep,
    onStepFinish: adapter.onStepFinish,
  });
  return { adapter, result, messages };
}

describe("the AI SDK adapter in generateText's tool loop, against a loopback OpenAI server", () => {
  it("compresses through lcm past the threshold, sends a valid compacted conversation, feeds usage back and runs lcm_grep for the model", async () => {
    const host = (loop.host = await lcmHost(loop.dir));
    scriptToolLoop(loop.server, "lcm_grep");
    const events: AiSdkCompressionEvent[] = [];
    const { adapter, result, messages } = await runLoop(host, events);
    expect(result.text).toBe(FINAL_ANSWER);
    const { compacted } = expectCompressedLoop(loop.server, host, "lcm_grep");
    expect(events).toEqual([{ stepNumber: 2, messagesBefore: 6, messagesAfter: compacted.length, promptTokens: 7_600, compressionCount: 1, trigger: "usage" }]);
    // a later call with the whole history is sent the compacted conversation, not the history again
    const history = [...messages, ...responseMessages(result)];
    expect(adapter.view(history).length).toBeLessThan(history.length);
  });

  it("compresses through the built-in compressor the same way (an engine without tools)", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    scriptToolLoop(loop.server, "readFile");
    const events: AiSdkCompressionEvent[] = [];
    const { result } = await runLoop(host, events);
    expect(result.text).toBe(FINAL_ANSWER);
    const { compacted } = expectCompressedLoop(loop.server, host, "readFile");
    expect(compacted.some((m) => typeof m.content === "string" && m.content.includes("## Goal"))).toBe(true);
    expect(events).toHaveLength(1);
  });
});
