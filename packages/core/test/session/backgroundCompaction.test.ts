import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { PreparationStatus } from "../../src/engine/preparation.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../src/summarizers/types.js";
import { agentRounds, roughCounter, system } from "../compressor/fixtures.js";

const SUMMARY = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
const fixture = useOpenAIFixtureServer({ kind: "delay", ms: 500, then: { kind: "success", content: SUMMARY } });
const TRIGGER = 20_000;
const PREPARING = 17_000;

let dir: string;
let path: string;
const stores: SqliteSessionStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "background-compaction-"));
  path = join(dir, "sessions.db");
});

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A worker: its own connection to the SQLite file and its own engine on the loopback summarizer. */
function worker(sessionId: string) {
  const store = openSqliteStore(path);
  stores.push(store);
  let settle: (status: PreparationStatus) => void = () => undefined;
  const settled = new Promise<PreparationStatus>((resolve) => (settle = resolve));
  const engine = new ContextCompressor({
    compression: { protect_last_n: 5, threshold_tokens: TRIGGER, prepare_at: 0.8 },
    summarizer: new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-fixture", model: "summary-model" }),
    tokenCounter: roughCounter,
    warn: () => undefined,
    onPreparation: (_id, status) => {
      if (status.state === "ready" || status.state === "failed") settle(status);
    },
  });
  return { store, engine, settled, session: new CompactionSession({ engine, store, sessionId, platform: "cli" }) };
}

function conversation(): ChatMessage[] {
  return [system("You are a coding agent."), ...agentRounds(25)];
}

describe("CompactionSession: background compaction", () => {
  it("prepares the summary below the trigger and writes it at the trigger without asking the summarizer again", async () => {
    const a = worker("s1");
    const original = conversation();
    a.session.append(original);
    const below = await a.session.maybeCompress({ promptTokens: PREPARING });
    expect(below).toMatchObject({ outcome: "not_needed", preparation: { state: "started", messages: original.length } });
    expect((await a.settled).state).toBe("ready");
    expect(fixture.current.requests.map((r) => r.answered)).toEqual([true]);

    const later = agentRounds(2, 2_000, "later");
    a.session.append(later);
    const result = await a.session.maybeCompress({ promptTokens: TRIGGER + 500 });
    expect(result.outcome).toBe("compressed");
    expect(result.report?.preparation).toEqual({ outcome: "applied" });
    expect(fixture.current.requests).toHaveLength(1);

    const blocking = await worker("reference").engine.compress(original, { currentTokens: PREPARING });
    expect(a.session.messages()).toEqual([...blocking, ...later]);
    // the compacted turns are archived as always: undo brings back every turn, once
    a.session.undoLastCompaction();
    expect(a.session.messages()).toEqual([...original, ...later]);
  });

  it("loses and repeats no turn another worker appends to the same SQLite session after the preparation", async () => {
    const a = worker("shared");
    const b = worker("shared");
    const original = conversation();
    a.session.append(original);
    await a.session.maybeCompress({ promptTokens: PREPARING });
    const fromB = agentRounds(1, 1_000, "worker-b");
    b.session.append(fromB);
    await a.settled;
    const fromA = agentRounds(1, 1_000, "worker-a");
    a.session.append(fromA);

    const result = await a.session.maybeCompress({ promptTokens: TRIGGER });
    expect(result.report?.preparation).toEqual({ outcome: "applied" });
    const after = b.session.messages();
    expect(after.slice(-(fromB.length + fromA.length))).toEqual([...fromB, ...fromA]);
    const texts = after.map((m) => JSON.stringify(m));
    for (const turn of [...fromB, ...fromA]) expect(texts.filter((t) => t === JSON.stringify(turn))).toHaveLength(1);
    expect(b.store.compactions("shared")).toHaveLength(1);
  });

  it("leaves the stored conversation unchanged when the background summary fails, and says so", async () => {
    const a = worker("s2");
    fixture.current.script({ kind: "status", status: 500 });
    const original = conversation();
    a.session.append(original);
    await a.session.maybeCompress({ promptTokens: PREPARING });
    expect((await a.settled).state).toBe("failed");
    const again = await a.session.maybeCompress({ promptTokens: PREPARING + 100 });
    expect(again).toMatchObject({ outcome: "not_needed", preparation: { state: "failed" } });
    expect(again.preparation?.reason).toMatch(/500/);
    expect(a.session.messages()).toEqual(original);
    expect(a.store.compactions("s2")).toEqual([]);
    expect(a.session.session().compressionCount).toBe(0);
  });
});
