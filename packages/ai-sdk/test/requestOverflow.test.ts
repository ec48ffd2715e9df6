import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateConversation } from "@context-engine/core";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, sentMessages, SYSTEM_PROMPT } from "../../../test/support/toolLoopScenario.js";
import { createAiSdkAdapter, type AiSdkCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

/** A log longer than the scenario's whole 8,000-token window. */
const BIG_LOG = Array.from({ length: 1_000 }, (_, i) => `line ${i}: request ${i * 7} took ${i % 13} ms`).join("\n");

describe("the AI SDK adapter before a step whose request would cross the window less the output reserve", () => {
  it("compacts first though the last reported usage is far below the trigger: the tool output larger than the window is cleared", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host, onCompress: (event) => events.push(event) });
    const readLog = tool({ description: "Read the build log", inputSchema: z.object({ path: z.string() }), execute: () => BIG_LOG });
    loop.server.script(
      { kind: "reply", reply: { toolCalls: [{ id: "call_log", name: "readLog", arguments: { path: "build.log" } }], usage: { prompt_tokens: 60 } } },
      { kind: "reply", reply: { content: "The log is long.", usage: { prompt_tokens: 300 } } },
    );
    await generateText({
      model: createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" }).chat("fixture-model"),
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: "Read build.log." },
      ],
      allowSystemInMessages: true,
      tools: { readLog, ...adapter.tools },
      stopWhen: stepCountIs(3),
      prepareStep: adapter.prepareStep,
      onStepFinish: adapter.onStepFinish,
    });
    expect(events.map((e) => [e.stepNumber, e.trigger])).toEqual([[1, "overflow"]]);
    expect(events[0]!.promptTokens).toBeGreaterThan(host.engine.requestLimitTokens);
    const second = sentMessages(loop.server.requests[1]!);
    expect(String(second.at(-1)!.content)).toMatch(/^\[Old tool output cleared to save context space\] \[readLog\]/);
    expect(validateConversation(second)).toEqual([]);
  });
});
