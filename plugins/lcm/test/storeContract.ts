/**
 * The lcm store contract as tests, run against every implementation (the SQLite `LcmStore` here, the
 * PostgreSQL store in packages/postgres): each calls {@link describeLcmStoreContract} with a harness that
 * opens a fresh, empty store. Every call is awaited, so a synchronous store and one that returns
 * promises run the same tests.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/core.js";
import { messageIdentity } from "../src/messageText.js";
import type { ItemRef, LcmStoreAsync, NewMessage, SummaryRecord } from "../src/store/LcmStoreAsync.js";

/** How the contract opens one implementation. */
export interface LcmStoreHarness<S extends LcmStoreAsync = LcmStoreAsync> {
  /** A new, empty store. */
  open(): Promise<S> | S;
  /** Releases what `open` made (after the store is closed). */
  cleanup?(): Promise<void> | void;
}

/** A message as lcm appends it (identity and tokens filled in). */
export function newMessage(message: ChatMessage, tokensBy?: string): NewMessage {
  return { message, tokens: Math.ceil(JSON.stringify(message).length / 4), identity: messageIdentity(message), ...(tokensBy ? { tokensBy } : {}) };
}

const turn = (i: number): ChatMessage => (i % 2 === 0 ? { role: "user", content: `question ${i} about the flamingo parser` } : { role: "assistant", content: `answer ${i}` });

/** A summary record of `session` covering seqs `from..to`. */
export function summaryRecord(id: string, session: string, from: number, to: number, depth = 1): SummaryRecord {
  return { id, session, kind: depth === 1 ? "leaf" : "condensed", depth, level: 1, content: `summary ${id} of ${from}..${to}`, tokens: 10, sourceTokens: 100, seqStart: from, seqEnd: to, createdAt: 1_000 + from };
}

/** `call`'s error, whether it throws or rejects (undefined when it succeeds). */
async function failureOf(call: () => unknown): Promise<Error | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** The contract's tests, under `describe(name)`. */
export function describeLcmStoreContract<S extends LcmStoreAsync>(name: string, harness: LcmStoreHarness<S>): void {
  describe(name, () => {
    let store: S;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it("appends messages after the last seq, keeps each verbatim, and lists them as context items", async () => {
      const long: ChatMessage = { role: "tool", tool_call_id: "c1", content: "x".repeat(5_000) };
      const parts: ChatMessage = { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: "data:y" } }], vendor: { keep: true } };
      const first = await store.appendMessages("s", [newMessage(turn(0)), newMessage(turn(1), "rough/2")], 100);
      const second = await store.appendMessages("s", [newMessage(long), newMessage(parts)], 200);
      expect([...first, ...second].map((m) => m.seq)).toEqual([1, 2, 3, 4]);
      expect(await store.lastSeq("s")).toBe(4);
      expect(await store.messageCount("s")).toBe(4);
      expect(await store.hasSession("s")).toBe(true);
      expect(await store.hasSession("other")).toBe(false);
      const read = await store.getMessages([...first, ...second].map((m) => m.id));
      expect(read.map((m) => m.message)).toEqual([turn(0), turn(1), long, parts]);
      expect(read[1]).toMatchObject({ tokensBy: "rough/2", createdAt: 100, role: "assistant" });
      expect(await store.getMessage(second[0]!.id)).toEqual(read[2]);
      expect(await store.getMessage("msg_999999")).toBeUndefined();
      expect(await store.getMessage("not-an-id")).toBeUndefined();
      expect(await store.contextItems("s")).toEqual([...first, ...second].map((m) => ({ type: "message", id: m.id })));
      expect(Buffer.compare((await store.identityAt("s", 3))!, messageIdentity(long))).toBe(0);
      expect((await store.identitiesFrom("s", 3)).map((b) => b.toString("hex"))).toEqual([messageIdentity(long), messageIdentity(parts)].map((b) => b.toString("hex")));
      expect((await store.getMessagesBySeq("s", 2, 3)).map((m) => m.seq)).toEqual([2, 3]);
      expect((await store.getMessagesBySeq("s", 3, Number.MAX_SAFE_INTEGER)).map((m) => m.seq)).toEqual([3, 4]);
    });

    it("keeps a message holding NUL characters verbatim", async () => {
      const binary: ChatMessage = { role: "tool", tool_call_id: "c1", content: "raw \u0000 output \u0000" };
      const [stored] = await store.appendMessages("s", [newMessage(binary)], 1);
      expect((await store.getMessage(stored!.id))!.message).toEqual(binary);
    });

    it("keeps sessions apart, lists them sorted, and reads messages of several sessions by id in session and seq order", async () => {
      const a = await store.appendMessages("a", [newMessage(turn(0)), newMessage(turn(1))], 1);
      const b = await store.appendMessages("b", [newMessage(turn(2))], 1);
      expect(b[0]!.seq).toBe(1);
      const read = await store.getMessages([b[0]!.id, a[1]!.id, "msg_0", a[0]!.id]);
      expect(read.map((m) => [m.session, m.seq])).toEqual([["a", 1], ["a", 2], ["b", 1]]);
      await store.appendMessages("B", [newMessage(turn(3))], 1);
      expect(await store.sessions()).toEqual(["B", "a", "b"]);
      expect([await store.hasSession("a"), await store.hasSession("c")]).toEqual([true, false]);
    });

    it("commits a summary in place of a context range with its lineage, and refuses a range that changed, changing nothing", async () => {
      const stored = await store.appendMessages("s", Array.from({ length: 6 }, (_, i) => newMessage(turn(i))), 1);
      const refs: ItemRef[] = stored.map((m) => ({ type: "message", id: m.id }));
      const leaf = summaryRecord("sum_leaf", "s", 1, 3);
      await store.commitSummary(leaf, refs.slice(0, 3), 0, 2);
      expect(await store.contextItems("s")).toEqual([{ type: "summary", id: "sum_leaf" }, ...refs.slice(3)]);
      expect(await store.sourcesOf("sum_leaf")).toEqual(refs.slice(0, 3));
      expect(await store.parentsOf(refs[1]!.id)).toEqual(["sum_leaf"]);
      expect(await store.getSummary("sum_leaf")).toEqual(leaf);

      const stale = await failureOf(() => store.commitSummary(summaryRecord("sum_stale", "s", 1, 3), refs.slice(0, 3), 0, 2));
      expect(stale?.message).toMatch(/context items 0\.\.2 of session 's' changed under the compaction/);
      expect(await store.getSummary("sum_stale")).toBeUndefined();
      expect(await store.sourcesOf("sum_stale")).toEqual([]);

      const condensed = summaryRecord("sum_top", "s", 1, 5, 2);
      await store.commitSummary(condensed, [{ type: "summary", id: "sum_leaf" }, ...refs.slice(3, 5)], 0, 2);
      expect(await store.contextItems("s")).toEqual([{ type: "summary", id: "sum_top" }, refs[5]]);
      expect(await store.contextSummaryIds("s")).toEqual(["sum_top"]);
      expect((await store.allSummaries("s")).map((x) => x.id)).toEqual(["sum_leaf", "sum_top"]);
      expect(await store.summaryCounts("s")).toEqual([
        { depth: 1, kind: "leaf", level: 1, n: 1 },
        { depth: 2, kind: "condensed", level: 1, n: 1 },
      ]);
      // appending after a summary continues the context list
      const later = await store.appendMessages("s", [newMessage(turn(6))], 2);
      expect((await store.contextItems("s")).at(-1)).toEqual({ type: "message", id: later[0]!.id });
    });

    it("carries summaries of one session into the start of an empty session's context, and refuses a session that has items", async () => {
      const stored = await store.appendMessages("s", Array.from({ length: 4 }, (_, i) => newMessage(turn(i))), 1);
      const refs: ItemRef[] = stored.map((m) => ({ type: "message", id: m.id }));
      await store.commitSummary(summaryRecord("sum_a", "s", 1, 2), refs.slice(0, 2), 0, 1);
      await store.commitSummary(summaryRecord("sum_b", "s", 3, 4), refs.slice(2, 4), 1, 2);
      await store.carrySummaries("s~1", ["sum_a", "sum_b"]);
      expect(await store.contextItems("s~1")).toEqual([
        { type: "summary", id: "sum_a" },
        { type: "summary", id: "sum_b" },
      ]);
      expect(await store.hasSession("s~1")).toBe(true);
      const later = await store.appendMessages("s~1", [newMessage(turn(9))], 2);
      expect((await store.contextItems("s~1")).at(-1)).toEqual({ type: "message", id: later[0]!.id });
      expect((await failureOf(() => store.carrySummaries("s~1", ["sum_a"])))?.message).toMatch(/already has context items/);
      expect((await failureOf(() => store.carrySummaries("s~2", ["sum_nope"])))?.message).toMatch(/sum_nope/);
      expect(await store.contextItems("s~2")).toEqual([]);
      // the summaries stay the earlier session's
      expect((await store.getSummary("sum_a"))?.session).toBe("s");
    });

    it("logs compactions and answers the latest", async () => {
      expect(await store.lastCompaction("s")).toBeUndefined();
      await store.logCompaction({ session: "s", at: 1, passes: 1, tokensBefore: 100, tokensAfter: 50, summariesCreated: 1, fallbackSummaries: 0 });
      await store.logCompaction({ session: "s", at: 2, passes: 3, tokensBefore: 90, tokensAfter: 40, summariesCreated: 2, fallbackSummaries: 1 });
      expect(await store.lastCompaction("s")).toEqual({ session: "s", at: 2, passes: 3, tokensBefore: 90, tokensAfter: 40, summariesCreated: 2, fallbackSummaries: 1 });
    });

    it("gives appends that run together consecutive seqs, none lost or repeated", async () => {
      const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 5 }, (_, i) => newMessage({ role: "user", content: `batch ${b} turn ${i}` })));
      await Promise.all(batches.map((batch) => store.appendMessages("s", batch, 1)));
      const all = await store.getMessagesBySeq("s", 1, 100);
      expect(all.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(new Set(all.map((m) => m.message.content)).size).toBe(40);
      expect((await store.contextItems("s")).map((r) => r.id)).toEqual(all.map((m) => m.id));
    });
  });
}
