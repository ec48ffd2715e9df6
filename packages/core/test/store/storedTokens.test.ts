import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/messages/schema.js";
import { openSqliteStore } from "../../src/store/sqliteStore.js";
import { MESSAGE_COUNTING_VERSION, RoughTokenCounter, TiktokenCounter } from "../../src/tokens/counter.js";
import { estimateMessageTokensRough } from "../../src/tokens/rough.js";

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
  it("stores a huge message with its rough estimate without tokenizing it, and counts the rest exactly", () => {
    dir = mkdtempSync(join(tmpdir(), "stored-tokens-"));
    const counter = new CallCountingCounter();
    const store = openSqliteStore(join(dir, "s.db"), { tokenCounter: counter });
    const { id } = store.createSession({ platform: "test" });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const blob = Array.from({ length: 1_000_000 }, (_, i) => alphabet[(i * 7919 + (i >> 3)) % 64]).join("");
    const call = { role: "assistant", content: null, tool_calls: [{ id: "c9", type: "function", function: { name: "read_file", arguments: '{"path":"blob.b64"}' } }] } as ChatMessage;
    store.appendMessages(id, [...conversation, call, { role: "tool", tool_call_id: "c9", content: blob }]);
    const rows = store.activeRows(id);
    const big = rows[rows.length - 1]!;
    expect(big.tokens).toBe(estimateMessageTokensRough(big.message));
    expect(counter.calls).toBeLessThan(20); // the small messages' texts only; the blob was never tokenized
    const tokensBy = (store.db.prepare("SELECT tokens_by FROM messages WHERE session_id = ? ORDER BY seq").all(id) as { tokens_by: string }[]).map((r) => r.tokens_by);
    expect(tokensBy.slice(0, -1).every((by) => by === counter.countingId)).toBe(true);
    expect(tokensBy.at(-1)).toBe(MESSAGE_COUNTING_VERSION.rough);
    store.close();
  });
});
