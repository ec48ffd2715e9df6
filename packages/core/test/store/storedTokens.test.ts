import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import { RoughTokenCounter, TiktokenCounter } from "../../src/tokens/counter.js";

class CallCountingCounter extends TiktokenCounter {
  calls = 0;
  override count(text: string): number {
    this.calls += 1;
    return super.count(text);
  }
}

const conversation: ChatMessage[] = [
  { role: "system", content: "You are a careful engineer." },
  { role: "user", content: "hi" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"cmd":"ls"}' } }] },
  { role: "tool", tool_call_id: "c1", content: "a.ts b.ts" },
];

let dir: string | undefined;

/** Writes `conversation` into a fresh store file with `writerCounter`; returns the file, the session and the stored rows. */
function storeConversation(writerCounter: TiktokenCounter | RoughTokenCounter) {
  dir = mkdtempSync(join(tmpdir(), "stored-tokens-"));
  const path = join(dir, "s.db");
  const writer = openSqliteStore(path, { tokenCounter: writerCounter });
  const { id } = writer.createSession({ platform: "test" });
  writer.appendMessages(id, conversation);
  const stored = writer.activeRows(id).reduce((sum, row) => sum + row.tokens, 0);
  writer.close();
  return { path, id, stored };
}
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("token counts stored with messages", () => {
  it("reloading a stored session and counting it makes no tokenizer calls", () => {
    const { path, id, stored } = storeConversation(new TiktokenCounter());

    const counter = new CallCountingCounter();
    const reader = openSqliteStore(path, { tokenCounter: counter });
    const reloaded = reader.activeMessages(id);
    expect(counter.countMessages(reloaded)).toBe(stored);
    expect(counter.calls).toBe(0);
    expect(counter.countMessages(reader.activeRows(id).map((row) => row.message))).toBe(stored);
    expect(counter.calls).toBe(0);
    reader.close();
  });

  it("does not reuse counts stored by a different counting", () => {
    const { path, id } = storeConversation(new RoughTokenCounter());

    const counter = new CallCountingCounter();
    const reader = openSqliteStore(path, { tokenCounter: counter });
    const total = counter.countMessages(reader.activeMessages(id));
    expect(counter.calls).toBeGreaterThan(0);
    expect(total).toBe(new TiktokenCounter().countMessages(conversation));
    reader.close();
  });
});
