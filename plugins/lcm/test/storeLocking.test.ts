/**
 * Write transactions of the SQLite lcm store take the write lock at BEGIN (IMMEDIATE): a deferred
 * transaction that has read cannot upgrade once another connection committed, and fails at once with
 * SQLITE_BUSY whatever the busy timeout. Another connection's write lands in the middle of an append
 * (through a value's toJSON, which the append calls between its reads and its writes).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LcmStore, type NewMessage } from "../src/store/LcmStore.js";
import { tempDir } from "./support.js";

describe("the SQLite lcm store's write transactions", () => {
  it("hold the write lock from BEGIN, so another process's write waits instead of failing the append", () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, "lcm.db");
    const first = new LcmStore(path);
    const second = new LcmStore(path);
    second.db.pragma("busy_timeout = 20");
    const plain = (content: string): NewMessage => ({ message: { role: "user", content }, tokens: 3, identity: Buffer.alloc(16, content.length) });
    let interleaved: unknown;
    const midAppend = {
      toJSON() {
        try {
          interleaved = second.appendMessages("s", [plain("from the other process")], 2);
        } catch (error) {
          interleaved = error;
        }
        return "vendor";
      },
    };
    try {
      first.appendMessages("s", [plain("seed")], 1);
      const appended = first.appendMessages("s", [{ ...plain("during"), message: { role: "user", content: "during", vendor: midAppend } }], 3);
      expect(appended.map((m) => m.seq)).toEqual([2]);
      expect((interleaved as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(second.appendMessages("s", [plain("after")], 4).map((m) => m.seq)).toEqual([3]);
      expect(first.getMessagesBySeq("s", 1, 3).map((m) => m.message.content)).toEqual(["seed", "during", "after"]);
    } finally {
      first.close();
      second.close();
      cleanup();
    }
  });
});
