/**
 * Background writes of the compressor's per-session state to a store that answers with promises: a failed
 * write is warned about once, the state stays unwritten so the next change or flushState() sends it again,
 * and flushState() rejects when even its retry fails. The store here is the real SQLite store behind an
 * asynchronous face whose first writes fail, as a network store's would; the PostgreSQL package tests the
 * same on a real server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import { agentRounds, roughCounter, system, user } from "./fixtures.js";

let dir: string;
let sqlite: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "compressor-state-writes-"));
  sqlite = openSqliteStore(join(dir, "sessions.db"));
});
afterEach(() => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The SQLite store's engine state answering with promises; its first `failures` writes reject like a dropped connection. */
function flakyStore(failures: number) {
  let left = failures;
  const attempts: string[] = [];
  return {
    attempts,
    loadEngineState: async (engine: string, sessionId: string) => sqlite.loadEngineState(engine, sessionId),
    saveEngineState: async (engine: string, sessionId: string, state: unknown) => {
      attempts.push(sessionId);
      if (left-- > 0) throw new Error("connection reset by peer");
      sqlite.saveEngineState(engine, sessionId, state);
    },
    clearEngineState: async (engine: string, sessionId: string) => sqlite.clearEngineState(engine, sessionId),
  };
}

const conversation = () => [system("You are a coding agent."), user("Set up the project."), ...agentRounds(12, 3_000, "yak")];

/** A compressor over a {@link flakyStore} whose session "s1" has just been compacted (its state changed, its write sent). */
async function compactedSession(failures: number) {
  const store = flakyStore(failures);
  const warnings: string[] = [];
  const engine = new ContextCompressor({ compression: { protect_last_n: 4, threshold_tokens: 15_000 }, tokenCounter: roughCounter, store, warn: (m) => warnings.push(m) });
  await engine.onSessionStart("s1");
  await engine.compress(conversation(), { force: true, sessionId: "s1" });
  return { store, warnings, engine };
}

describe("background writes of the compressor's session state", () => {
  it("warns once naming the session and the error, and writes the state with the next change", async () => {
    const { warnings, engine } = await compactedSession(1);
    await engine.flushState();
    expect(warnings).toEqual([expect.stringMatching(/session 's1'.*connection reset by peer/)]);
    engine.updateFromResponse({ prompt_tokens: 900 }, "s1");
    await engine.flushState();
    expect(warnings).toHaveLength(1);
    expect(sqlite.loadEngineState("compressor", "s1")).toMatchObject({ previousSummary: engine.previousSummary });
  });

  it("retries an unwritten state at flushState(), which rejects naming the session when the retry fails too and resolves once a retry succeeds", async () => {
    const { store, warnings, engine } = await compactedSession(2);
    await expect(engine.flushState()).rejects.toThrow(/session 's1'.*connection reset by peer/);
    expect(warnings).toHaveLength(1);
    expect(sqlite.loadEngineState("compressor", "s1")).toBeUndefined();
    await engine.flushState();
    expect(store.attempts).toEqual(["s1", "s1", "s1"]);
    expect(sqlite.loadEngineState("compressor", "s1")).toMatchObject({ previousSummary: engine.previousSummary });
    expect(warnings).toHaveLength(1);
  });
});
