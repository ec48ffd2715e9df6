/**
 * What workers on one store share (docs/BEHAVIOUR.md, "Many workers"), as a contract every store that
 * offers `takeEngineState` and `claimEngineState` passes — the SQLite file and the PostgreSQL database run
 * it: a background summary prepared by one worker is applied by the worker that takes the trigger, once;
 * one worker prepares a range at a time; a `compact_context` request made through one worker is honoured
 * by whichever takes the next turn, once. Each worker has its own store connection and its own engine on
 * the loopback summarizer.
 */
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../packages/core/src/compressor/ContextCompressor.js";
import type { PreparationStatus } from "../../packages/core/src/engine/preparation.js";
import type { ChatMessage } from "../../packages/core/src/messages/schema.js";
import { CompactionSessionAsync } from "../../packages/core/src/session/CompactionSessionAsync.js";
import { pendingWorkOf } from "../../packages/core/src/session/pendingWork.js";
import type { SessionStoreAsync } from "../../packages/core/src/store/types.js";
import { OpenAICompatibleSummarizer } from "../../packages/core/src/summarizers/openaiCompatible.js";
import { SUMMARY_SECTIONS } from "../../packages/core/src/summarizers/types.js";
import { RoughTokenCounter } from "../../packages/core/src/tokens/counter.js";
import type { FixtureServer } from "./openaiFixtureServer.js";
import { readRounds } from "./toolRounds.js";

/** What the contract needs of the store under test. */
export interface SharedWorkSetup {
  /** A new, empty store; each call for the same test returns a new connection to the same one. */
  newStore: () => Promise<SessionStoreAsync>;
  /** The next call of `newStore` opens a new empty store (called before each test). */
  reset: () => Promise<void>;
  /** The loopback summarizer. */
  summaries: () => FixtureServer;
}

export const SHARED_SUMMARY = SUMMARY_SECTIONS.map((h) => `${h}\n- item`).join("\n");
const TRIGGER = 20_000;
const PREPARING = 17_000;

/** A system prompt and `count` read rounds: a session that fills the window. */
function rounds(count: number): ChatMessage[] {
  return [{ role: "system", content: "You are a coding agent." }, ...readRounds(count, "r")];
}

/** Runs the contract against one kind of store. */
export function describeSharedWork(name: string, setup: SharedWorkSetup): void {
  /** A worker: its own store connection and engine (sharing through the store), and its session handle. */
  async function worker(sessionId: string, now: () => number = Date.now) {
    const store = await setup.newStore();
    let settle: (status: PreparationStatus) => void = () => undefined;
    const settled = new Promise<PreparationStatus>((resolve) => (settle = resolve));
    const warnings: string[] = [];
    const engine = new ContextCompressor({
      compression: { protect_last_n: 5, threshold_tokens: TRIGGER, prepare_at: 0.8, compact_tool: { enabled: true, min_turns_between: 1 } },
      summarizer: new OpenAICompatibleSummarizer({ baseUrl: setup.summaries().baseUrl, apiKey: "sk-fixture", model: "summary-model" }),
      tokenCounter: new RoughTokenCounter(),
      store,
      now,
      warn: (message) => warnings.push(message),
      onPreparation: (_id, status) => {
        if (status.state === "ready" || status.state === "failed") settle(status);
      },
    });
    const session = await CompactionSessionAsync.open({ engine, store, sessionId, platform: "worker" });
    return { store, engine, settled, session, warnings };
  }

  const summaryCalls = () => setup.summaries().requests.length;

  describe(name, () => {
    it("applies at the trigger on worker B the summary worker A prepared, without a summarizer call on B, and only once", async () => {
      await setup.reset();
      const a = await worker("s1");
      const b = await worker("s1");
      await a.session.append(rounds(25));
      expect((await a.session.maybeCompress({ promptTokens: PREPARING })).preparation?.state).toBe("started");
      expect((await a.settled).state).toBe("ready");
      const calls = summaryCalls();

      const result = await b.session.maybeCompress({ promptTokens: TRIGGER + 100 });
      expect(result.outcome).toBe("compressed");
      expect(result.report?.preparation).toEqual({ outcome: "applied", fromStore: true });
      expect(summaryCalls()).toBe(calls);
      expect((await b.session.messages()).some((m) => String(m.content).includes("- item"))).toBe(true);

      // A's own copy of the same range is not applied again: the conversation it would apply it to is gone
      const again = await a.engine.compress(rounds(25), { sessionId: "s1", currentTokens: TRIGGER + 100 });
      expect(a.engine.lastCompression?.preparation?.outcome).toBe("stale");
      expect(again.length).toBeGreaterThan(0);
    });

    it("prepares a range on one worker only: the other reports it pending there and waits for it at the trigger", async () => {
      await setup.reset();
      setup.summaries().setDefault({ kind: "delay", ms: 600, then: { kind: "success", content: SHARED_SUMMARY } });
      const a = await worker("s2");
      const b = await worker("s2");
      await a.session.append(rounds(25));
      expect((await a.session.maybeCompress({ promptTokens: PREPARING })).preparation?.state).toBe("started");
      const before = summaryCalls();
      const elsewhere = await b.session.maybeCompress({ promptTokens: PREPARING });
      // B's claim is refused while A prepares the range
      await new Promise((tick) => setTimeout(tick, 100));
      expect(b.engine.preparationStatus("s2")).toMatchObject({ state: "pending", reason: "another worker is preparing this range" });
      expect(elsewhere.outcome).toBe("not_needed");

      const result = await b.session.maybeCompress({ promptTokens: TRIGGER + 100 });
      expect(result.outcome).toBe("compressed");
      // still being written when the trigger came: awaited, not ready
      expect(result.report?.preparation).toEqual({ outcome: "awaited", fromStore: true });
      // one summarizer call for the range: A's
      expect(summaryCalls() - before).toBeLessThanOrEqual(1);
      expect(summaryCalls()).toBe(1);
    });

    it("does not apply another worker's summary to a conversation whose range changed, and summarizes it the blocking way", async () => {
      await setup.reset();
      const a = await worker("s3");
      await a.session.append(rounds(25));
      await a.session.maybeCompress({ promptTokens: PREPARING });
      expect((await a.settled).state).toBe("ready");
      const b = await worker("s3");
      const edited = rounds(25);
      edited[5] = { role: "user", content: "r 1: check src/other.ts instead" };
      await b.engine.compress(edited, { sessionId: "s3", currentTokens: TRIGGER + 100 });
      expect(b.engine.lastCompression?.preparation).toMatchObject({ outcome: "stale", fromStore: true, reason: "the conversation changed after its summary was prepared" });
      expect(b.engine.lastCompression?.summarizer).toBe("openai:summary-model");
    });

    it("prepares the range itself once another worker's claim has expired (a crashed preparer)", async () => {
      await setup.reset();
      setup.summaries().setDefault({ kind: "hang" });
      const a = await worker("s4");
      await a.session.append(rounds(25));
      await a.session.maybeCompress({ promptTokens: PREPARING });
      // A's summarizer call has gone out (after its claim) and hangs
      while (summaryCalls() === 0) await new Promise((tick) => setTimeout(tick, 10));
      setup.summaries().setDefault({ kind: "success", content: SHARED_SUMMARY });
      // while A's claim holds, another worker leaves the range to A
      const meanwhile = await worker("s4");
      await meanwhile.session.maybeCompress({ promptTokens: PREPARING });
      await new Promise((tick) => setTimeout(tick, 100));
      expect(meanwhile.engine.preparationStatus("s4")).toMatchObject({ state: "pending", reason: "another worker is preparing this range" });
      const later = await worker("s4", () => Date.now() + 11 * 60_000);
      expect((await later.session.maybeCompress({ promptTokens: PREPARING })).preparation?.state).toBe("started");
      expect((await later.settled).state).toBe("ready");
      a.engine.onSessionEnd("s4", []);
    });

    it("honours on worker B, at the next turn, the compact_context request the agent made through worker A, with its focus, once", async () => {
      await setup.reset();
      const a = await worker("s5");
      const b = await worker("s5");
      await a.session.append(rounds(25));
      const answer = JSON.parse(await a.session.handleToolCall("compact_context", { focus: "the parser port" })) as { accepted: boolean };
      expect(answer.accepted).toBe(true);
      expect(a.engine.getStatus().pendingCompactionRequest).toEqual({ focus: "the parser port" });
      // any reader of the store sees it pending (context-engine sessions show lists it)
      const pending = async () => pendingWorkOf((await b.store.engineStates?.("s5")) ?? []);
      expect(await pending()).toEqual([{ kind: "compact_request", engine: a.engine.name, focus: "the parser port", since: expect.any(Number) }]);

      const result = await b.session.maybeCompress({ promptTokens: 1_000 });
      expect(result.outcome).toBe("compressed");
      expect(b.engine.lastCompression?.forced).toBe(true);
      expect(setup.summaries().requests.at(-1)?.rawBody).toContain("the parser port");
      // taken once: neither worker compacts for it again
      expect((await a.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
      expect((await b.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
      expect(await pending()).toEqual([]);
    });
  });
}
