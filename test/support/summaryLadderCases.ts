/**
 * The failure ladder's cases for any LLM summarizer over a model client (`LlmSummarizer`: the OpenAI-
 * compatible and Anthropic ones, an AI SDK model, a LangChain chat model), run through the built-in
 * compressor against a loopback server speaking the model's API: the summary used and its call metered
 * with the API's tokens at the model's price, a short Retry-After retried, a failing model retried then
 * replaced by the offline summary, an auth failure keeping the conversation, a timeout, the verbatim guard.
 */
import { leakedSecrets, withLeakedSecrets } from "./secrets.js";
import { expect, it } from "vitest";
import { ContextCompressor, RoughTokenCounter, SUMMARY_SECTIONS, type ChatMessage, type Summarizer } from "@context-engine/core";
import { findLatestSummary } from "@context-engine/core/compressor";
import { lookupModelPrice, MeteredSummarizer, requestCostUsd } from "@context-engine/core/lab";
import { LlmSummarizer } from "@context-engine/core/summarizers";
import type { FixtureServer } from "./loopbackFixtureServer.js";
import { toolRounds } from "./toolRounds.js";

/** The summarizer under test and the loopback it calls. */
export interface LadderSubject {
  /** The test file's loopback server (useOpenAIFixtureServer, useAnthropicFixtureServer). */
  server: { readonly current: FixtureServer };
  /** A summarizer whose model client calls the server, each call bounded by `timeoutMs`. */
  summarizer(options: { timeoutMs: number }): Summarizer;
  /** Its name in the compression report (`<provider>:<model>`). */
  name: string;
  /** The model its calls are reported and priced at. */
  model: string;
}

/** A summary in the template, a command the turns hold and a path they do not. */
export const MODEL_SUMMARY = [...SUMMARY_SECTIONS.map((heading) => `${heading}\n- from the model`), "- ran `make 3`", "- edited src/invented_module.py"].join("\n");
const USAGE = { prompt_tokens: 1_234, completion_tokens: 56 };
const counter = new RoughTokenCounter();

/** Ten tool rounds whose results are long enough that a summary of the middle makes the conversation smaller. */
export function ladderRounds(): ChatMessage[] {
  return toolRounds(10).map((m) => (m.role === "tool" ? { ...m, content: `${String(m.content)}\n${"error: build step failed at src/build.rs\n".repeat(60)}` } : m));
}

/** The built-in compressor over `summarizer`, sized so that {@link ladderRounds} compacts when forced. */
export function ladderCompressor(summarizer: Summarizer): ContextCompressor {
  return new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 1_000 }, summarizer, tokenCounter: counter });
}

/** Declares the ladder's tests for `subject` in the calling `describe`. */
export function summaryLadderCases(subject: LadderSubject): void {
  const server = () => subject.server.current;

  it("sends the model no secret of the redaction list: provider, GitHub, AWS and Slack keys, a JSON Web Token, passwords", async () => {
    server().setDefault({ kind: "success", content: MODEL_SUMMARY });
    const engine = ladderCompressor(subject.summarizer({ timeoutMs: 5_000 }));
    await engine.compress(withLeakedSecrets(ladderRounds()), { force: true });
    expect(leakedSecrets(server().requests)).toEqual([]);
  });

  it("uses the model's summary, checked by the verbatim guard, and meters its call with the tokens the API reported at the model's price", async () => {
    server().script({ kind: "reply", reply: { content: MODEL_SUMMARY, usage: USAGE } });
    const metered = new MeteredSummarizer(subject.summarizer({ timeoutMs: 5_000 }), counter);
    const engine = ladderCompressor(metered);
    const out = await engine.compress(ladderRounds(), { force: true });
    const summary = findLatestSummary(out)!;
    expect(summary).toContain("- from the model");
    expect(summary).toContain("`make 3`");
    expect(summary).not.toContain("invented_module");
    expect(engine.lastCompression).toMatchObject({ summarizer: subject.name, fallbackUsed: false, aborted: false, summaryCalls: { calls: 1, inputTokens: 1_234, outputTokens: 56 } });
    expect(engine.lastCompression!.verbatim!.removed + engine.lastCompression!.verbatim!.flagged).toBeGreaterThanOrEqual(1);
    expect(server().requests).toHaveLength(1);
    expect(metered.calls).toEqual([{ inputTokens: 1_234, outputTokens: 56 }]);
    expect(metered.inner).toBeInstanceOf(LlmSummarizer);
    expect((metered.inner as LlmSummarizer).model).toBe(subject.model);
    const price = lookupModelPrice(subject.model)!;
    expect(price).toBeDefined();
    const cost = requestCostUsd({ uncachedInputTokens: 1_234, cacheReadTokens: 0, cacheWriteTokens: { "5m": 0, "1h": 0 }, outputTokens: 56 }, price);
    expect(cost).toBeCloseTo((1_234 * price.input + 56 * price.output) / 1e6, 12);
  });

  it("waits out a rate limit that asks for a short Retry-After and retries the model once", async () => {
    server().script({ kind: "status", status: 429, headers: { "retry-after": "0" }, body: undefined }, { kind: "reply", reply: { content: MODEL_SUMMARY, usage: USAGE } });
    const engine = ladderCompressor(subject.summarizer({ timeoutMs: 5_000 }));
    const out = await engine.compress(ladderRounds(), { force: true });
    expect(findLatestSummary(out)).toContain("- from the model");
    expect(server().requests).toHaveLength(2);
    expect(engine.lastCompression).toMatchObject({ summarizer: subject.name, fallbackUsed: false });
  });

  it("retries a failing model once, then writes the offline summary and cools down", async () => {
    server().setDefault({ kind: "status", status: 503, headers: { "retry-after": "0" } });
    const engine = ladderCompressor(subject.summarizer({ timeoutMs: 5_000 }));
    const out = await engine.compress(ladderRounds(), { force: true });
    expect(server().requests).toHaveLength(2);
    expect(findLatestSummary(out)).toContain("## Goal");
    expect(engine.lastCompression).toMatchObject({ summarizer: "extractive", fallbackUsed: true, aborted: false, cooldownSeconds: 60 });
    expect(engine.lastCompression!.fallbackReason).toMatch(/server error/);
    expect(engine.shouldCompressInfo(50_000).reason).toBe("cooldown");
  });

  it("keeps the conversation as it was when the API refuses the key", async () => {
    server().script({ kind: "status", status: 401 });
    const engine = ladderCompressor(subject.summarizer({ timeoutMs: 5_000 }));
    const messages = ladderRounds();
    expect(await engine.compress(messages, { force: true })).toBe(messages);
    expect(engine.lastCompression).toMatchObject({ aborted: true, failureKind: "auth" });
    expect(engine.lastCompression!.abortReason).toMatch(/401/);
  });

  it("falls back to the offline summary when the model does not answer within the timeout", async () => {
    server().script({ kind: "hang" });
    const engine = ladderCompressor(subject.summarizer({ timeoutMs: 300 }));
    const out = await engine.compress(ladderRounds(), { force: true });
    expect(findLatestSummary(out)).toContain("## Goal");
    expect(engine.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 60 });
    expect(engine.lastCompression!.fallbackReason).toMatch(/timed out/);
  });
}
