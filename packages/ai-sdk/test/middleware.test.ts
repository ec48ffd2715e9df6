import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateConversation, type ContextHost } from "@context-engine/core";
import { expectCompressedLoop, useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, FINAL_ANSWER, lcmHost, PAST_THRESHOLD_TOKENS, readNote, scriptToolLoop, sentMessages, SYSTEM_PROMPT, USER_ASK } from "../../../test/support/toolLoopScenario.js";
import { createAiSdkAdapter, type AiSdkAdapter, type AiSdkCompressionEvent } from "../src/index.js";
import { responseMessages } from "./responseMessages.js";

const loop = useToolLoopFixture();

/** The loopback server's model wrapped with the adapter's middleware. */
function wrappedModel(adapter: AiSdkAdapter) {
  const openai = createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" });
  return wrapLanguageModel({ model: openai.chat("fixture-model"), middleware: adapter.middleware() });
}

/** A conversation that already read both long notes (about 6,000 tokens), ending with the tool result of the second. */
function longHistory(): ModelMessage[] {
  const call = (id: string, path: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "readFile", input: { path } }] });
  const result = (id: string, path: string): ModelMessage => ({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "readFile", output: { type: "text", value: readNote(path) } }] });
  return [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: USER_ASK },
    call("call_zebra", "notes/zebra.txt"),
    result("call_zebra", "notes/zebra.txt"),
    call("call_yak", "notes/yak.txt"),
    result("call_yak", "notes/yak.txt"),
  ];
}

const FOLLOW_UP = "And what did the yak note say?";

describe("the AI SDK language-model middleware (wrapLanguageModel), against a loopback OpenAI server", () => {
  it("compresses a plain generateText call once the last call reported usage past the threshold, and later calls are sent the compacted conversation", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host, onCompress: (e) => events.push(e) });
    const model = wrappedModel(adapter);
    loop.server.script(
      { kind: "reply", reply: { content: "The zebra note says the herd crossed the river.", usage: { prompt_tokens: PAST_THRESHOLD_TOKENS } } },
      { kind: "reply", reply: { content: "The yak note says the same.", usage: { prompt_tokens: 1_500 } } },
      { kind: "reply", reply: { content: FINAL_ANSWER, usage: { prompt_tokens: 1_600 } } },
    );
    const history = longHistory();
    const first = await generateText({ model, messages: history, allowSystemInMessages: true });
    history.push(...responseMessages(first), { role: "user", content: FOLLOW_UP });
    const second = await generateText({ model, messages: history, allowSystemInMessages: true });
    history.push(...responseMessages(second), { role: "user", content: "Thanks." });
    const third = await generateText({ model, messages: history, allowSystemInMessages: true });
    expect(third.text).toBe(FINAL_ANSWER);

    const [before, compacted, later] = loop.server.requests.map(sentMessages);
    // without the engine the second request would be the first one plus the answer and the follow-up
    expect(compacted!.length).toBeLessThan(before!.length + 2);
    expect(validateConversation(compacted!)).toEqual([]);
    expect(compacted![0]).toMatchObject({ role: "system", content: expect.stringContaining(SYSTEM_PROMPT) });
    expect(JSON.stringify(compacted)).toContain("[CONTEXT COMPACTION]");
    expect(compacted!.at(-1)).toMatchObject({ role: "user", content: FOLLOW_UP });
    expect(later!.slice(0, compacted!.length)).toEqual(compacted);
    expect(later!.length).toBe(compacted!.length + 2);
    expect(events).toEqual([{ stepNumber: 1, messagesBefore: history.length - 2, messagesAfter: expect.any(Number), promptTokens: PAST_THRESHOLD_TOKENS, compressionCount: 1, trigger: "usage" }]);
    expect(host.engine.compressionCount).toBe(1);
    expect(host.engine.lastPromptTokens).toBe(1_600);
  });

  it("feeds the usage a streamText call reports to the engine, and compresses a streamed call too", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const adapter = createAiSdkAdapter({ host });
    const model = wrappedModel(adapter);
    loop.server.script(
      { kind: "reply", reply: { content: "The zebra note says the herd crossed the river.", usage: { prompt_tokens: PAST_THRESHOLD_TOKENS } } },
      { kind: "reply", reply: { content: "The yak note says the same.", usage: { prompt_tokens: 1_234, completion_tokens: 7 } } },
    );
    const history = longHistory();
    const first = streamText({ model, messages: history, allowSystemInMessages: true });
    expect(await first.text).toBe("The zebra note says the herd crossed the river.");
    expect(host.engine.lastPromptTokens).toBe(PAST_THRESHOLD_TOKENS);
    history.push(...(await first.response).messages, { role: "user", content: FOLLOW_UP });
    const second = streamText({ model, messages: history, allowSystemInMessages: true });
    expect(await second.text).toBe("The yak note says the same.");
    expect(loop.server.requests.every((r) => r.body?.stream === true)).toBe(true);
    const [before, compacted] = loop.server.requests.map(sentMessages);
    expect(compacted!.length).toBeLessThan(before!.length + 2);
    expect(JSON.stringify(compacted)).toContain("[CONTEXT COMPACTION]");
    expect(host.engine.compressionCount).toBe(1);
    expect([host.engine.lastPromptTokens, host.engine.lastCompletionTokens]).toEqual([1_234, 7]);
  });

  it("runs generateText's tool loop through lcm with no prepareStep: compressed past the threshold, usage fed back, lcm_grep run", async () => {
    const host = (loop.host = await lcmHost(loop.dir));
    scriptToolLoop(loop.server, "lcm_grep");
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host: host as ContextHost, onCompress: (e) => events.push(e) });
    const readFile = tool({ description: "Read a note", inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => readNote(path) });
    const result = await generateText({
      model: wrappedModel(adapter),
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: USER_ASK },
      ],
      allowSystemInMessages: true,
      tools: { readFile, ...adapter.tools },
      stopWhen: stepCountIs(8),
    });
    expect(result.text).toBe(FINAL_ANSWER);
    const { compacted } = expectCompressedLoop(loop.server, host, "lcm_grep");
    expect(events).toEqual([{ stepNumber: 2, messagesBefore: 6, messagesAfter: compacted.length, promptTokens: PAST_THRESHOLD_TOKENS, compressionCount: 1, trigger: "usage" }]);
  });
});
