import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import { createHostHooks, type SessionCompressEvent } from "../../src/host/hooks.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { validateConversation } from "../../src/messages/validate.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { COMPACTION_LEASE_MS } from "../../src/store/sqliteLease.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";
import { agentRounds, call, result, system, user } from "../compressor/fixtures.js";

const COMPRESSION = { protect_last_n: 4, threshold_tokens: 4_000 };
const MODEL = { model: "test-model", contextLength: 200_000 };

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "compaction-session-race-"));
  store = openSqliteStore(join(dir, "sessions.db"));
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A real extractive summarizer that runs `during` while it is summarizing (a turn arriving meanwhile).
 * Like many third-party summarizers it does not look at the abort signal.
 */
function summarizerThatWaitsFor(during: () => void | Promise<void>): Summarizer {
  const inner = new ExtractiveSummarizer();
  return {
    name: "extractive-with-arrival",
    async summarize(request: SummaryRequest): Promise<string> {
      await during();
      return inner.summarize(request);
    },
  };
}

function compressor(summarizer: Summarizer, compression: Record<string, unknown> = {}): ContextCompressor {
  return new ContextCompressor({ compression: { ...COMPRESSION, ...compression }, tokenCounter: new RoughTokenCounter(), model: MODEL, summarizer });
}

describe("CompactionSession: turns that arrive while a compaction runs", () => {
  it("keeps a tool result that arrived during an in-place compaction right after its call", async () => {
    const pending = call("terminal", { command: "pytest" });
    const arrived = result(pending, "8 passed");
    let session!: CompactionSession;
    session = new CompactionSession({ engine: compressor(summarizerThatWaitsFor(() => void session.append([arrived]))), store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(8, 2_000), user("run the tests"), pending]);

    const outcome = await session.maybeCompress({ force: true });

    expect(outcome.outcome).toBe("compressed");
    const messages = session.messages();
    expect(messages.slice(-2)).toEqual([pending, arrived]);
    expect(validateConversation(messages)).toEqual([]);
    expect(outcome.messagesAfter).toBe(messages.length);
  });

  it("keeps a user turn that arrived during a rotation in the new session", async () => {
    const late = user("also update the changelog");
    let session!: CompactionSession;
    session = new CompactionSession({ engine: compressor(summarizerThatWaitsFor(() => void session.append([late]))), store, platform: "cli", inPlace: false });
    const root = session.sessionId;
    session.append([system("sys"), ...agentRounds(8, 2_000)]);

    const outcome = await session.maybeCompress({ force: true });

    expect(outcome.outcome).toBe("compressed");
    expect(session.sessionId).not.toBe(root);
    expect(session.messages().at(-1)).toEqual(late);
    expect(store.activeMessages(root).at(-1)).toEqual(late);
  });

  it("brings back the exact list, late turn included, when that compaction is undone", async () => {
    const late = user("and bump the version");
    let session!: CompactionSession;
    session = new CompactionSession({ engine: compressor(summarizerThatWaitsFor(() => void session.append([late]))), store, platform: "cli" });
    const original = [system("sys"), ...agentRounds(8, 2_000)];
    session.append(original);

    await session.maybeCompress({ force: true });
    session.undoLastCompaction();

    expect(session.messages()).toEqual([...original, late]);
  });

  it("lets only the first of two overlapping compactions write, and says why the second wrote nothing (a store without a lease)", async () => {
    const hooks = createHostHooks();
    const events: SessionCompressEvent[] = [];
    hooks.sessionCompress.tap("test", (event) => void events.push(event));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // the same file without its compaction lease: both compactions run, the store's check refuses the second write
    const unleased = new Proxy(store, { get: (target, key) => (key === "leaseCompaction" ? undefined : (Reflect.get(target, key) as unknown)) });
    const session = new CompactionSession({ engine: compressor(summarizerThatWaitsFor(() => gate)), store: unleased, platform: "cli", hooks });
    session.append([system("sys"), ...agentRounds(8, 2_000)]);

    const first = session.maybeCompress({ force: true });
    const second = session.maybeCompress({ force: true });
    release();
    const outcomes = await Promise.all([first, second]);

    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["aborted", "compressed"]);
    const skipped = outcomes.find((o) => o.outcome === "aborted")!;
    expect(skipped.reason).toMatch(/changed while it was being compacted/);
    expect(skipped.notice).toBe("No messages were dropped — conversation is unchanged");
    expect(store.compactions(session.sessionId)).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(store.getSession(session.sessionId)!.compressionCount).toBe(1);
  });

  it("leaves a session another caller is compacting on the same SQLite file alone, without asking its summarizer, and compacts once the lease is released", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let summaries = 0;
    const counting = summarizerThatWaitsFor(async () => {
      summaries++;
      await gate;
    });
    const session = new CompactionSession({ engine: compressor(counting), store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(8, 2_000)]);
    // another process on the file: its own connection and engine
    const elsewhere = openSqliteStore(join(dir, "sessions.db"));
    const other = new CompactionSession({ engine: compressor(counting), store: elsewhere, sessionId: session.sessionId, platform: "cli" });

    const first = session.maybeCompress({ force: true });
    await new Promise((tick) => setTimeout(tick, 20));
    const second = await other.maybeCompress({ force: true });
    expect(second).toMatchObject({ outcome: "aborted", reason: `another worker is compacting this session; nothing was written (session '${session.sessionId}')` });
    expect(summaries).toBe(1);
    release();
    expect((await first).outcome).toBe("compressed");
    // released: the next compaction may run
    other.append([user("and one more thing")]);
    expect((await other.maybeCompress({ force: true })).outcome).toBe("compressed");
    expect(store.getSession(session.sessionId)!.compressionCount).toBe(2);
    elsewhere.close();
  });

  it("takes over a lease its holder stopped renewing (a crashed process) once it expires", () => {
    let clock = 1_000_000;
    const crashed = openSqliteStore(join(dir, "sessions.db"), { now: () => clock });
    const next = openSqliteStore(join(dir, "sessions.db"), { now: () => clock });
    expect(crashed.leaseCompaction("s")).toBeTypeOf("function");
    expect(next.leaseCompaction("s")).toBeUndefined();
    clock += COMPACTION_LEASE_MS + 1;
    const released = next.leaseCompaction("s");
    expect(released).toBeTypeOf("function");
    released!();
    expect(crashed.leaseCompaction("s")).toBeTypeOf("function");
    crashed.close();
    next.close();
  });
});

describe("CompactionSession: cancelled compaction", () => {
  it("writes nothing when the caller cancelled while the engine was still working", async () => {
    const controller = new AbortController();
    const session = new CompactionSession({ engine: compressor(summarizerThatWaitsFor(() => controller.abort(new Error("user pressed Ctrl-C")))), store, platform: "cli" });
    const original: ChatMessage[] = [system("sys"), ...agentRounds(8, 2_000)];
    session.append(original);

    const outcome = await session.maybeCompress({ force: true, signal: controller.signal });

    expect(outcome).toMatchObject({ outcome: "aborted", notice: "No messages were dropped — conversation is unchanged", compressionCount: 0 });
    expect(outcome.reason).toMatch(/cancelled/);
    expect(session.messages()).toEqual(original);
    expect(store.compactions(session.sessionId)).toEqual([]);
    expect(session.lastCompactionInPlace).toBeNull();
  });

  it("stops waiting for an engine that ignores the signal once the caller aborts, and drops its late result", async () => {
    let finish!: (messages: ChatMessage[]) => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const deaf = new (class extends ContextEngine {
      readonly name = "deaf";
      shouldCompress(): boolean {
        return true;
      }
      compress(): Promise<ChatMessage[]> {
        started();
        return new Promise((resolve) => (finish = resolve));
      }
    })();
    const session = new CompactionSession({ engine: deaf, store, platform: "cli" });
    const original: ChatMessage[] = [system("sys"), ...agentRounds(3)];
    session.append(original);
    const controller = new AbortController();

    const pending = session.maybeCompress({ force: true, signal: controller.signal });
    await running;
    controller.abort(new Error("user pressed Ctrl-C"));
    const outcome = await pending;

    expect(outcome).toMatchObject({ outcome: "aborted", notice: "No messages were dropped — conversation is unchanged" });
    expect(outcome.reason).toMatch(/cancelled: user pressed Ctrl-C/);
    finish([user("[CONTEXT COMPACTION] too late")]);
    await new Promise((tick) => setImmediate(tick));
    expect(session.messages()).toEqual(original);
    expect(store.compactions(session.sessionId)).toEqual([]);
  });

  it("gives up at once on a signal that was already aborted, without asking the engine", async () => {
    let asked = false;
    const deaf = new (class extends ContextEngine {
      readonly name = "deaf";
      shouldCompress(): boolean {
        return true;
      }
      compress(): Promise<ChatMessage[]> {
        asked = true;
        return new Promise(() => {});
      }
    })();
    const session = new CompactionSession({ engine: deaf, store, platform: "cli" });
    session.append([system("sys"), ...agentRounds(3)]);

    const outcome = await session.maybeCompress({ force: true, signal: AbortSignal.abort(new Error("too late")) });

    expect(outcome).toMatchObject({ outcome: "aborted", reason: "compaction cancelled: too late" });
    expect(asked).toBe(false);
  });
});

describe("CompactionSession: one engine, several sessions at once", () => {
  it("keeps each session's compaction report apart, and gives each session its own, whichever finished last", async () => {
    const extractive = new ExtractiveSummarizer();
    let releaseFirst!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
    let calls = 0;
    // the first session's summary comes back after the second session's compaction has finished
    const summarizer: Summarizer = {
      name: "reverse-order",
      async summarize(request: SummaryRequest): Promise<string> {
        if (++calls === 1) await firstMayFinish;
        return extractive.summarize(request);
      },
    };
    const engine = compressor(summarizer);
    const small = new CompactionSession({ engine, store, sessionId: "small", platform: "gateway" });
    const large = new CompactionSession({ engine, store, sessionId: "large", platform: "gateway" });
    small.append([system("sys"), ...agentRounds(8, 2_000)]);
    large.append([system("sys"), ...agentRounds(14, 2_000)]);

    const first = small.maybeCompress({ force: true });
    await new Promise((tick) => setTimeout(tick, 10));
    const second = await large.maybeCompress({ force: true });
    releaseFirst();
    const firstResult = await first;

    expect([firstResult.outcome, second.outcome]).toEqual(["compressed", "compressed"]);
    expect(firstResult.report?.messagesBefore).toBe(firstResult.messagesBefore);
    expect(second.report?.messagesBefore).toBe(second.messagesBefore);
    expect(firstResult.messagesBefore).not.toBe(second.messagesBefore);
    expect(engine.lastCompressionOf("small")).toBe(firstResult.report);
    expect(engine.lastCompressionOf("large")).toBe(second.report);
    // the engine-wide report is the latest of any session's
    expect(engine.lastCompression).toBe(firstResult.report);
  });
});
