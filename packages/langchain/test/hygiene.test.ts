import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { validateConversation, type ContextHost } from "@context-engine/core";
import { hygieneThresholdTokens } from "@context-engine/core/session";
import { useToolLoopFixture } from "../../../test/support/expectToolLoop.js";
import { compressorHost, CONTEXT_LENGTH, sentMessages } from "../../../test/support/toolLoopScenario.js";
import { RESUMED_ASK, resumedSession, shareOfHygieneThreshold, shortSession, type StoredTurn } from "../../../test/support/resumedSession.js";
import { contextEngineMiddleware, type LangChainCompressionEvent } from "../src/index.js";

const loop = useToolLoopFixture();

const FOLLOW_UP = "And the yak?";

/** The stored turns as LangChain messages: no answer carries usage_metadata (nothing was reported yet). */
function baseMessages(turns: readonly StoredTurn[]): BaseMessage[] {
  return turns.map((t) => (t.role === "system" ? new SystemMessage(t.content) : t.role === "user" ? new HumanMessage(t.content) : new AIMessage(t.content)));
}

/** A createAgent agent through the loopback server, invoked twice: the resumed session, then its state plus a follow-up. */
async function twoInvocations(host: ContextHost, turns: readonly StoredTurn[], events: LangChainCompressionEvent[]) {
  const agent = createAgent({
    model: new ChatOpenAI({ model: "fixture-model", apiKey: "fixture-key", configuration: { baseURL: loop.server.baseUrl } }),
    tools: [],
    middleware: [contextEngineMiddleware({ host, onCompress: (event) => events.push(event) })],
  });
  loop.server.script(
    { kind: "reply", reply: { content: "At dawn the herd crossed the river.", usage: { prompt_tokens: 2_000 } } },
    { kind: "reply", reply: { content: "The yaks did the same.", usage: { prompt_tokens: 2_100 } } },
  );
  const first = await agent.invoke({ messages: baseMessages(turns) });
  await agent.invoke({ messages: [...first.messages, new HumanMessage(FOLLOW_UP)] });
  const [firstSent, secondSent] = loop.server.requests.map(sentMessages);
  return { state: first, firstSent: firstSent!, secondSent: secondSent! };
}

describe("the LangChain middleware before any usage is reported (gateway hygiene), in createAgent against a loopback OpenAI server", () => {
  it("sends a short first call unchanged, compacts one already far past 85 % of the window, keeps the compacted conversation in the agent's state, and later calls build on it", async () => {
    const host = (loop.host = await compressorHost(loop.dir));
    const events: LangChainCompressionEvent[] = [];
    const short = shortSession();
    expect((await twoInvocations(host, short, events)).firstSent).toEqual(short);
    expect(events).toEqual([]);
    loop.server.requests.length = 0;

    const turns = resumedSession();
    expect(shareOfHygieneThreshold(turns)).toBeGreaterThan(2);
    const { state, firstSent, secondSent } = await twoInvocations(host, turns, events);

    expect(firstSent.length).toBeLessThan(turns.length);
    expect(validateConversation(firstSent)).toEqual([]);
    expect(JSON.stringify(firstSent)).toContain("[CONTEXT COMPACTION]");
    expect(firstSent.at(-1)).toMatchObject({ role: "user", content: RESUMED_ASK });
    expect(events).toEqual([{ messagesBefore: turns.length, messagesAfter: firstSent.length, promptTokens: expect.any(Number), compressionCount: 1, trigger: "hygiene" }]);
    expect(events[0]!.promptTokens).toBeGreaterThanOrEqual(hygieneThresholdTokens(CONTEXT_LENGTH));
    // the agent's state holds the compacted conversation and the answer; the next call is that plus the follow-up
    expect(state.messages).toHaveLength(firstSent.length + 1);
    expect(secondSent.slice(0, firstSent.length)).toEqual(firstSent);
    expect(secondSent.length).toBe(firstSent.length + 2);
    expect(host.engine.compressionCount).toBe(1);
    expect(host.engine.lastPromptTokens).toBe(2_100);
  });
});
