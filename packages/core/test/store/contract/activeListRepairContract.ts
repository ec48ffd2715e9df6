/**
 * The session store contract of `repairActiveList` (a repair of the active list that is no compaction),
 * run by {@link describeSessionStoreContract} against every implementation.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/messages/schema.js";
import { CompactionConflictError, SessionStoreError, type SessionStoreAsync } from "../../../src/store/types.js";
import { assistant, conversation, expectFailure, summary, system, user } from "./fixtures.js";

/** A tool result whose call is not in the conversation: what a repair drops. */
const orphan: ChatMessage = { role: "tool", tool_call_id: "call_gone", content: "a result without its call" };

/** The repair tests, for the store `store()` returns (opened fresh for each test); `harness.storedRowCount` reads past the store. */
export function describeActiveListRepair<S extends SessionStoreAsync>(store: () => S, harness: { storedRowCount(store: S): Promise<number> | number }): void {
  describe("repairActiveList", () => {
    it("writes a repair once without a compaction: the replaced rows archived, neither active nor compacted, the turns appended meanwhile after it, the log and count untouched", async () => {
      const s = store();
      const session = await s.createSession({ platform: "cli" });
      await s.appendMessages(session.id, [user("first"), orphan, assistant("answer")]);
      const read = await s.activeRows(session.id);
      const late = [user("a turn appended meanwhile")];
      await s.appendMessages(session.id, late);
      const ids = await s.repairActiveList!(session.id, { readRowIds: read.map((r) => r.id), kept: 1, messages: [assistant("answer")] });
      expect(ids).toHaveLength(2);
      expect(await s.activeMessages(session.id)).toEqual([user("first"), assistant("answer"), ...late]);
      const archived = await s.archivedMessages(session.id);
      expect(archived.map((r) => [r.message, r.active, r.compacted, r.compactionId])).toEqual([
        [orphan, false, false, null],
        [assistant("answer"), false, false, null],
        [late[0], false, false, null],
      ]);
      expect(await harness.storedRowCount(s)).toBe(4 + 2);
      expect(await s.compactions(session.id)).toEqual([]);
      expect(await s.getSession(session.id)).toMatchObject({ compressionCount: 0, lastCompactionInPlace: null });
    });

    it("appends a repair that keeps every read row, and refuses a list that changed or a bad kept, writing nothing", async () => {
      const s = store();
      const session = await s.createSession({ platform: "cli" });
      await s.appendMessages(session.id, [user("first")]);
      const read = (await s.activeRows(session.id)).map((r) => r.id);
      expect(await s.repairActiveList!(session.id, { readRowIds: read, kept: 1, messages: [assistant("a stub")] })).toHaveLength(1);
      expect(await s.activeMessages(session.id)).toEqual([user("first"), assistant("a stub")]);
      await s.archiveAndReplace(session.id, [system, summary("all of it")]);
      const rows = await harness.storedRowCount(s);
      await expectFailure(() => s.repairActiveList!(session.id, { readRowIds: read, kept: 0, messages: [] }), CompactionConflictError, /no longer begins with the 1 rows/);
      const now = (await s.activeRows(session.id)).map((r) => r.id);
      await expectFailure(() => s.repairActiveList!(session.id, { readRowIds: now, kept: 3, messages: [] }), SessionStoreError, /kept must be a whole number from 0 to 2/);
      expect(await harness.storedRowCount(s)).toBe(rows);
    });

    it("leaves the rows a compaction in effect wrote, and repairs the turns after them so that an undo restores the list before it followed by the repaired turns", async () => {
      const s = store();
      const session = await s.createSession({ platform: "cli" });
      await s.appendMessages(session.id, conversation());
      await s.archiveAndReplace(session.id, [system, summary("all of it")]);
      await s.appendMessages(session.id, [orphan, assistant("go on")]);
      const read = (await s.activeRows(session.id)).map((r) => r.id);
      expect(await s.repairActiveList!(session.id, { readRowIds: read, kept: 1, messages: [summary("all of it"), assistant("go on")] })).toBeUndefined();
      expect(await s.activeMessages(session.id)).toEqual([system, summary("all of it"), orphan, assistant("go on")]);
      expect(await s.repairActiveList!(session.id, { readRowIds: read, kept: 2, messages: [assistant("go on")] })).toHaveLength(1);
      expect(await s.activeMessages(session.id)).toEqual([system, summary("all of it"), assistant("go on")]);
      await s.undoLastCompaction(session.id);
      expect(await s.activeMessages(session.id)).toEqual([...conversation(), assistant("go on")]);
    });
  });
}
