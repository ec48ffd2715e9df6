/**
 * The session store contract as tests, run against every implementation (the SQLite store here, the
 * PostgreSQL store in packages/postgres): each calls {@link describeSessionStoreContract} with a harness
 * that opens a fresh, empty store. Every store call is awaited, so a synchronous store and one that
 * returns promises run the same tests.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidMessagesError, type ChatMessage } from "../../../src/messages/schema.js";
import { MAX_QUERY_TERMS } from "../../../src/store/ftsQuery.js";
import { planSearchQuery } from "../../../src/store/search.js";
import { CompactionConflictError, SearchQueryError, SessionStoreError, type SessionStoreAsync } from "../../../src/store/types.js";
import { describeActiveListRepair } from "./activeListRepairContract.js";
import { assistant, conversation, expectFailure, failureOf, summary, system, user } from "./fixtures.js";

/** How the contract opens and inspects one implementation. */
export interface SessionStoreHarness<S extends SessionStoreAsync = SessionStoreAsync> {
  /** A new, empty store. */
  open(): Promise<S> | S;
  /** The same storage opened again after `store` was closed. */
  reopen(store: S): Promise<S> | S;
  /** A second connection to `store`'s storage, `store` staying open (another worker). */
  second(store: S): Promise<S> | S;
  /** Rows in the messages table, read past the store (what it really keeps). */
  storedRowCount(store: S): Promise<number> | number;
  /** Releases what `open` made (after the store is closed). */
  cleanup?(): Promise<void> | void;
}

export { assistant, conversation, expectFailure, failureOf, summary, system, user } from "./fixtures.js";

/** The contract's tests, under `describe(name)`. */
export function describeSessionStoreContract<S extends SessionStoreAsync>(name: string, harness: SessionStoreHarness<S>): void {
  describe(name, () => {
    let store: S;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    describe("messages", () => {
      it("returns the active list in order with every message exactly as appended, unknown fields included", async () => {
        const session = await store.createSession({ platform: "cli", title: "migration" });
        const odd: ChatMessage = { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:x" } }], vendor_extra: { a: [1, 2] } };
        const ids = await store.appendMessages(session.id, [...conversation(), odd]);
        expect(ids).toHaveLength(8);
        expect(new Set(ids).size).toBe(8);
        expect(await store.activeMessages(session.id)).toEqual([...conversation(), odd]);
        expect((await store.activeRows(session.id)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect((await store.activeRows(session.id)).map((r) => r.id)).toEqual(ids);
        expect(await store.getSession(session.id)).toMatchObject({ platform: "cli", title: "migration", parentSessionId: null, compressionCount: 0, lastCompactionInPlace: null });
      });

      it("keeps a turn holding NUL and other control characters verbatim, and still finds it", async () => {
        const session = await store.createSession({ platform: "cli" });
        const binary = user("tool printed \u0000\u0001 bytes before the flamingo banner\u0000");
        await store.appendMessages(session.id, [binary]);
        expect(await store.activeMessages(session.id)).toEqual([binary]);
        expect((await store.search("flamingo")).map((h) => h.seq)).toEqual([1]);
      });

      it("rejects an invalid message naming its index, and stores none of the batch", async () => {
        const session = await store.createSession({ platform: "cli" });
        const bad = [user("fine"), { role: "robot", content: "?" }] as unknown as ChatMessage[];
        await expectFailure(() => store.appendMessages(session.id, bad), InvalidMessagesError, /messages\[1\]\.role/);
        expect(await store.activeMessages(session.id)).toEqual([]);
      });

      it("names the unknown session and refuses a taken session id", async () => {
        await expectFailure(() => store.appendMessages("nope", [user("hi")]), SessionStoreError, /appendMessages\('nope'\): unknown session "nope"/);
        await store.createSession({ id: "s1", platform: "cli" });
        await expectFailure(() => store.createSession({ id: "s1", platform: "cli" }), SessionStoreError, /session 's1' already exists/);
        await expectFailure(() => store.createSession({ platform: "" }), SessionStoreError, /platform/);
        await expectFailure(() => store.createSession({ platform: "cli", parentSessionId: "ghost" }), SessionStoreError, /unknown session "ghost"/);
      });
    });

    describe("archiveAndReplace", () => {
      it("archives every original row under the compaction id and makes the new list active", async () => {
        const session = await store.createSession({ platform: "cli" });
        const original = conversation();
        await store.appendMessages(session.id, original);
        const compacted = [system, summary("migrated a database; added an index"), assistant("Added the index.")];
        const compaction = await store.archiveAndReplace(session.id, compacted, { summary: "migrated a database", report: { droppedMessages: 5 } });

        const archived = await store.archivedMessages(session.id, compaction.id);
        expect(archived.map((r) => r.message)).toEqual(original);
        expect(archived.every((r) => !r.active && r.compacted && r.compactionId === compaction.id)).toBe(true);
        expect(await store.activeMessages(session.id)).toEqual(compacted);
        expect(await harness.storedRowCount(store)).toBe(original.length + compacted.length);
        expect(compaction).toMatchObject({ kind: "compaction", inPlace: true, messagesBefore: 7, messagesAfter: 3, summary: "migrated a database", report: { droppedMessages: 5 }, undoneByCompactionId: null });
        expect(await store.compactions(session.id)).toEqual([compaction]);
        expect(await store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
      });

      it("changes nothing when the new list is invalid (one transaction)", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        await expectFailure(() => store.archiveAndReplace(session.id, [{ role: "user" } as unknown as ChatMessage]), InvalidMessagesError, /archiveAndReplace\('.*'\).*messages\[0\]\.content/s);
        await expectFailure(() => store.archiveAndReplace(session.id, []), SessionStoreError, /new message list is empty/);
        expect(await store.activeMessages(session.id)).toEqual(conversation());
        expect(await store.compactions(session.id)).toEqual([]);
      });

      it("keeps the turns appended after the rows it read behind the new list, and an undo restores the exact list", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        const read = await store.activeRows(session.id);
        const late = [user("a turn appended while the summarizer ran"), assistant("answered")];
        await store.appendMessages(session.id, late);
        const compaction = await store.archiveAndReplace(session.id, [system, summary("early work")], { compactedRowIds: read.map((r) => r.id) });
        expect(await store.activeMessages(session.id)).toEqual([system, summary("early work"), ...late]);
        expect(compaction.messagesAfter).toBe(4);
        await store.undoLastCompaction(session.id);
        expect(await store.activeMessages(session.id)).toEqual([...conversation(), ...late]);
      });

      it("refuses a compaction against rows another compaction already replaced, writing nothing (CompactionConflictError)", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        const read = (await store.activeRows(session.id)).map((r) => r.id);
        await store.archiveAndReplace(session.id, [system, summary("first worker")], { compactedRowIds: read });
        const before = await harness.storedRowCount(store);
        await expectFailure(() => store.archiveAndReplace(session.id, [system, summary("second worker")], { compactedRowIds: read }), CompactionConflictError, /no longer begins with the 7 rows/);
        await expectFailure(() => store.rotateSession(session.id, [system, summary("second worker")], { compactedRowIds: read }), CompactionConflictError);
        expect(await store.activeMessages(session.id)).toEqual([system, summary("first worker")]);
        expect(await harness.storedRowCount(store)).toBe(before);
        expect(await store.compactions(session.id)).toHaveLength(1);
        expect(await store.childSessions(session.id)).toEqual([]);
      });
    });

    describeActiveListRepair(() => store, harness);

    describe("search", () => {
      it("finds a term that exists only in archived turns and says the hit is archived", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        const compaction = await store.archiveAndReplace(session.id, [system, summary("moved the data"), assistant("Added the index.")]);

        const hits = await store.search("flamingo", { sessionId: session.id });
        expect(hits.length).toBe(3); // the user ask, the tool call arguments and the tool result
        for (const hit of hits) {
          expect(hit).toMatchObject({ sessionId: session.id, archived: true, active: false, compacted: true, compactionId: compaction.id });
          expect(hit.snippet).toContain(">>>flamingo<<<");
        }
        expect(hits.map((h) => h.seq).sort()).toEqual([2, 3, 4]);
        expect(await store.search("flamingo", { sessionId: session.id, includeArchived: false })).toEqual([]);
        const index = await store.search("index", { sessionId: session.id });
        expect(index.some((h) => h.active && !h.archived)).toBe(true);
        expect(index.some((h) => h.archived)).toBe(true);
      });

      it("searches every session unless one is named, and honours limit, phrases and prefixes", async () => {
        const a = await store.createSession({ platform: "cli" });
        const b = await store.createSession({ platform: "telegram" });
        await store.appendMessages(a.id, [user("deploy the kestrel service")]);
        await store.appendMessages(b.id, [user("kestrel logs look fine"), user("kestrel restarted")]);
        expect((await store.search("kestrel")).map((h) => h.sessionId).sort()).toEqual([a.id, b.id, b.id].sort());
        expect(await store.search("kestrel", { sessionId: a.id })).toHaveLength(1);
        expect(await store.search("kestrel", { limit: 1 })).toHaveLength(1);
        expect(await store.search('"kestrel restarted"')).toHaveLength(1);
        expect(await store.search("kest*")).toHaveLength(3);
      });

      it("refuses an empty query and bad options with readable errors", async () => {
        await expectFailure(() => store.search("   "), SearchQueryError, /the query is empty/);
        await expectFailure(() => store.search("flamingo", { limit: 0 }), SessionStoreError, /at least 1[\s\S]*at limit/);
        await expectFailure(() => store.search("flamingo", { sessionId: "ghost" }), SessionStoreError, /unknown session "ghost"/);
      });

      describe("any user text", () => {
        let sessionId: string;
        beforeEach(async () => {
          sessionId = (await store.createSession({ platform: "cli" })).id;
          await store.appendMessages(sessionId, [
            user("run cargo-llvm-cov over the crate"),
            user("pick a|b from the menu"),
            user("pg_dump flamingo: done (nightly)"),
            user('she said "hello" to the *star* - twice'),
          ]);
        });

        it("accepts text FTS5 cannot parse and finds it as words", async () => {
          const inputs = ["cargo-llvm-cov", "a|b", '"unclosed phrase', '"hello', "flamingo AND", "(flamingo", "pg_dump:", "*star*", "- twice", "flamingo)", "NOT", "NEAR(", "col:flamingo", "*", "--", '""', "a OR"];
          for (const input of inputs) expect(await failureOf(() => store.search(input)), input).toBeUndefined();
          expect((await store.search("cargo-llvm-cov")).map((h) => h.seq)).toEqual([1]);
          expect((await store.search("a|b")).map((h) => h.seq)).toEqual([2]);
          expect((await store.search("(flamingo")).map((h) => h.seq)).toEqual([3]);
          expect((await store.search('"hello')).map((h) => h.seq)).toEqual([4]);
          expect(await store.search("*")).toEqual([]);
        });

        it("still honours query syntax when the query parses", async () => {
          expect((await store.search('"cargo llvm"')).map((h) => h.seq)).toEqual([1]);
          expect((await store.search("flamin*")).map((h) => h.seq)).toEqual([3]);
          expect((await store.search("flamingo OR menu")).map((h) => h.seq).sort()).toEqual([2, 3]);
        });

        it("searches an 800-word OR query as its first 64 distinct words", async () => {
          const words = Array.from({ length: 800 }, (_, i) => `filler${i}`);
          words[3] = "flamingo";
          words[700] = "menu";
          const query = [...words, ...words].join(" OR ");
          expect(planSearchQuery(query)).toMatchObject({ raw: undefined, termsGiven: 800, termsUsed: MAX_QUERY_TERMS });
          // word 4 is searched, word 701 was cut
          expect((await store.search(query)).map((h) => h.seq)).toEqual([3]);
        });
      });
    });

    describe("undo", () => {
      it("restores the exact previous list, keeps later turns after it, and still deletes nothing", async () => {
        const session = await store.createSession({ platform: "cli" });
        const original = conversation();
        await store.appendMessages(session.id, original);
        const compaction = await store.archiveAndReplace(session.id, [system, summary("all of it"), assistant("Added the index.")]);
        const later = [user("And a unique constraint too"), assistant("Done.")];
        await store.appendMessages(session.id, later);
        const rowsBefore = await harness.storedRowCount(store);

        const undo = await store.undoLastCompaction(session.id);
        expect(undo).toMatchObject({ undoneCompactionId: compaction.id, restored: 7, archived: 3 });
        expect(await store.activeMessages(session.id)).toEqual([...original, ...later]);
        expect(await harness.storedRowCount(store)).toBe(rowsBefore);
        expect((await store.archivedMessages(session.id, undo!.undoId)).map((r) => r.message)).toEqual([system, summary("all of it"), assistant("Added the index.")]);
        expect(await store.getSession(session.id)).toMatchObject({ compressionCount: 0, lastCompactionInPlace: null });
        expect((await store.compactions(session.id)).map((c) => [c.kind, c.undoneByCompactionId, c.revertsCompactionId])).toEqual([
          ["compaction", undo!.undoId, null],
          ["undo", null, compaction.id],
        ]);
        expect(await store.undoLastCompaction(session.id)).toBeUndefined();
      });

      it("undoes two stacked compactions one at a time, back to the original list", async () => {
        const session = await store.createSession({ platform: "cli" });
        const original = conversation();
        await store.appendMessages(session.id, original);
        await store.archiveAndReplace(session.id, [system, summary("first"), assistant("Added the index.")]);
        await store.appendMessages(session.id, [user("more work")]);
        const afterFirst = await store.activeMessages(session.id);
        await store.archiveAndReplace(session.id, [system, summary("second")]);

        await store.undoLastCompaction(session.id);
        expect(await store.activeMessages(session.id)).toEqual(afterFirst);
        expect(await store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
        await store.undoLastCompaction(session.id);
        expect(await store.activeMessages(session.id)).toEqual([...original, user("more work")]);
      });

      it("logs an app-server boundary without touching the transcript, and refuses to undo it", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        const boundary = await store.recordCompactionBoundary(session.id, { report: { appServer: { trigger: "auto" } } });
        expect(boundary).toMatchObject({ inPlace: true, transcriptRewritten: false, messagesBefore: 7, messagesAfter: 7 });
        expect(await store.activeMessages(session.id)).toEqual(conversation());
        expect(await store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
        await expectFailure(() => store.undoLastCompaction(session.id), SessionStoreError, /done by the model's server on its own thread/);
      });
    });

    describe("rotation", () => {
      it("creates a child session linked by parent_session_id and leaves the parent as it was", async () => {
        const parent = await store.createSession({ platform: "cli", title: "work" });
        await store.appendMessages(parent.id, conversation());
        const { session: child, compaction } = await store.rotateSession(parent.id, [system, summary("rotated")], { summary: "rotated" });
        expect(child).toMatchObject({ parentSessionId: parent.id, platform: "cli", title: "work", compressionCount: 1, lastCompactionInPlace: false });
        expect(compaction).toMatchObject({ sessionId: child.id, inPlace: false, messagesBefore: 7, messagesAfter: 2 });
        expect(await store.activeMessages(parent.id)).toEqual(conversation());
        expect(await store.activeMessages(child.id)).toEqual([system, summary("rotated")]);
        expect((await store.childSessions(parent.id)).map((s) => s.id)).toEqual([child.id]);
        await expectFailure(() => store.undoLastCompaction(child.id), SessionStoreError, /created by rotation from/);
      });
    });

    describe("listing and ranged reads", () => {
      it("lists sessions most recently updated first with their counts, filtered by id or platform, and refuses a bad limit naming it", async () => {
        const older = await store.createSession({ platform: "telegram" });
        await store.appendMessages(older.id, conversation());
        await store.archiveAndReplace(older.id, [system, summary("older")]);
        const newer = await store.createSession({ platform: "cli" });
        await store.appendMessages(newer.id, [user("hello")]);
        const listed = await store.listSessions();
        expect(listed.map((s) => s.id)).toEqual([newer.id, older.id]);
        expect((await store.listSessions({ ids: [older.id] })).map((s) => [s.id, s.messageCount, s.activeCount, s.lastSeq])).toEqual([[older.id, 9, 2, 9]]);
        expect((await store.listSessions({ platform: "cli" })).map((s) => s.id)).toEqual([newer.id]);
        expect((await store.listSessions({ limit: 1, offset: 1 })).map((s) => s.id)).toEqual([older.id]);
        await expectFailure(() => store.listSessions({ limit: 0 }), SessionStoreError, /limit must be at least 1/);
      });

      it("reads a seq range of active and archived rows and names an unknown session", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        await store.archiveAndReplace(session.id, [system, summary("kept")]);
        expect((await store.messagesBySeq(session.id, 6, 20)).map((m) => [m.seq, m.active])).toEqual([[6, false], [7, false], [8, true], [9, true]]);
        await expectFailure(() => store.messagesBySeq("missing", 1, 2), SessionStoreError, /missing/);
        await expectFailure(() => store.messagesBySeq(session.id, 1.5, 2), SessionStoreError, /whole numbers/);
      });
    });

    describe("engine state", () => {
      it("saves, replaces, reads back after reopening, and clears one state per engine and session", async () => {
        await store.saveEngineState!("compressor", "s", { cooldownUntil: 1 });
        await store.saveEngineState!("compressor", "s", { cooldownUntil: 2 });
        await store.saveEngineState!("compressor", "t", { cooldownUntil: 3 });
        await store.saveEngineState!("other", "s", { cooldownUntil: 4 });
        store = await harness.reopen(store);
        expect(await store.loadEngineState!("compressor", "s")).toEqual({ cooldownUntil: 2 });
        await store.clearEngineState!("compressor", "s");
        expect(await store.loadEngineState!("compressor", "s")).toBeUndefined();
        expect(await store.loadEngineState!("compressor", "t")).toEqual({ cooldownUntil: 3 });
        expect(await store.loadEngineState!("other", "s")).toEqual({ cooldownUntil: 4 });
        await expectFailure(() => store.saveEngineState!("compressor", "s", undefined), SessionStoreError, /saveEngineState\('compressor', 's'\): the state is not a JSON value/);
      });

      it("gives a state to exactly one of two callers taking it at once, and nothing after", async () => {
        await store.saveEngineState!("compressor#prepared", "s", { summary: "x" });
        const second = await harness.second(store);
        try {
          const taken = await Promise.all([store.takeEngineState!("compressor#prepared", "s"), second.takeEngineState!("compressor#prepared", "s")]);
          expect(taken.filter((t) => t !== undefined)).toEqual([{ summary: "x" }]);
          expect(await store.takeEngineState!("compressor#prepared", "s")).toBeUndefined();
        } finally {
          await second.close();
        }
      });

      it("lets one claim through while it holds, and a new claim once it is older than the stale mark", async () => {
        const now = Date.now();
        expect(await store.claimEngineState!("compressor#preparing", "s", { by: "a" }, now - 60_000)).toBe(true);
        expect(await store.claimEngineState!("compressor#preparing", "s", { by: "b" }, now - 60_000)).toBe(false);
        expect(await store.loadEngineState!("compressor#preparing", "s")).toEqual({ by: "a" });
        // a's claim was written before this mark: it has expired
        expect(await store.claimEngineState!("compressor#preparing", "s", { by: "c" }, Date.now() + 1_000)).toBe(true);
        expect(await store.loadEngineState!("compressor#preparing", "s")).toEqual({ by: "c" });
      });
    });

    describe("reopening", () => {
      it("gives the same active list, flags and search after reopening", async () => {
        const session = await store.createSession({ platform: "cli" });
        await store.appendMessages(session.id, conversation());
        await store.archiveAndReplace(session.id, [system, summary("kept")]);
        const active = await store.activeMessages(session.id);
        store = await harness.reopen(store);
        expect(await store.activeMessages(session.id)).toEqual(active);
        expect(await store.archivedMessages(session.id)).toHaveLength(7);
        expect((await store.search("flamingo", { sessionId: session.id })).every((h) => h.archived)).toBe(true);
        expect(await store.getSession(session.id)).toMatchObject({ compressionCount: 1, lastCompactionInPlace: true });
      });
    });
  });
}
