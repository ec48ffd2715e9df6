import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { ExtractiveSummarizer } from "../src/core.js";
import { LcmConfigError, parseLcmConfig } from "../src/config.js";
import type { LcmEngine } from "../src/engine.js";
import { LcmStore } from "../src/store/LcmStore.js";
import { conversation, makeEngine, tempDir } from "./support.js";

describe("the lcm store", () => {
  let dir: string;
  let cleanup: () => void;
  let engine: LcmEngine;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    engine = makeEngine(dir);
  });
  afterEach(() => {
    engine.close();
    cleanup();
  });

  it("refuses DELETE and UPDATE of messages, summaries and lineage in the database itself", async () => {
    await engine.compress(conversation(40));
    const db = engine.store.db;
    for (const sql of [
      "DELETE FROM lcm_messages",
      "UPDATE lcm_messages SET content_text = 'x'",
      "UPDATE lcm_messages SET role = 'user'",
      "DELETE FROM lcm_summaries",
      "UPDATE lcm_summaries SET content = 'x'",
      "DELETE FROM lcm_summary_sources",
      "UPDATE lcm_summary_sources SET source_id = 'x'",
      "DELETE FROM lcm_compactions",
    ]) {
      expect(() => db.exec(sql), sql).toThrow(/append-only/);
    }
    expect(engine.store.messageCount(engine.sessionId)).toBe(160);
  });

  it("refuses an INSERT OR REPLACE over a stored message, summary or lineage row", async () => {
    await engine.compress(conversation(40));
    const db = engine.store.db;
    const summary = engine.store.allSummaries("default")[0]!;
    for (const sql of [
      "INSERT OR REPLACE INTO lcm_messages (id, session, seq, role, message_json, content_text, tokens, identity, created_at) VALUES (1, 'default', 1, 'user', '{}', 'gone', 1, x'00', 0)",
      "INSERT OR REPLACE INTO lcm_messages (session, seq, role, message_json, content_text, tokens, identity, created_at) VALUES ('default', 2, 'user', '{}', 'gone', 1, x'00', 0)",
      `INSERT OR REPLACE INTO lcm_summaries (id, session, kind, depth, level, content, tokens, source_tokens, seq_start, seq_end, created_at) VALUES ('${summary.id}', 'default', 'leaf', 1, 1, 'gone', 1, 1, 1, 1, 0)`,
      `INSERT OR REPLACE INTO lcm_summary_sources (summary_id, ord, source_type, source_id) VALUES ('${summary.id}', 0, 'message', 'msg_999')`,
    ]) {
      expect(() => db.exec(sql), sql).toThrow(/append-only/);
    }
    expect(engine.store.getMessage("msg_1")!.message).toEqual(conversation(1)[1]);
    expect(engine.store.getMessagesBySeq("default", 2, 2)[0]!.message).toEqual(conversation(1)[2]);
    expect(engine.store.getSummary(summary.id)).toEqual(summary);
    expect(engine.store.sourcesOf(summary.id)[0]!.id).toBe("msg_1");
  });

  it("archives the final messages and closes its database file on session end, reopening it on the next use", async () => {
    const input = conversation(3);
    engine.onSessionStart("s1");
    await engine.compress(input);
    const store = engine.store;
    await engine.onSessionEnd("s1", [...input, { role: "user", content: "Bye." }]);
    expect(store.db.open).toBe(false);
    expect(engine.store.messageCount("s1")).toBe(13);
    engine.onSessionStart("s2");
    expect(await engine.ingest(conversation(1))).toHaveLength(4);
    expect(engine.store.messageCount("s2")).toBe(4);
  });

  it("waits for a running compress before closing the database at another session's end", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = new ExtractiveSummarizer();
    const gated = makeEngine(dir, { dbPath: join(dir, "gated.db"), summarizer: { name: "extractive", summarize: async (r, s) => (await gate, inner.summarize(r, s)) } });
    const store = gated.store;
    const pending = gated.compress(conversation(40));
    await gated.onSessionEnd("other", conversation(1));
    expect(store.db.open).toBe(true);
    release();
    const output = await pending;
    expect(output.length).toBeLessThan(161);
    expect(gated.lastCompaction!.passes).toBeGreaterThan(0);
    expect(store.db.open).toBe(false);
    expect(gated.store.messageCount("other")).toBe(4);
    gated.close();
  });

  it("keeps everything across a reopen of the same file", async () => {
    const input = conversation(40);
    const before = await engine.compress(input);
    engine.close();
    const reopened = makeEngine(dir);
    try {
      expect(reopened.store.messageCount("default")).toBe(160);
      expect(await reopened.assemble([input[0]!])).toEqual(before);
      await reopened.compress(before);
      expect(reopened.store.messageCount("default")).toBe(160);
    } finally {
      reopened.close();
    }
  });
});

describe("ingest", () => {
  let dir: string;
  let cleanup: () => void;
  let engine: LcmEngine;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    engine = makeEngine(dir, { contextLength: 1_000_000 });
  });
  afterEach(() => {
    engine.close();
    cleanup();
  });

  it("adds nothing when the same list or an overlapping list is sent again", async () => {
    const input = conversation(10);
    expect(await engine.ingest(input)).toHaveLength(40);
    expect(await engine.ingest(input)).toHaveLength(0);
    expect(await engine.ingest(input.slice(0, 20))).toHaveLength(0);
    const longer = [...input, ...conversation(2, { system: false, from: 10 })];
    expect((await engine.ingest(longer)).map((m) => m.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48]);
    expect(engine.store.messageCount("default")).toBe(48);
  });

  it("refuses a malformed message before storing anything, naming its index", async () => {
    const bad = [...conversation(1), { role: "bogus", content: 1 }] as never;
    await expect(engine.ingest(bad)).rejects.toThrow(/LcmEngine\.ingest[\s\S]*\[5\]/);
    await expect(engine.onSessionEnd("default", [{ role: "user" }] as never)).rejects.toThrow(/LcmEngine\.ingest/);
    expect(engine.store.messageCount("default")).toBe(0);
  });

  it("refuses a malformed turn after a stored conversation sent again as fresh copies, naming its index, storing nothing", async () => {
    const input = conversation(10);
    await engine.ingest(input);
    const copies = JSON.parse(JSON.stringify(input)) as typeof input;
    await expect(engine.ingest([...copies, { role: "user", content: 7 }] as never)).rejects.toThrow(/LcmEngine\.ingest[\s\S]*\[41\]/);
    await expect(engine.compress([...copies, null] as never)).rejects.toThrow(/LcmEngine\.compress[\s\S]*\[41\]/);
    await expect(engine.compress([...copies.slice(0, 3), { role: "assistant", tool_calls: "x" }, ...copies.slice(3)] as never)).rejects.toThrow(/\[3\]\.tool_calls/);
    expect(engine.store.messageCount("default")).toBe(40);
    // the same copies with a valid new turn are taken, and only the turn is stored
    expect((await engine.ingest([...copies, { role: "user", content: "next" }])).map((m) => m.seq)).toEqual([41]);
  });

  it("stores a message repeated later in the conversation", async () => {
    const input = [...conversation(2), { role: "user" as const, content: "ok" }, { role: "assistant" as const, content: "done" }];
    await engine.ingest(input);
    const again = [...input, { role: "user" as const, content: "ok" }, { role: "assistant" as const, content: "done" }];
    expect((await engine.ingest(again)).map((m) => m.message.content)).toEqual(["ok", "done"]);
    expect(engine.store.messageCount("default")).toBe(12);
  });

  it("stores only the new turns when the host sends lcm's own output back with them", async () => {
    const small = makeEngine(dir, { contextLength: 4_000 });
    try {
      const input = conversation(30);
      const output = await small.compress(input);
      expect(output.length).toBeLessThan(input.length);
      const next = [...output, { role: "user" as const, content: "Now add the zeta-final check." }];
      const stored = await small.ingest(next);
      expect(stored.map((m) => m.message.content)).toEqual(["Now add the zeta-final check."]);
      expect(small.store.messageCount("default")).toBe(121);
      // the full history sent again adds nothing either
      expect(await small.ingest([...input, next[next.length - 1]!])).toHaveLength(0);
    } finally {
      small.close();
    }
  });

  it("starts a fresh session on reset and keeps the old history where it was", async () => {
    await engine.ingest(conversation(2));
    await engine.onSessionReset();
    expect(engine.sessionId).toBe("default~1");
    expect(await engine.ingest(conversation(1))).toHaveLength(4);
    expect(engine.store.messageCount("default")).toBe(8);
    await engine.onSessionReset();
    expect(engine.sessionId).toBe("default~2");
  });

  it("keeps sessions apart", async () => {
    await engine.ingest(conversation(2));
    engine.onSessionStart("other");
    expect(await engine.ingest(conversation(2))).toHaveLength(8);
    expect(engine.store.messageCount("default")).toBe(8);
    expect(engine.store.messageCount("other")).toBe(8);
  });
});

describe("lcm config", () => {
  it("fills defaults", () => {
    const s = parseLcmConfig(undefined);
    expect(s.threshold).toBe(0.75);
    expect(s.fresh_tail).toBe(32);
  });

  it("names the key path of a bad value", () => {
    expect(() => parseLcmConfig({ threshold: 2, fresh_tail: -1 })).toThrow(LcmConfigError);
    expect(() => parseLcmConfig({ threshold: 2 })).toThrow(/lcm\.threshold/);
  });

  it("opens an in-memory store", () => {
    const store = new LcmStore(":memory:");
    expect(store.lastSeq("x")).toBe(0);
    store.close();
  });
});
