import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { SUMMARY_PREFIX, parseSummaryMessage } from "../../src/compressor/earlierSummaries.js";
import { validateConversation } from "../../src/messages/validate.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../../test/support/openaiFixtureServer.js";
import { fastApiConversation, roughCounter } from "./fixtures.js";

const SPEC_EXAMPLE = { protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };
const LLM_SUMMARY = SUMMARY_SECTIONS.map((h) => `${h}\n- from the model`).join("\n");

let server: FixtureServer;
let clock: number;

beforeAll(async () => {
  server = await startOpenAIFixtureServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.setDefault({ kind: "success", content: LLM_SUMMARY });
  clock = 5_000_000;
});

function engine(options: { timeoutMs?: number; compression?: Record<string, unknown> } = {}): ContextCompressor {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "summary-model", timeoutMs: options.timeoutMs ?? 5_000 });
  return new ContextCompressor({ compression: { ...SPEC_EXAMPLE, ...options.compression }, summarizer, tokenCounter: roughCounter, now: () => clock });
}

describe("failure ladder against a real OpenAI-compatible endpoint", () => {
  it("uses the model's summary when the endpoint answers", async () => {
    const e = engine();
    const before = server.requests.length;
    const out = await e.compress(fastApiConversation());
    expect(server.requests.length).toBe(before + 1);
    expect(String(out[2]!.content)).toContain("- from the model");
    expect(e.lastCompression).toMatchObject({ summarizer: "openai:summary-model", fallbackUsed: false, aborted: false });
  });

  it("falls back to the extractive summary on a 500 and marks it as fallback", async () => {
    server.script({ kind: "status", status: 500 });
    const e = engine();
    const out = await e.compress(fastApiConversation());
    expect(out).toHaveLength(8);
    expect(validateConversation(out)).toEqual([]);
    const summary = parseSummaryMessage(out[2]!)!.summary;
    expect(summary).not.toContain("from the model");
    expect(summary).toContain("## Goal");
    expect(e.lastCompression).toMatchObject({ fallbackUsed: true, summarizer: "extractive", aborted: false, cooldownSeconds: 60 });
    expect(e.shouldCompressInfo(50_000).reason).toBe("cooldown");
  });

  it("returns the input unchanged and reports why on a 401", async () => {
    server.script({ kind: "status", status: 401 });
    const e = engine();
    const messages = fastApiConversation();
    const out = await e.compress(messages);
    expect(out).toBe(messages);
    expect(e.lastCompression).toMatchObject({ aborted: true, failureKind: "auth", messagesAfter: 45, droppedMessages: 0 });
    expect(e.lastCompression!.abortReason).toMatch(/401/);
    expect(e.compressionCount).toBe(0);
    // during the cooldown an automatic compaction does not call the endpoint again
    const before = server.requests.length;
    expect(await e.compress(messages)).toBe(messages);
    expect(server.requests.length).toBe(before);
    expect(e.lastCompression).toMatchObject({ aborted: true, failureKind: "cooldown" });
  });

  it("aborts when the endpoint drops the connection (network failure)", async () => {
    server.script({ kind: "reset" });
    const e = engine();
    const messages = fastApiConversation();
    expect(await e.compress(messages)).toBe(messages);
    expect(e.lastCompression).toMatchObject({ aborted: true, failureKind: "network" });
  });

  it("falls back on a timeout, cools down 60 then 300 seconds, and force clears the cooldown", async () => {
    server.setDefault({ kind: "hang" });
    const e = engine({ timeoutMs: 300 });
    const first = await e.compress(fastApiConversation());
    expect(first).toHaveLength(8);
    expect(e.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 60 });
    expect(e.lastCompression!.fallbackReason).toMatch(/timed out/);
    expect(e.shouldCompressInfo(50_000)).toMatchObject({ should: false, reason: "cooldown", cooldownRemainingMs: 60_000 });

    // still cooling down: the fallback runs without calling the endpoint
    const before = server.requests.length;
    await e.compress(fastApiConversation());
    expect(server.requests.length).toBe(before);
    expect(e.lastCompression!.fallbackUsed).toBe(true);

    clock += 61_000;
    await e.compress(fastApiConversation(), { force: true });
    expect(server.requests.length).toBe(before + 1);
    expect(e.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 300 });

    server.setDefault({ kind: "success", content: LLM_SUMMARY });
    const out = await e.compress(fastApiConversation(), { force: true });
    expect(String(out[2]!.content)).toContain("- from the model");
    expect(e.shouldCompressInfo(50_000).cooldownRemainingMs).toBe(0);
  });

  it("falls back when the endpoint returns an empty summary or something that is not JSON", async () => {
    for (const kind of ["empty", "garbage"] as const) {
      server.script({ kind });
      const e = engine();
      const out = await e.compress(fastApiConversation());
      expect(String(out[2]!.content).startsWith(SUMMARY_PREFIX)).toBe(true);
      expect(e.lastCompression, kind).toMatchObject({ fallbackUsed: true, summarizer: "extractive" });
    }
  });

  it("cools down 30 seconds, not 60, when the main model answers with a body that is not JSON", async () => {
    server.script({ kind: "garbage" });
    const e = engine();
    await e.compress(fastApiConversation());
    expect(e.lastCompression).toMatchObject({ fallbackUsed: true, cooldownSeconds: 30 });
    expect(e.shouldCompressInfo(50_000)).toMatchObject({ should: false, reason: "cooldown", cooldownRemainingMs: 30_000 });
  });

  it("aborts on a 500 when abort_on_summary_failure is set", async () => {
    server.script({ kind: "status", status: 500 });
    const e = engine({ compression: { abort_on_summary_failure: true } });
    const messages = fastApiConversation();
    expect(await e.compress(messages)).toBe(messages);
    expect(e.lastCompression).toMatchObject({ aborted: true, failureKind: "server" });
  });

  it("returns the input unchanged when the caller aborts the summary request", async () => {
    server.script({ kind: "hang" });
    const e = engine();
    const messages = fastApiConversation();
    const controller = new AbortController();
    const pending = e.compress(messages, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toBe(messages);
    expect(e.lastCompression).toMatchObject({ aborted: true, failureKind: "aborted", cooldownSeconds: 0 });
  });
});
