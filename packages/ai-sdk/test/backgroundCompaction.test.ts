import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool, type ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ContextCompressor } from "@context-engine/core";
import { backgroundHost, BACKGROUND_SUMMARY, readNoteAfterSummary, scriptBackgroundLoop, SHORT_NOTE } from "../../../test/support/backgroundLoopScenario.js";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { FINAL_ANSWER, sentMessages, SYSTEM_PROMPT, USER_ASK } from "../../../test/support/toolLoopScenario.js";
import { createAiSdkAdapter, type AiSdkCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();
let summaries: FixtureServer;
beforeAll(async () => void (summaries = await startOpenAIFixtureServer()));
afterAll(() => summaries.close());

describe("the AI SDK adapter with background compaction (compression.prepare_at)", () => {
  it("prepares the summary past the preparation point while the loop goes on, and applies it at the trigger with the later turns after it", async () => {
    const host = (loop.host = await backgroundHost(loop.dir, summaries));
    scriptBackgroundLoop(loop.server, summaries);
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host, onCompress: (event) => events.push(event) });
    const readFile = tool({ description: "Read a note", inputSchema: z.object({ path: z.string() }), execute: ({ path }) => readNoteAfterSummary(path, host) });
    const messages: ModelMessage[] = [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: USER_ASK },
    ];
    const result = await generateText({
      model: createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" }).chat("fixture-model"),
      messages,
      allowSystemInMessages: true,
      tools: { readFile, ...adapter.tools },
      stopWhen: stepCountIs(8),
      prepareStep: adapter.prepareStep,
      onStepFinish: adapter.onStepFinish,
    });

    expect(result.text).toBe(FINAL_ANSWER);
    // one summary, asked for below the trigger and answered before it fired
    expect(summaries.requests.map((r) => r.answered)).toEqual([true]);
    expect((host.engine as ContextCompressor).lastCompression?.preparation).toEqual({ outcome: "applied" });
    expect(events.map((e) => [e.stepNumber, e.promptTokens])).toEqual([[3, 7_600]]);
    const [, , third, fourth] = loop.server.requests.map(sentMessages);
    const summaryAt = fourth!.findIndex((m) => typeof m.content === "string" && m.content.includes(BACKGROUND_SUMMARY.split("\n")[0]!));
    expect(summaryAt).toBeGreaterThan(0);
    // the turns after the prepared range (the short note's call and result) follow the summary, once
    expect(fourth!.slice(-2).map((m) => m.role)).toEqual(["assistant", "tool"]);
    expect(fourth!.filter((m) => m.role === "tool" && m.content === "A short note.")).toHaveLength(1);
    expect(fourth!.at(-2)?.tool_calls?.[0]?.function.arguments).toContain(SHORT_NOTE);
    expect(fourth!.length).toBeLessThan(third!.length + 2);
  });
});
