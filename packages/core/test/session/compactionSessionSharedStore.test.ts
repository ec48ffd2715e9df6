import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { CompactionSession } from "../../src/session/CompactionSession.js";
import { openSqliteStore, type SqliteSessionStore } from "../../src/store/sqliteStore.js";
import type { SessionStore } from "../../src/store/types.js";
import { appendInProcess } from "../store/support/appendProcess.js";

/** Folds every message it is given into one summary that quotes them all, so nothing it saw is lost. */
class QuoteEverything extends ContextEngine {
  readonly name = "quote-everything";
  shouldCompress(): boolean {
    return true;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    await new Promise((tick) => setImmediate(tick));
    return [{ role: "user", content: `[CONTEXT COMPACTION] ${messages.map((m) => String(m.content)).join(" | ")}` }];
  }
}

let dir: string;
let path: string;
let mine: SqliteSessionStore;
let other: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "compaction-shared-store-"));
  path = join(dir, "sessions.db");
  mine = openSqliteStore(path);
  other = openSqliteStore(path);
});

afterEach(() => {
  mine.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `store`, except that another worker (a second handle on the same file) appends `turn()` to the session
 * right before each compaction write: after the compacting session read the list, before it wrote.
 */
function withAppendBeforeWrite(store: SessionStore, worker: SessionStore, turn: () => ChatMessage): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key !== "archiveAndReplace" && key !== "rotateSession") return value.bind(target);
      return (sessionId: string, ...rest: unknown[]) => {
        worker.appendMessages(sessionId, [turn()]);
        return (value as (...args: unknown[]) => unknown).call(target, sessionId, ...rest);
      };
    },
  });
}

const texts = (messages: ChatMessage[]) => messages.map((m) => String(m.content));

describe("CompactionSession: another worker appends to the same store file", () => {
  it("keeps a turn another handle appended between the read and the write active, after the compacted list", async () => {
    let n = 0;
    const late = () => ({ role: "user" as const, content: `late turn ${++n}` });
    const session = new CompactionSession({ engine: new QuoteEverything(), store: withAppendBeforeWrite(mine, other, late), platform: "cli" });
    session.append([{ role: "user", content: "first" }, { role: "assistant", content: "done" }]);

    const outcome = await session.maybeCompress({ force: true });

    expect(outcome.outcome).toBe("compressed");
    expect(texts(mine.activeMessages(session.sessionId))).toEqual(["[CONTEXT COMPACTION] first | done", "late turn 1"]);
    expect(outcome.messagesAfter).toBe(2);
    mine.undoLastCompaction(session.sessionId);
    expect(texts(mine.activeMessages(session.sessionId))).toEqual(["first", "done", "late turn 1"]);
  });

  it("keeps the late turn in the child session when compaction rotates", async () => {
    const session = new CompactionSession({ engine: new QuoteEverything(), store: withAppendBeforeWrite(mine, other, () => ({ role: "user", content: "late" })), platform: "cli", inPlace: false });
    const root = session.sessionId;
    session.append([{ role: "user", content: "first" }, { role: "assistant", content: "done" }]);

    const outcome = await session.maybeCompress({ force: true });

    expect(outcome.outcome).toBe("compressed");
    expect(session.sessionId).not.toBe(root);
    expect(texts(mine.activeMessages(session.sessionId))).toEqual(["[CONTEXT COMPACTION] first | done", "late"]);
  });

  it("loses no turn of a second process that appends while this one compacts in a loop", async () => {
    const session = new CompactionSession({ engine: new QuoteEverything(), store: mine, platform: "cli" });
    session.append([{ role: "user", content: "first" }]);
    const turns = 1_500;
    let workerDone = false;
    const worker = appendInProcess(path, session.sessionId, turns, "B", Date.now() + 2_000).finally(() => (workerDone = true));

    let compactions = 0;
    while (!workerDone) {
      if ((await session.maybeCompress({ force: true })).outcome === "compressed") compactions++;
      await new Promise((tick) => setTimeout(tick, 1));
    }
    const { appended, failures } = await worker;

    expect(failures).toEqual([]);
    expect(appended).toBe(turns);
    expect(compactions).toBeGreaterThan(0);
    const everything = texts(mine.activeMessages(session.sessionId)).join(" | ");
    const missing = Array.from({ length: turns }, (_, i) => `B turn ${i}`).filter((turn) => !new RegExp(`(^|\\| )${turn}( \\||$)`).test(everything));
    expect(missing).toEqual([]);
  }, 180_000);
});

/** Gives back what it is given (nothing compacted), keeping each input. */
class Recording extends ContextEngine {
  readonly name = "recording";
  readonly seen: ChatMessage[][] = [];
  shouldCompress(): boolean {
    return false;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    this.seen.push([...messages]);
    return messages;
  }
}

/** `store` counting its `activeRows` reads (the whole active list). */
function countingWholeReads(store: SessionStore): { store: SessionStore; wholeReads: () => number } {
  let reads = 0;
  const counted = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "activeRows") reads++;
      return value.bind(target);
    },
  });
  return { store: counted, wholeReads: () => reads };
}

describe("CompactionSession: the active list it reads each turn", () => {
  it("reads only the rows stored since its last call, and the whole list again after another worker compacted, undid or repaired it", async () => {
    const engine = new Recording();
    const { store, wholeReads } = countingWholeReads(mine);
    const session = new CompactionSession({ engine, store, platform: "cli" });
    const id = session.sessionId;
    /** What the engine is handed now equals the stored list. */
    const seesTheStore = async () => {
      await session.maybeCompress({ force: true });
      expect(texts(engine.seen.at(-1)!)).toEqual(texts(other.activeMessages(id)));
    };
    session.append([{ role: "user", content: "first" }, { role: "assistant", content: "done" }]);
    await seesTheStore();
    expect(wholeReads()).toBe(1);
    // appends, here and by another worker: only the new rows are read
    session.append([{ role: "user", content: "mine" }]);
    other.appendMessages(id, [{ role: "assistant", content: "theirs" }]);
    await seesTheStore();
    expect(wholeReads()).toBe(1);
    // another worker compacts: read whole again
    other.archiveAndReplace(id, [{ role: "user", content: "[CONTEXT COMPACTION] all of it" }]);
    await seesTheStore();
    expect(wholeReads()).toBe(2);
    // it compacts and undoes between two turns (the compression count back where it was)
    other.appendMessages(id, [{ role: "user", content: "more" }]);
    other.archiveAndReplace(id, [{ role: "user", content: "[CONTEXT COMPACTION] again" }]);
    other.undoLastCompaction(id);
    await seesTheStore();
    expect(wholeReads()).toBe(3);
    // the rows the undone compaction wrote follow the last row read, archived: known as such, later rows are read by appends
    other.appendMessages(id, [{ role: "tool", tool_call_id: "gone", content: "stray" }, { role: "assistant", content: "ok" }]);
    await seesTheStore();
    expect(wholeReads()).toBe(3);
    session.append([{ role: "user", content: "thanks" }]);
    await seesTheStore();
    expect(wholeReads()).toBe(3);
    // it repairs the list: the tool result without its call dropped
    const read = other.activeRows(id);
    other.repairActiveList(id, { readRowIds: read.map((r) => r.id), kept: read.length - 3, messages: [{ role: "assistant", content: "ok" }, { role: "user", content: "thanks" }] });
    await seesTheStore();
    expect(wholeReads()).toBe(4);
    expect(texts(engine.seen.at(-1)!)).toEqual(["[CONTEXT COMPACTION] all of it", "more", "ok", "thanks"]);
  });
});
