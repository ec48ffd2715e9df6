import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import type { ContextHost } from "@context-engine/core";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { ANSWER_AFTER_COMPACTION, agentCompactionHost, earlierTurns, FOCUS, LATER_ANSWER, LATER_ASK, scriptAgentCompaction } from "../../../test/support/agentCompactionScenario.js";
import { expectAgentCompactionLoop } from "../../../test/support/expectAgentCompaction.js";
import { contextEngineMiddleware, type LangChainCompressionEvent } from "../src/index.js";
import { toBaseMessages } from "../src/toBaseMessages.js";

const loop = useToolLoopFixture();

/** A createAgent agent over the loopback server with the engine's middleware (and its tools). */
function agentOf(host: ContextHost, events: LangChainCompressionEvent[]) {
  return createAgent({
    model: new ChatOpenAI({ model: "fixture-model", apiKey: "fixture-key", configuration: { baseURL: loop.server.baseUrl } }),
    tools: [],
    middleware: [contextEngineMiddleware({ host, onCompress: (event) => events.push(event) })],
  });
}

/** The loop (the model calls compact_context, then answers), then a later human turn with the whole state. */
async function runLoop(host: ContextHost) {
  const events: LangChainCompressionEvent[] = [];
  const agent = agentOf(host, events);
  const first = await agent.invoke({ messages: toBaseMessages(earlierTurns()) });
  const later = await agent.invoke({ messages: [...(first.messages as BaseMessage[]), new HumanMessage(LATER_ASK)] });
  return { events, first, later };
}

describe("compact_context in createAgent's tool loop, against a loopback OpenAI server as model and summarizer", () => {
  it("compacts before the next model call with the model's focus sent to the summarizer, below the trigger", async () => {
    const host = (loop.host = await agentCompactionHost(loop.dir, loop.server, false));
    scriptAgentCompaction(loop.server);
    const { events, first, later } = await runLoop(host);
    expect(first.messages.at(-1)?.content).toBe(ANSWER_AFTER_COMPACTION);
    expect(later.messages.at(-1)?.content).toBe(LATER_ANSWER);
    expectAgentCompactionLoop(loop.server, false);
    expect(events).toMatchObject([{ trigger: "agent", compressionCount: 1 }]);
  });

  it("with compaction_notice on, appends the notice to the next human message in the state, not to the tool message", async () => {
    const host = (loop.host = await agentCompactionHost(loop.dir, loop.server, true));
    scriptAgentCompaction(loop.server);
    const { later } = await runLoop(host);
    expectAgentCompactionLoop(loop.server, true);
    // the state keeps the notice on that message
    expect(later.messages.filter((m) => String(m.content).includes("[Context compacted"))).toHaveLength(1);
  });

  it("refuses a second request right after the compaction, telling the model how many turns are left", async () => {
    const host = (loop.host = await agentCompactionHost(loop.dir, loop.server, false));
    loop.server.script(
      { kind: "reply", reply: { toolCalls: [{ id: "call_1", name: "compact_context", arguments: {} }], usage: { prompt_tokens: 3_000 } } },
      { kind: "success", content: "## Goal\n- follow the zebra migration" },
      { kind: "reply", reply: { toolCalls: [{ id: "call_2", name: "compact_context", arguments: { focus: FOCUS } }], usage: { prompt_tokens: 2_900 } } },
      { kind: "reply", reply: { content: ANSWER_AFTER_COMPACTION, usage: { prompt_tokens: 900 } } },
    );
    const events: LangChainCompressionEvent[] = [];
    const state = await agentOf(host, events).invoke({ messages: toBaseMessages(earlierTurns()) });
    expect(state.messages.at(-1)?.content).toBe(ANSWER_AFTER_COMPACTION);
    expect(events).toHaveLength(1);
    const refusal = JSON.parse(String(state.messages.at(-2)!.content)) as Record<string, unknown>;
    expect(refusal).toMatchObject({ accepted: false, reason: "too_soon", turns_left: 1 });
    expect(refusal.message).toContain("accepts again in 1 turn(s)");
  });
});
