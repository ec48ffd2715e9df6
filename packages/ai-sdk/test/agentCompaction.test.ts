import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { ContextHost } from "@context-engine/core";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { ANSWER_AFTER_COMPACTION, agentCompactionHost, earlierTurns, FOCUS, LATER_ANSWER, LATER_ASK, scriptAgentCompaction } from "../../../test/support/agentCompactionScenario.js";
import { expectAgentCompactionLoop } from "../../../test/support/expectAgentCompaction.js";
import { responseMessages } from "./responseMessages.js";
import { createAiSdkAdapter, toModelMessages, type AiSdkCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

/** The loop (the model calls compact_context, then answers), then a later user turn with the whole history. */
async function runLoop(host: ContextHost) {
  const events: AiSdkCompressionEvent[] = [];
  const adapter = createAiSdkAdapter({ host, onCompress: (event) => events.push(event) });
  const model = createOpenAI({ baseURL: loop.server.baseUrl, apiKey: "fixture-key" }).chat("fixture-model");
  const call = (messages: ModelMessage[]) =>
    generateText({ model, messages, allowSystemInMessages: true, tools: adapter.tools, stopWhen: stepCountIs(4), prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish });
  const history = toModelMessages(earlierTurns());
  const first = await call(history);
  const later = await call([...history, ...responseMessages(first), { role: "user", content: LATER_ASK }]);
  return { events, first, later };
}

describe("compact_context in generateText's tool loop, against a loopback OpenAI server as model and summarizer", () => {
  it("compacts before the next step with the model's focus sent to the summarizer, below the trigger", async () => {
    const host = (loop.host = await agentCompactionHost(loop.dir, loop.server, false));
    scriptAgentCompaction(loop.server);
    const { events, first, later } = await runLoop(host);
    expect(first.text).toBe(ANSWER_AFTER_COMPACTION);
    expect(later.text).toBe(LATER_ANSWER);
    expectAgentCompactionLoop(loop.server, false);
    expect(events).toMatchObject([{ stepNumber: 1, trigger: "agent", compressionCount: 1 }]);
    expect(host.engine.getStatus().lastCompaction).toMatchObject({ focus: FOCUS, fallbackUsed: false });
  });

  it("with compaction_notice on, appends the notice to the next user turn only, the tool result left as it was", async () => {
    const host = (loop.host = await agentCompactionHost(loop.dir, loop.server, true));
    scriptAgentCompaction(loop.server);
    await runLoop(host);
    expectAgentCompactionLoop(loop.server, true);
  });
});
