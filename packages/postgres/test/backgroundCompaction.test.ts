/**
 * Background compaction (`compression.prepare_at`) on PostgreSQL with two workers on one session: while
 * one worker's summary is prepared and applied, both append turns; none is lost or repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextCompressor, OpenAICompatibleSummarizer, RoughTokenCounter, SUMMARY_SECTIONS, type ChatMessage, type PreparationStatus } from "@context-engine/core";
import { CompactionSessionAsync } from "@context-engine/core/session";
import { startOpenAIFixtureServer, type FixtureServer } from "../../../test/support/openaiFixtureServer.js";
import { openPostgresStore, type PostgresSessionStore } from "../src/index.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";
import { readRounds } from "../../../test/support/toolRounds.js";

let server: TestPostgres;
let summaries: FixtureServer;
const stores: PostgresSessionStore[] = [];
beforeAll(async () => {
  server = await startTestPostgres();
  summaries = await startOpenAIFixtureServer();
  summaries.setDefault({ kind: "delay", ms: 300, then: { kind: "success", content: SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n") } });
}, 180_000);
afterAll(async () => {
  for (const store of stores) await store.close();
  await summaries?.close();
  await server?.stop();
});

const TRIGGER = 20_000;

const rounds = readRounds;

/** A worker: its own connection pool and engine, on the shared session. */
async function worker(url: string, sessionId: string) {
  const store = await openPostgresStore({ connectionString: url });
  stores.push(store);
  let settle: (status: PreparationStatus) => void = () => undefined;
  const settled = new Promise<PreparationStatus>((resolve) => (settle = resolve));
  const engine = new ContextCompressor({
    compression: { protect_last_n: 5, threshold_tokens: TRIGGER, prepare_at: 0.8 },
    summarizer: new OpenAICompatibleSummarizer({ baseUrl: summaries.baseUrl, apiKey: "sk-fixture", model: "summary-model" }),
    tokenCounter: new RoughTokenCounter(),
    onPreparation: (_id, status) => {
      if (status.state === "ready" || status.state === "failed") settle(status);
    },
  });
  return { store, settled, session: await CompactionSessionAsync.open({ engine, store, sessionId, platform: "worker" }) };
}

describe("background compaction on PostgreSQL, two workers", () => {
  it("loses and repeats no turn either worker appends while one worker's prepared summary is written and applied", async () => {
    const url = await server.createDatabase();
    const a = await worker(url, "shared");
    const b = await worker(url, "shared");
    const original: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, ...rounds(25, "round")];
    await a.session.append(original);
    const below = await a.session.maybeCompress({ promptTokens: 17_000 });
    expect(below.preparation?.state).toBe("started");

    // while the summary is written, both workers append, one round at a time, interleaved
    const fromA = rounds(3, "worker-a");
    const fromB = rounds(3, "worker-b");
    for (let i = 0; i < 3; i++) {
      await Promise.all([a.session.append(fromA.slice(i * 4, i * 4 + 4)), b.session.append(fromB.slice(i * 4, i * 4 + 4))]);
    }
    expect((await a.settled).state).toBe("ready");
    // the trigger fires on worker a while worker b goes on appending
    const late = rounds(2, "late-b");
    const [result] = await Promise.all([a.session.maybeCompress({ promptTokens: TRIGGER }), b.session.append(late.slice(0, 4)).then(() => b.session.append(late.slice(4)))]);
    expect(result.outcome).toBe("compressed");
    expect(result.report?.preparation?.outcome).toBe("applied");
    expect(summaries.requests).toHaveLength(1);

    const after = await b.session.messages();
    const texts = after.map((m) => JSON.stringify(m));
    for (const turn of [...fromA, ...fromB, ...late]) expect(texts.filter((t) => t === JSON.stringify(turn)), JSON.stringify(turn)).toHaveLength(1);
    // each worker's turns keep their order
    for (const own of [fromA, fromB, late]) {
      const at = own.map((turn) => texts.indexOf(JSON.stringify(turn)));
      expect(at).toEqual([...at].sort((x, y) => x - y));
    }
    expect(await b.store.compactions("shared")).toHaveLength(1);
  });
});
