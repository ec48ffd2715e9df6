import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer } from "@context-engine/core";
import { useOpenAIFixtureServer } from "../../../test/support/useOpenAIFixtureServer.js";
import type { LcmEngine } from "../src/engine.js";
import { conversation, makeEngine, tempDir } from "./support.js";

const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 200, then: { kind: "success", content: "Goal: keep the module invariants. Done: reviewed the modules." } });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** Window 4,000 tokens: trigger 3,000, the compaction prepared from 2,400 on. */
const PREPARING = 2_600;
const TRIGGER = 3_100;

/** An engine in its own folder of the test's temp dir, summarizing on the loopback server. */
function engine(name: string, warn: (message: string) => void = () => undefined): LcmEngine {
  const summarizer = new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model", timeoutMs: 5_000 });
  mkdirSync(join(dir, name));
  return makeEngine(join(dir, name), { summarizer, prepareAt: 0.8, warn });
}

async function settled(lcm: LcmEngine): Promise<string> {
  for (let i = 0; i < 250 && ["started", "pending"].includes(lcm.preparationStatus().state); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return lcm.preparationStatus().state;
}

describe("lcm: background compaction (compression.prepare_at)", () => {
  it("runs the compaction dry below the trigger, commits nothing, and commits its passes at the trigger without asking again", async () => {
    const lcm = engine("prepared");
    const history = conversation(12);
    expect(lcm.prepareCompression(history, { currentTokens: PREPARING }).state).toBe("started");
    expect(await settled(lcm)).toBe("ready");
    const asked = fixture.current.requests.length;
    expect(asked).toBeGreaterThan(0);
    expect(fixture.current.requests.every((r) => r.answered)).toBe(true);
    // the dry run stored the turns (as every lcm call does) but committed no summary
    expect(lcm.store.allSummaries("default")).toEqual([]);

    const later = conversation(1, { system: false, from: 12 });
    const output = await lcm.compress([...history, ...later], { currentTokens: TRIGGER });
    const outcome = lcm.lastCompaction!;
    expect(outcome.passes).toBeGreaterThan(0);
    expect(outcome.preparedSummaries).toBe(outcome.created.length);
    expect(fixture.current.requests).toHaveLength(asked);

    // the context a blocking compaction of the prepared range gives, followed by the later turns
    const blocking = engine("blocking");
    await blocking.compress(history, { currentTokens: TRIGGER });
    await blocking.ingest(later);
    expect(output).toEqual(await blocking.assemble(history.slice(0, 1)));
    lcm.close();
    blocking.close();
  });

  it("summarizes only what is new when the turns appended since keep the context at the trigger", async () => {
    const lcm = engine("growing");
    const history = conversation(12);
    lcm.prepareCompression(history, { currentTokens: PREPARING });
    expect(await settled(lcm)).toBe("ready");
    const asked = fixture.current.requests.length;
    const later = conversation(12, { system: false, from: 12 });
    await lcm.compress([...history, ...later], { currentTokens: 6_000 });
    const outcome = lcm.lastCompaction!;
    expect(outcome.preparedSummaries).toBeGreaterThan(0);
    expect(outcome.created.length).toBeGreaterThan(outcome.preparedSummaries!);
    expect(fixture.current.requests.length - asked).toBe(outcome.created.length - outcome.preparedSummaries!);
    expect(outcome.tokensAfter).toBeLessThan(3_000);
    lcm.close();
  });

  it("does not make a compaction queued before the preparation wait for it", async () => {
    const lcm = engine("queued");
    const history = conversation(12);
    const compacting = lcm.compress(history, { currentTokens: TRIGGER, sessionId: "default" });
    lcm.prepareCompression(history, { currentTokens: PREPARING, sessionId: "default" });
    await compacting;
    expect(lcm.lastCompaction?.passes).toBeGreaterThan(0);
    expect(lcm.lastCompaction?.preparedSummaries).toBeUndefined();
    await settled(lcm);
    lcm.close();
  });

  it("reports a summarizer failure in the dry run and changes nothing: no summary, no pause", async () => {
    const warnings: string[] = [];
    const lcm = engine("failing", (message) => warnings.push(message));
    fixture.current.setDefault({ kind: "status", status: 500 });
    const history = conversation(12);
    lcm.prepareCompression(history, { currentTokens: PREPARING });
    expect(await settled(lcm)).toBe("failed");
    expect(lcm.preparationStatus().reason).toMatch(/500/);
    expect(warnings.join("\n")).toMatch(/prepared in the background failed.*nothing was changed/);
    expect(lcm.store.allSummaries("default")).toEqual([]);
    expect(lcm.summarizerPausedUntil).toBe(0);
    expect(lcm.compressionCount).toBe(0);
    lcm.close();
  });
});
