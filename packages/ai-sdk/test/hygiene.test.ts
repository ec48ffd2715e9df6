import { createOpenAI } from "@ai-sdk/openai";
import { generateText, wrapLanguageModel, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { validateConversation, type ChatMessage } from "@context-engine/core";
import { hygieneThresholdTokens } from "@context-engine/core/session";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, CONTEXT_LENGTH, sentMessages } from "../../../test/support/toolLoopScenario.js";
import { RESUMED_ASK, resumedSession, shareOfHygieneThreshold, shortSession, type StoredTurn } from "../../../test/support/resumedSession.js";
import { createAiSdkAdapter, type AiSdkAdapter, type AiSdkCompressionEvent } from "../src/index.js";
import { responseMessages } from "./responseMessages.js";

const loop = useToolLoopFixture();

const FOLLOW_UP = "And the yak?";

function modelMessages(turns: readonly StoredTurn[]): ModelMessage[] {
  return turns.map((t) => ({ role: t.role, content: t.content }) as ModelMessage);
}

function chatModel() {
  return createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" }).chat("fixture-model");
}

/** Two generateText calls (the resumed history, then it plus the answer and a follow-up) through `prepareStep` or the middleware. */
async function twoCalls(adapter: AiSdkAdapter, via: "prepareStep" | "middleware", turns: readonly StoredTurn[]) {
  const model = via === "middleware" ? wrapLanguageModel({ model: chatModel(), middleware: adapter.middleware() }) : chatModel();
  const hooks = via === "prepareStep" ? { prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish } : {};
  loop.server.script(
    { kind: "reply", reply: { content: "At dawn the herd crossed the river.", usage: { prompt_tokens: 2_000 } } },
    { kind: "reply", reply: { content: "The yaks did the same.", usage: { prompt_tokens: 2_100 } } },
  );
  const history = modelMessages(turns);
  const first = await generateText({ model, messages: history, allowSystemInMessages: true, ...hooks });
  history.push(...responseMessages(first), { role: "user", content: FOLLOW_UP });
  await generateText({ model, messages: history, allowSystemInMessages: true, ...hooks });
  const [firstSent, secondSent] = loop.server.requests.map(sentMessages) as [ChatMessage[], ChatMessage[]];
  return { firstSent, secondSent };
}

describe.each(["prepareStep", "middleware"] as const)("the AI SDK adapter's %s before any usage is reported (gateway hygiene), against a loopback OpenAI server", (via) => {
  it("compacts a first call already far past 85 % of the window, and later calls reuse the compacted conversation", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const turns = resumedSession();
    expect(shareOfHygieneThreshold(turns)).toBeGreaterThan(2);
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host, onCompress: (e) => events.push(e) });
    const { firstSent, secondSent } = await twoCalls(adapter, via, turns);

    expect(firstSent.length).toBeLessThan(turns.length);
    expect(validateConversation(firstSent)).toEqual([]);
    expect(JSON.stringify(firstSent)).toContain("[CONTEXT COMPACTION]");
    expect(firstSent.at(-1)).toMatchObject({ role: "user", content: RESUMED_ASK });
    expect(events).toEqual([
      { stepNumber: 0, messagesBefore: turns.length, messagesAfter: firstSent.length, promptTokens: expect.any(Number), compressionCount: 1, trigger: "hygiene" },
    ]);
    expect(events[0]!.promptTokens).toBeGreaterThanOrEqual(hygieneThresholdTokens(CONTEXT_LENGTH));
    // the second call is the compacted conversation plus the answer and the follow-up, nothing compressed again
    expect(secondSent.slice(0, firstSent.length)).toEqual(firstSent);
    expect(secondSent.length).toBe(firstSent.length + 2);
    expect(host.engine.compressionCount).toBe(1);
    expect(host.engine.lastPromptTokens).toBe(2_100);
  });

  it("sends a short first call unchanged, and after reset() judges the next first call by the estimate again", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const events: AiSdkCompressionEvent[] = [];
    const adapter = createAiSdkAdapter({ host, onCompress: (e) => events.push(e) });
    const short = shortSession();
    const { firstSent: shortSent } = await twoCalls(adapter, via, short);
    expect(shortSent).toEqual(short);
    expect(events).toEqual([]);
    adapter.reset();
    loop.server.requests.length = 0;
    const { firstSent } = await twoCalls(adapter, via, resumedSession());
    expect(JSON.stringify(firstSent)).toContain("[CONTEXT COMPACTION]");
    expect(events.map((e) => e.trigger)).toEqual(["hygiene"]);
  });
});
