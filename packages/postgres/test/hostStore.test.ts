/**
 * A host given the PostgreSQL session store: the built-in compressor offers session_search over it and
 * keeps each session's state there (read at onSessionStart, written in order in the background), so a
 * restarted worker keeps a session's cooldown.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextCompressor, createContextHost, type Summarizer } from "@context-engine/core";
import { SESSION_SEARCH_TOOL_NAME } from "@context-engine/core/store";
import { openPostgresStore } from "../src/index.js";
import { startTestPostgres, type TestPostgres } from "./support/postgresServer.js";

let server: TestPostgres;

beforeAll(async () => {
  server = await startTestPostgres();
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const failing: Summarizer = { name: "down", summarize: async () => Promise.reject(Object.assign(new Error("upstream 500"), { status: 500 })) };

describe("the built-in compressor over the PostgreSQL store", () => {
  it("offers session_search over the store and finds an archived turn", async () => {
    const store = await openPostgresStore({ connectionString: await server.createDatabase() });
    try {
      const session = await store.createSession({ id: "pg-search", platform: "gateway" });
      await store.appendMessages(session.id, [{ role: "user", content: "Why does cargo-llvm-cov run out of memory?" }, { role: "assistant", content: "Cap the jobs at two." }]);
      const rows = await store.activeRows(session.id);
      await store.archiveAndReplace(session.id, [{ role: "user", content: "[summary] capped the jobs" }], { compactedRowIds: rows.map((r) => r.id) });
      const engine = new ContextCompressor({ store });
      expect(engine.getToolSchemas().map((t) => t.function.name)).toEqual([SESSION_SEARCH_TOOL_NAME]);
      const result = JSON.parse(await engine.handleToolCall(SESSION_SEARCH_TOOL_NAME, { query: "cargo-llvm-cov" })) as { sessions: { session_id: string; hits: { archived: boolean }[] }[] };
      expect(result.sessions.map((s) => [s.session_id, s.hits[0]!.archived])).toEqual([["pg-search", true]]);
    } finally {
      await store.close();
    }
  });

  it("keeps a session's summarizer cooldown across a worker restart", async () => {
    const url = await server.createDatabase();
    const messages = Array.from({ length: 24 }, (_, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content: `turn ${i}: ${"details ".repeat(60)}` }));
    const model = { model: "test-model", contextLength: 8_000 };
    const first = await openPostgresStore({ connectionString: url });
    const worker = new ContextCompressor({ store: first, summarizer: failing, model, compression: { abort_on_summary_failure: true } });
    await worker.onSessionStart("pg-state");
    await worker.compress(messages, { force: true, sessionId: "pg-state" });
    expect(worker.shouldCompressInfo(7_000, "pg-state").reason).toBe("cooldown");
    await worker.flushState();
    await first.close();

    const second = await openPostgresStore({ connectionString: url });
    try {
      const restarted = new ContextCompressor({ store: second, summarizer: failing, model });
      await restarted.onSessionStart("pg-state");
      expect(restarted.shouldCompressInfo(7_000, "pg-state").reason).toBe("cooldown");
      await restarted.onSessionEnd("pg-state", []);
      await restarted.flushState();
      const third = new ContextCompressor({ store: second, summarizer: failing, model });
      await third.onSessionStart("pg-state");
      expect(third.shouldCompressInfo(7_000, "pg-state").reason).toBe("ok");
    } finally {
      await second.close();
    }
  });

  it("warns once when the server refuses a session's state, keeps it, and flushState() rejects until the server takes it again", async () => {
    const url = await server.createDatabase();
    const messages = Array.from({ length: 24 }, (_, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content: `turn ${i}: ${"details ".repeat(60)}` }));
    const store = await openPostgresStore({ connectionString: url });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const host = await createContextHost({ config: "model:\n  default: test-model\n  context_length: 8000\ncompression:\n  abort_on_summary_failure: true\n", store, summarizer: failing });
      const engine = host.engine as ContextCompressor;
      await engine.onSessionStart("pg-down");
      // the table goes away under the running store, as a failed write on a real server
      await admin.query("ALTER TABLE context_engine.engine_state RENAME TO engine_state_away");
      await engine.compress(messages, { force: true, sessionId: "pg-down" });
      expect(engine.shouldCompressInfo(7_000, "pg-down").reason).toBe("cooldown");
      await expect(engine.flushState()).rejects.toThrow(/session 'pg-down'.*engine_state/);
      expect(host.warnings.filter((w) => w.includes("pg-down"))).toEqual([expect.stringMatching(/state of session 'pg-down' could not be written.*engine_state/)]);

      await admin.query("ALTER TABLE context_engine.engine_state_away RENAME TO engine_state");
      await engine.flushState();
      expect(host.warnings.filter((w) => w.includes("pg-down"))).toHaveLength(1);
      const restarted = new ContextCompressor({ store, summarizer: failing, model: { model: "test-model", contextLength: 8_000 } });
      await restarted.onSessionStart("pg-down");
      expect(restarted.shouldCompressInfo(7_000, "pg-down").reason).toBe("cooldown");
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
