import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RoughTokenCounter, type ChatMessage } from "../src/core.js";
import type { LcmEngine } from "../src/engine.js";
import { sameJson } from "../src/held.js";
import { LcmStore } from "../src/store/LcmStore.js";
import { LCM_SCHEMA_VERSION } from "../src/store/schema.js";
import { conversation, makeEngine, tempDir } from "./support.js";

/** The rough counter, recording how many messages it was asked to measure. */
class RecordingCounter extends RoughTokenCounter {
  measured = 0;
  override countMessages(messages: ChatMessage[]): number {
    this.measured += messages.length;
    return super.countMessages(messages);
  }
}

const copy = (messages: ChatMessage[]): ChatMessage[] => JSON.parse(JSON.stringify(messages)) as ChatMessage[];

describe("cold path: freshly parsed message objects every turn", () => {
  let dir: { dir: string; cleanup: () => void };
  let counter: RecordingCounter;
  let engine: LcmEngine;
  beforeEach(() => {
    dir = tempDir();
    counter = new RecordingCounter();
    engine = makeEngine(dir.dir, { contextLength: 1_000_000, tokenCounter: counter });
  });
  afterEach(() => {
    engine.close();
    dir.cleanup();
  });

  it("counts only the new messages and the system prompt when the host re-sends parsed copies of the history", async () => {
    const history = conversation(50);
    await engine.compress(copy(history));
    const next = [...history, ...conversation(1, { from: 50, system: false })];
    counter.measured = 0;
    const output = await engine.compress(copy(next));
    expect(output).toEqual(next);
    expect(counter.measured).toBe(4 + 1);
    expect(engine.store.messageCount(engine.sessionId)).toBe(next.length - 1);
  });

  it("reports the same token total for parsed copies as for the original objects", async () => {
    const history = conversation(30);
    await engine.compress(history);
    const next = [...history, ...conversation(2, { from: 30, system: false })];
    await engine.compress(copy(next), { force: true });
    expect(engine.lastCompaction?.tokensBefore).toBe(new RoughTokenCounter().countMessages(next));
  });

  it("measures stored messages by their stored counts during a compaction", async () => {
    const small = makeEngine(dir.dir, { contextLength: 4_000, tokenCounter: counter, config: { session: "small" } });
    try {
      const history = conversation(40);
      counter.measured = 0;
      await small.compress(copy(history), { force: true });
      // ingest counts the 161 messages once; compaction counts only summary blocks, stubs and summaries
      expect(small.lastCompaction!.passes).toBeGreaterThan(1);
      expect(counter.measured).toBeLessThan(history.length + 2 * small.lastCompaction!.passes + 10);
    } finally {
      small.close();
    }
  });
});

describe("stored token counts and the counter that made them", () => {
  let dir: { dir: string; cleanup: () => void };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it("records which counting produced each stored count", async () => {
    const engine = makeEngine(dir.dir, { contextLength: 1_000_000, tokenCounter: new RoughTokenCounter() });
    try {
      await engine.compress(conversation(3));
      const row = engine.store.db.prepare("SELECT tokens_by FROM lcm_messages LIMIT 1").get() as { tokens_by: string | null };
      expect(row.tokens_by).toBe(new RoughTokenCounter().countingId);
    } finally {
      engine.close();
    }
  });

  it("recounts stored messages when the session is reopened with a different counter", async () => {
    const history = conversation(40);
    const rough = makeEngine(dir.dir, { contextLength: 1_000_000, tokenCounter: new RoughTokenCounter() });
    await rough.compress(copy(history));
    rough.close();
    // Counts four times the rough estimate: stored rough counts would understate the session 4×.
    class Quadruple extends RoughTokenCounter {
      override readonly countingId = "quadruple/1";
      override countMessage(message: ChatMessage): number {
        return 4 * super.countMessage(message);
      }
      override countMessages(messages: ChatMessage[]): number {
        return messages.reduce((sum, m) => sum + this.countMessage(m), 0);
      }
    }
    const quadruple = new Quadruple();
    const reopened = makeEngine(dir.dir, { contextLength: 1_000_000, tokenCounter: quadruple });
    try {
      await reopened.compress(copy(history), { force: true });
      expect(reopened.lastCompaction!.tokensBefore).toBe(quadruple.countMessages(history));
    } finally {
      reopened.close();
    }
  });

  it("opens a store file written before counts named their counter, adding the column", async () => {
    const path = `${dir.dir}/lcm.db`;
    const engine = makeEngine(dir.dir, { contextLength: 1_000_000 });
    await engine.compress(conversation(2));
    engine.close();
    const old = new LcmStore(path);
    // Rebuild lcm_messages as v1 had it (no tokens_by), keeping the rows.
    old.db.exec(`PRAGMA writable_schema = OFF; DROP TRIGGER lcm_messages_no_delete; DROP TRIGGER lcm_messages_no_update;
      CREATE TABLE v1 AS SELECT id, session, seq, role, message_json, content_text, tokens, identity, created_at FROM lcm_messages;
      DROP TABLE lcm_messages; ALTER TABLE v1 RENAME TO lcm_messages; PRAGMA user_version = 1;`);
    old.close();
    const reopened = new LcmStore(path);
    try {
      const columns = (reopened.db.pragma("table_info(lcm_messages)") as { name: string }[]).map((c) => c.name);
      expect(columns).toContain("tokens_by");
      expect(reopened.messageCount("default")).toBeGreaterThan(0);
      expect(reopened.db.pragma("user_version", { simple: true })).toBe(LCM_SCHEMA_VERSION);
    } finally {
      reopened.close();
    }
  });
});

describe("sameJson", () => {
  it("is true for equal messages whatever their key order or undefined fields, false when a value differs", () => {
    const a: ChatMessage = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] };
    const b = { tool_calls: [{ function: { arguments: "{}", name: "f" }, type: "function", id: "c1" }], content: null, role: "assistant", name: undefined };
    expect(sameJson(a, b)).toBe(true);
    expect(sameJson(a, { ...b, content: "" })).toBe(false);
    expect(sameJson(a, { ...b, extra: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
  });
});
