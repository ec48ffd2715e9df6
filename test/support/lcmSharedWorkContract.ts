/**
 * What lcm workers on one store share (docs/BEHAVIOUR.md, "Many workers"), as a contract every pair of
 * stores runs — the host's session store (the shared state store: take and claim) and lcm's own: a
 * `compact_context` request made through one worker is honoured by whichever takes the next turn, once; a
 * dry run's summaries answer the same requests at the trigger on another worker; one worker runs a range's
 * dry run at a time. Each worker has its own connections and its own engine on the loopback summarizer,
 * asking it as its own model (`model-a`, `model-b`), so the requests say which worker sent them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { OpenAICompatibleSummarizer } from "../../packages/core/src/summarizers/openaiCompatible.js";
import { CompactionSessionAsync } from "../../packages/core/src/session/CompactionSessionAsync.js";
import { sharedStateStoreOf } from "../../packages/core/src/store/sharedState.js";
import { pendingWorkOf } from "../../packages/core/src/session/pendingWork.js";
import type { SessionStoreAsync } from "../../packages/core/src/store/types.js";
import type { ChatMessage } from "../../packages/core/src/messages/schema.js";
import { LcmEngine } from "../../plugins/lcm/src/engine.js";
import type { LcmStoreAsync } from "../../plugins/lcm/src/store/LcmStoreAsync.js";
import { conversation, SMALL_CONFIG } from "../../plugins/lcm/test/support.js";
import type { FixtureServer, RecordedRequest } from "./openaiFixtureServer.js";

/** What the contract needs of the stores under test. */
export interface LcmSharedWorkSetup {
  /** A worker's connection to the host's session store; each call for the same test connects to the same one. */
  newSessionStore: () => Promise<SessionStoreAsync>;
  /** A worker's connection to lcm's store; each call for the same test connects to the same one. */
  newLcmStore: () => Promise<LcmStoreAsync>;
  /** The next calls open new empty stores (called before each test). */
  reset: () => Promise<void>;
  /** The loopback summarizer. */
  summaries: () => FixtureServer;
}

/** Window 4,000 tokens: trigger 3,000, the compaction prepared from 2,400 on. */
const PREPARING = 2_600;
const TRIGGER = 3_100;

/** The messages a summary request asked about, as JSON (the same for either worker's model). */
function asked(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages);
}

/** Polls until `done` or 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((tick) => setTimeout(tick, 20));
}

/** Runs the contract against one pair of stores. */
export function describeLcmSharedWork(name: string, setup: LcmSharedWorkSetup): void {
  const engines: LcmEngine<LcmStoreAsync>[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
  });

  /** A worker: its own store connections and lcm engine (sharing through the session store unless `shared` is false). */
  async function worker(model: string, shared = true) {
    const store = await setup.newSessionStore();
    const engine = new LcmEngine<LcmStoreAsync>({
      store: await setup.newLcmStore(),
      ownsStore: true,
      config: SMALL_CONFIG,
      model: { model: "test-model", contextLength: 4_000 },
      summarizer: new OpenAICompatibleSummarizer({ baseUrl: setup.summaries().baseUrl, apiKey: "sk-fixture", model, timeoutMs: 10_000 }),
      prepareAt: 0.8,
      compactTool: { enabled: true, min_turns_between: 1 },
      sharedState: shared ? sharedStateStoreOf(store) : undefined,
    });
    engines.push(engine);
    const requests = () => setup.summaries().requests.filter((r) => r.body?.model === model);
    return { store, engine, requests };
  }

  /** `worker` with a host session on `sessionId`. */
  async function sessionWorker(model: string, sessionId: string, shared = true) {
    const w = await worker(model, shared);
    return { ...w, session: await CompactionSessionAsync.open({ engine: w.engine, store: w.store, sessionId, platform: "worker" }) };
  }

  /** The original messages under lcm's context of `session`: raw items as they are, summaries expanded to their sources. */
  async function originals(store: LcmStoreAsync, session: string): Promise<ChatMessage[]> {
    const expand = async (item: { type: string; id: string }): Promise<ChatMessage[]> =>
      item.type === "message" ? [(await store.getMessage(item.id))!.message] : (await Promise.all((await store.sourcesOf(item.id)).map(expand))).flat();
    return (await Promise.all((await store.contextItems(session)).map(expand))).flat();
  }

  describe(name, () => {
    it("honours at worker B's next turn boundary the compact_context request the agent made through worker A, with its focus, once", async () => {
      await setup.reset();
      const a = await sessionWorker("model-a", "s1");
      const b = await sessionWorker("model-b", "s1");
      await a.session.append(conversation(10));
      await a.engine.ingest(await a.session.messages(), "s1");
      const answer = JSON.parse(await a.session.handleToolCall("compact_context", { focus: "the parser module" })) as { accepted: boolean };
      expect(answer.accepted).toBe(true);

      const result = await b.session.maybeCompress({ promptTokens: 1_000 });
      expect(result.outcome).toBe("compressed");
      expect(result.agentRequest).toEqual({ focus: "the parser module" });
      expect(b.requests().length).toBeGreaterThan(0);
      expect(b.requests().every((r) => r.rawBody.includes("the parser module"))).toBe(true);
      // taken once: neither worker compacts for it again
      expect((await a.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
      expect((await b.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
      expect(a.requests()).toHaveLength(0);
    });

    it("gives the request back when another worker holds the session's compaction, and the next boundary honours it", async () => {
      await setup.reset();
      const a = await sessionWorker("model-a", "s2");
      const b = await sessionWorker("model-b", "s2");
      await a.session.append(conversation(10));
      await a.engine.ingest(await a.session.messages(), "s2");
      await a.session.handleToolCall("compact_context", { focus: "the lexer module" });
      const holder = await setup.newSessionStore();
      const release = await holder.leaseCompaction!("s2");
      expect(release).toBeDefined();
      expect((await b.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("aborted");
      await release!();

      const result = await a.session.maybeCompress({ promptTokens: 1_000 });
      expect(result.outcome).toBe("compressed");
      expect(result.agentRequest).toEqual({ focus: "the lexer module" });
      expect((await b.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
    });

    it("answers at worker B's trigger every summary request worker A's dry run answered, asking the summarizer only for the others, keeps every turn once, and leaves A free to prepare the conversation B left", async () => {
      await setup.reset();
      // every answer is another text, each noted with the worker that asked for it
      const written = new Map<string, string>();
      setup.summaries().setDefault({ kind: "reply", reply: (request) => {
        const content = `Goal: keep the module invariants. Summary ${written.size + 1}.`;
        written.set(content, request.body?.model);
        return { content };
      } });
      const a = await worker("model-a");
      const b = await worker("model-b");
      const history = conversation(12);
      expect(a.engine.prepareCompression(history, { currentTokens: PREPARING, sessionId: "s3" }).state).toBe("started");
      await until(() => a.engine.preparationStatus("s3").state === "ready");
      expect(a.engine.preparationStatus("s3").state).toBe("ready");
      // an operator's view (sessions show) lists the summaries A saved, under the keys the compressor uses too
      expect(pendingWorkOf(await a.store.engineStates!("s3"))).toEqual([expect.objectContaining({ kind: "prepared_summary", engine: "lcm" })]);
      const fromA = new Set(a.requests().map(asked));
      expect(fromA.size).toBeGreaterThan(0);

      const later = conversation(2, { system: false, from: 12 });
      const compacted = await b.engine.compress([...history, ...later], { currentTokens: TRIGGER, sessionId: "s3" });
      const outcome = b.engine.lastCompaction!;
      expect(outcome.preparedSummaries).toBeGreaterThan(0);
      expect(b.requests().filter((r) => fromA.has(asked(r)))).toEqual([]);
      expect(b.requests().length).toBe(outcome.created.length - outcome.preparedSummaries!);
      // the summaries B took are the ones A's summarizer wrote
      // (the summarizer completes a text to its template: the answer is its first line)
      const models = outcome.created.map((summary) => written.get(summary.content.split("\n")[0]!));
      expect(models.filter((model) => model === "model-a")).toHaveLength(outcome.preparedSummaries!);
      expect(models.filter((model) => model === "model-b")).toHaveLength(b.requests().length);
      expect(await originals(b.engine.store, "s3")).toEqual([...history.slice(1), ...later]);
      // A's dry run was for a conversation the host no longer holds: A prepares the compacted one afresh
      expect(a.engine.prepareCompression([...compacted, ...conversation(1, { system: false, from: 14 })], { currentTokens: PREPARING, sessionId: "s3" }).state).toBe("started");
      await until(() => !["started", "pending"].includes(a.engine.preparationStatus("s3").state));
    });

    it("runs a range's dry run on one worker only: worker B, starting one while A's claim holds, asks nothing, reports it pending, and at its trigger waits for A's summaries", async () => {
      await setup.reset();
      setup.summaries().setDefault({ kind: "delay", ms: 250, then: { kind: "success", content: "Goal: keep the module invariants." } });
      const a = await worker("model-a");
      const b = await worker("model-b");
      const history = conversation(12);
      a.engine.prepareCompression(history, { currentTokens: PREPARING, sessionId: "s4" });
      // A's first summary request has gone out: its claim is in the store
      await until(() => a.requests().length > 0);
      expect(pendingWorkOf(await b.store.engineStates!("s4"))).toEqual([expect.objectContaining({ kind: "preparing", engine: "lcm" })]);
      expect(b.engine.prepareCompression(history, { currentTokens: PREPARING, sessionId: "s4" }).state).toBe("started");
      await until(() => b.engine.preparationStatus("s4").reason !== undefined);
      expect(b.engine.preparationStatus("s4")).toEqual({ state: "pending", reason: "another worker is preparing this range" });
      expect(b.requests()).toHaveLength(0);

      const later = conversation(2, { system: false, from: 12 });
      await b.engine.compress([...history, ...later], { currentTokens: TRIGGER, sessionId: "s4" });
      const fromA = new Set(a.requests().map(asked));
      // A's summaries were saved once all its requests were answered: B waited for them
      expect(a.requests().every((r) => r.answered)).toBe(true);
      expect(b.engine.lastCompaction!.preparedSummaries).toBeGreaterThan(0);
      expect(b.requests().filter((r) => fromA.has(asked(r)))).toEqual([]);
      expect(await originals(b.engine.store, "s4")).toEqual([...history.slice(1), ...later]);
    });

    it("keeps a request and a dry run with the worker they were made on when the engines are given no shared store", async () => {
      await setup.reset();
      const a = await sessionWorker("model-a", "s5", false);
      const b = await sessionWorker("model-b", "s5", false);
      await a.session.append(conversation(10));
      await a.engine.ingest(await a.session.messages(), "s5");
      await a.session.handleToolCall("compact_context", {});
      expect((await b.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("not_needed");
      expect((await a.session.maybeCompress({ promptTokens: 1_000 })).outcome).toBe("compressed");

      const history = conversation(12);
      a.engine.prepareCompression(history, { currentTokens: PREPARING, sessionId: "s6" });
      b.engine.prepareCompression(history, { currentTokens: PREPARING, sessionId: "s6" });
      await until(() => ![a, b].some((w) => ["started", "pending"].includes(w.engine.preparationStatus("s6").state)));
      expect([a.engine.preparationStatus("s6").state, b.engine.preparationStatus("s6").state]).toEqual(["ready", "ready"]);
      expect(b.requests().length).toBeGreaterThan(0);
    });
  });
}
