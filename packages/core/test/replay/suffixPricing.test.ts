/**
 * What `simulate` and `eval` make of a summary asked as the conversation's suffix: the replay prices its
 * input as the prefix cache serves it (the agent's cached prefix read), and the fidelity eval scores what
 * that request shows its model — the whole conversation as the agent sent it — with the summaries written
 * by a live summarizer at the loopback Messages API.
 */
import { describe, expect, it } from "vitest";
import { useAnthropicFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { CompressionConfig } from "../../src/config/schema.js";
import { evaluateFidelity } from "../../src/eval/evaluateFidelity.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { lookupModelPrice, requestCostUsd } from "../../src/providers/prices.js";
import { replayConversation } from "../../src/replay/replayConversation.js";
import { MeteredSummarizer } from "../../src/replay/summarizerMeter.js";
import { AnthropicSummarizer } from "../../src/summarizers/anthropic.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

const server = useAnthropicFixtureServer({ kind: "success", content: "## Goal\n- fix the failing handler tests\n## Progress\n### Done\n- fixed the handlers" });
const MODEL = "claude-sonnet-4-6";
const counter = new TiktokenCounter();

const SYSTEM_PROMPT = ["You are a careful coding agent working in a Python repository.", ...Array.from({ length: 200 }, (_, i) => `Rule ${i + 1}: keep module ${i} tidy and run its tests after every edit.`)].join("\n");

/** A system prompt of about 4k tokens, then `turns` × (ask, read_file call, a file body of about 900 tokens, answer); turn 3's answer a long plan naming a file only in its middle. */
function agentConversation(turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: SYSTEM_PROMPT }];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    const body = Array.from({ length: 40 }, (_, i) => `def handler_${t}_${i}(request):\n    return compute_value_${i}(request, retries=${(t * i) % 7})`).join("\n");
    messages.push({ role: "user", content: `Task ${t}: look at src/module_${t}.py and fix the failing test for handler ${t}.` });
    messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/module_${t}.py` }) } }] });
    messages.push({ role: "tool", tool_call_id: id, content: body });
    const plan = t === 3 ? `Plan for the handlers.\n${"Step: check the retries argument of each handler and its test. ".repeat(280)}\nThen edit src/deep/hidden_registry.py to register them.\n${"Step: rerun the module's tests and compare. ".repeat(180)}` : "";
    messages.push({ role: "assistant", content: `${plan}Fixed handler_${t}; tests in tests/test_module_${t}.py pass now.` });
  }
  return messages;
}

const transcript = agentConversation(30);

function metered(inner: Summarizer): MeteredSummarizer {
  return new MeteredSummarizer(inner, counter, { keepPrompts: true });
}

function engine(summarizer: Summarizer, summaryRequest: CompressionConfig["summary_request"]): ContextCompressor {
  return new ContextCompressor({ model: { model: MODEL, provider: "anthropic", baseUrl: server.current.origin, contextLength: 24_000 }, compression: { threshold_tokens: 14_000, summary_request: summaryRequest }, summarizer });
}

function liveSummarizer(): AnthropicSummarizer {
  return new AnthropicSummarizer({ apiKey: "sk-ant-fixture", baseUrl: server.current.origin, model: MODEL, timeoutMs: 5_000 });
}

async function replayWith(summaryRequest: CompressionConfig["summary_request"], inner: Summarizer = new ExtractiveSummarizer()) {
  const meter = metered(inner);
  const report = await replayConversation(transcript, { engine: engine(meter, summaryRequest), model: MODEL, provider: "anthropic", summaries: { calls: meter.calls, model: MODEL } });
  return { report, meter };
}

describe("a summary asked as the conversation's suffix, in the replay", () => {
  it("is priced as the prefix cache serves it: most of its input read from the cache, the rest written or sent, at the model's cache prices", async () => {
    const { report: suffix } = await replayWith("suffix", liveSummarizer());
    const sent = server.current.requests.map((r) => r.body);
    const s = suffix.totals.summaries!;
    expect(s.calls).toBeGreaterThan(0);
    // every summary went to the loopback model as the conversation's suffix: the agent's system prompt, then its messages and the instruction
    expect(sent).toHaveLength(s.calls);
    for (const body of sent) expect([body.system[0].text.startsWith(SYSTEM_PROMPT), body.messages.length > 3]).toEqual([true, true]);
    expect(s.suffixCalls).toBe(s.calls);
    // the input is the replay's own: the conversation as the cache served it, not the loopback's 10 reported tokens
    expect(s.inputTokens).toBeGreaterThan(10_000 * s.calls);
    expect(s.cacheReadTokens! / s.inputTokens).toBeGreaterThan(0.8);
    const price = lookupModelPrice(MODEL)!;
    const expected = requestCostUsd({ uncachedInputTokens: s.inputTokens - s.cacheReadTokens! - s.cacheWriteTokens!, cacheReadTokens: s.cacheReadTokens!, cacheWriteTokens: { "5m": s.cacheWriteTokens!, "1h": 0 }, outputTokens: s.outputTokens }, price);
    expect(s.costUsd).toBeCloseTo(expected, 12);
    expect(suffix.notes.some((note) => note.startsWith(`${s.calls} summary calls priced at ${MODEL} (each the conversation's suffix, its input as the prompt cache served it)`))).toBe(true);

    // the same replay with separate requests (priced on their prompts) sends less, but pays the input price for all of it
    const { report: separate } = await replayWith("separate");
    const p = separate.totals.summaries!;
    expect(p.suffixCalls).toBeUndefined();
    const inputCost = (t: typeof s) => requestCostUsd({ uncachedInputTokens: t.inputTokens - (t.cacheReadTokens ?? 0) - (t.cacheWriteTokens ?? 0), cacheReadTokens: t.cacheReadTokens ?? 0, cacheWriteTokens: { "5m": t.cacheWriteTokens ?? 0, "1h": 0 }, outputTokens: 0 }, price) / t.calls;
    expect(s.inputTokens / s.calls).toBeGreaterThan(p.inputTokens / p.calls);
    expect(inputCost(s)).toBeLessThan(inputCost(p));
  });

  it("prices the offline summarizer's summaries as the suffix an LLM summarizer of the conversation's model would send, and as separate prompts for another model", async () => {
    const { report: suffix } = await replayWith("suffix");
    expect(suffix.totals.summaries!.suffixCalls).toBe(suffix.totals.summaries!.calls);
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), counter, { summaryModel: "claude-haiku-4-5" });
    const other = await replayConversation(transcript, { engine: engine(meter, "suffix"), model: MODEL, provider: "anthropic", summaries: { calls: meter.calls, model: "claude-haiku-4-5" } });
    expect(other.totals.summaries!.calls).toBe(suffix.totals.summaries!.calls);
    expect(other.totals.summaries!.suffixCalls).toBeUndefined();
    expect(server.current.requests).toHaveLength(0);
  });

  it("scores what the suffix shows its model: the conversation whole, where the separate prompt cuts a long turn", async () => {
    const recall = async (summaryRequest: CompressionConfig["summary_request"]) => {
      const meter = metered(liveSummarizer());
      const report = await evaluateFidelity(transcript, { engine: engine(meter, summaryRequest), model: MODEL, provider: "anthropic", prompts: meter });
      return { recall: report.promptRecall!, prompts: meter.prompts };
    };
    const suffix = await recall("suffix");
    const separate = await recall("separate");
    // a suffix shows the whole conversation, its system prompt and kept tail too, then the instruction
    for (const [prompt] of suffix.prompts) expect([prompt!.startsWith(`[SYSTEM]: ${SYSTEM_PROMPT}`), prompt!.includes("[USER]: The conversation above is being compacted.")]).toEqual([true, true]);
    expect(suffix.prompts.flat().some((p) => p.includes("src/deep/hidden_registry.py"))).toBe(true);
    expect(separate.prompts.flat().some((p) => p.includes("src/deep/hidden_registry.py"))).toBe(false);
    expect(suffix.recall.path.total).toBe(separate.recall.path.total);
    expect(suffix.recall.path.kept).toBeGreaterThan(separate.recall.path.kept);
    expect(suffix.recall.path.kept).toBe(suffix.recall.path.total);
  });
});
