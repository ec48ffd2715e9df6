import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import type { FixtureStep } from "../../../../test/support/openaiFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { PreparationStatus } from "../../src/engine/preparation.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { agentRounds, roughCounter, system } from "./fixtures.js";

const SUMMARY = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
const SLOW: FixtureStep = { kind: "delay", ms: 500, then: { kind: "success", content: SUMMARY } };
const fixture = useOpenAIFixtureServer(SLOW);

/** Trigger 20,000 tokens; the summary is prepared from 16,000 on. */
const TRIGGER = 20_000;
const PREPARING = 17_000;

/** An engine on the loopback summarizer, and a promise of its next settled preparation (ready or failed). */
function engine(compression: Record<string, unknown> = { prepare_at: 0.8 }, warnings: string[] = []) {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
  let settle: (status: PreparationStatus) => void = () => undefined;
  const settled = new Promise<PreparationStatus>((resolve) => (settle = resolve));
  const compressor = new ContextCompressor({
    compression: { protect_last_n: 5, threshold_tokens: TRIGGER, ...compression },
    summarizer,
    tokenCounter: roughCounter,
    warn: (message) => warnings.push(message),
    onPreparation: (_session, status) => {
      if (status.state === "ready" || status.state === "failed") settle(status);
    },
  });
  return { compressor, settled };
}

function conversation(): ChatMessage[] {
  return [system("You are a coding agent."), ...agentRounds(25)];
}

describe("background compaction (compression.prepare_at)", () => {
  it("applies the summary prepared in the background at the trigger without asking the summarizer again", async () => {
    const { compressor, settled } = engine();
    const snapshot = conversation();
    // the call returns before the summarizer answers: the agent goes on
    expect(compressor.prepareCompression(snapshot, { currentTokens: PREPARING })).toMatchObject({ state: "started", messages: snapshot.length });
    expect(compressor.prepareCompression(snapshot, { currentTokens: PREPARING }).state).toBe("pending");
    expect((await settled).state).toBe("ready");
    // the summarizer has answered before the trigger fires; the trigger asks it nothing more
    expect(fixture.current.requests.map((r) => r.answered)).toEqual([true]);

    const later = agentRounds(2, 2_000, "later");
    const output = await compressor.compress([...snapshot, ...later], { currentTokens: TRIGGER + 500 });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "applied" });
    expect(fixture.current.requests).toHaveLength(1);

    // the same as a blocking compaction of the prepared range, followed by the turns appended since
    const blocking = await engine().compressor.compress(snapshot, { currentTokens: PREPARING });
    expect(output).toEqual([...blocking, ...later]);
    expect(compressor.compressionCount).toBe(1);
  });

  it("keeps every turn appended after the preparation after the summary, once and in order", async () => {
    const { compressor, settled } = engine();
    const snapshot = conversation();
    compressor.prepareCompression(snapshot, { currentTokens: PREPARING });
    // turns arrive while the summary is still being written
    const later = agentRounds(3, 1_000, "later");
    const output = await compressor.compress([...snapshot, ...later], { currentTokens: TRIGGER });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "awaited" });
    expect((await settled).state).toBe("ready");
    expect(fixture.current.requests).toHaveLength(1);
    const summaryAt = output.findIndex((m) => typeof m.content === "string" && m.content.includes("## Goal"));
    expect(summaryAt).toBeGreaterThan(0);
    expect(output.slice(-later.length)).toEqual(later);
    const texts = output.map((m) => JSON.stringify(m));
    for (const turn of later) expect(texts.filter((t) => t === JSON.stringify(turn))).toHaveLength(1);
  });

  it("reports a summarizer failure in the background and leaves the conversation and the engine unchanged", async () => {
    const warnings: string[] = [];
    const { compressor, settled } = engine({ prepare_at: 0.8 }, warnings);
    fixture.current.script({ kind: "status", status: 500 });
    const snapshot = conversation();
    const copy = structuredClone(snapshot);
    compressor.prepareCompression(snapshot, { currentTokens: PREPARING });
    const failed = await settled;
    expect(failed.state).toBe("failed");
    expect(failed.reason).toMatch(/500/);
    expect(warnings.join("\n")).toMatch(/prepared in the background failed.*unchanged/);
    // nothing changed: no compaction, no cooldown, no summary kept
    expect(snapshot).toEqual(copy);
    expect(compressor.compressionCount).toBe(0);
    expect(compressor.previousSummary).toBeUndefined();
    expect(compressor.shouldCompressInfo(TRIGGER).reason).toBe("ok");
    // the failure is not retried for the same range; the trigger compacts the blocking way
    expect(compressor.prepareCompression(snapshot, { currentTokens: PREPARING }).state).toBe("failed");
    fixture.current.setDefault({ kind: "success", content: SUMMARY });
    const output = await compressor.compress(snapshot, { currentTokens: TRIGGER });
    expect(compressor.lastCompression?.preparation?.outcome).toBe("failed");
    expect(compressor.lastCompression?.aborted).toBe(false);
    expect(output.length).toBeLessThan(snapshot.length);
    expect(fixture.current.requests).toHaveLength(2);
  });

  it("falls back to the blocking compaction when the prepared range changed", async () => {
    const { compressor, settled } = engine();
    const snapshot = conversation();
    compressor.prepareCompression(snapshot, { currentTokens: PREPARING });
    await settled;
    fixture.current.setDefault({ kind: "success", content: SUMMARY });
    const edited = snapshot.map((m, i) => (i === 5 ? { ...m, content: "an edited turn" } : m));
    const output = await compressor.compress(edited, { currentTokens: TRIGGER });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "stale", reason: "message 5 changed after its summary was prepared" });
    expect(fixture.current.requests).toHaveLength(2);
    expect(output).toEqual(await engine().compressor.compress(edited, { currentTokens: TRIGGER }));
  });

  it("summarizes only the turns that came since when they alone would keep the conversation at the trigger", async () => {
    const { compressor, settled } = engine();
    const snapshot = conversation();
    compressor.prepareCompression(snapshot, { currentTokens: PREPARING });
    await settled;
    fixture.current.setDefault({ kind: "success", content: SUMMARY });
    const later = agentRounds(40, 2_000, "later");
    const output = await compressor.compress([...snapshot, ...later], { currentTokens: 45_000 });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "updated" });
    expect(fixture.current.requests).toHaveLength(2);
    const prompt: string = fixture.current.requests[1]!.body.messages[0].content;
    expect(prompt).toContain("PREVIOUS SUMMARY");
    expect(prompt).toContain("src/later_0.ts");
    expect(prompt).not.toContain("src/round_5.ts");
    expect(output.at(-1)).toEqual(later.at(-1));
    expect(compressor.compressionCount).toBe(1);
  });

  it("keeps the prepared summary usable when the onPreparation listener throws", async () => {
    const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" });
    const compressor = new ContextCompressor({
      compression: { protect_last_n: 5, threshold_tokens: TRIGGER, prepare_at: 0.8 },
      summarizer,
      tokenCounter: roughCounter,
      onPreparation: () => {
        throw new Error("a broken listener");
      },
    });
    const snapshot = conversation();
    expect(compressor.prepareCompression(snapshot, { currentTokens: PREPARING }).state).toBe("started");
    await compressor.compress(snapshot, { currentTokens: TRIGGER });
    expect(compressor.lastCompression?.preparation).toEqual({ outcome: "awaited" });
    expect(compressor.lastCompression?.aborted).toBe(false);
  });

  it("prepares nothing below the preparation point, nor when prepare_at is unset", () => {
    const { compressor } = engine();
    expect(compressor.prepareCompression(conversation(), { currentTokens: 15_000 }).state).toBe("not_due");
    expect(compressor.prepareCompression(conversation(), { currentTokens: TRIGGER }).state).toBe("not_due");
    expect(engine({}).compressor.prepareCompression(conversation(), { currentTokens: PREPARING }).state).toBe("off");
    expect(fixture.current.requests).toHaveLength(0);
  });

  it("reports the running preparation instead of starting another while its range still starts the conversation", async () => {
    const { compressor, settled } = engine();
    const snapshot = conversation();
    compressor.prepareCompression(snapshot, { currentTokens: PREPARING });
    expect(compressor.prepareCompression([...snapshot, ...agentRounds(1, 500, "later")], { currentTokens: PREPARING + 500 }).state).toBe("pending");
    await settled;
    expect(compressor.prepareCompression(snapshot, { currentTokens: PREPARING }).state).toBe("ready");
    expect(fixture.current.requests).toHaveLength(1);
  });
});
