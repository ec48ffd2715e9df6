import { describe, expect, it } from "vitest";
import { sessionRowCodec, SQLITE_COLUMNS, toCompaction, toSession, toStored, type ColumnDecoder, type CompactionRow, type MessageRow, type SessionRow } from "../../src/store/rows.js";

const sessionRow: SessionRow = { id: "s", platform: "cli", scope: "default", title: null, created_at: 10, updated_at: 20, parent_session_id: null, compression_count: 2, last_compaction_in_place: 1 };
const messageRow: MessageRow = {
  id: 7, session_id: "s", seq: 3, role: "user", message_json: '{"role":"user","content":"hi"}', text: "hi", tokens: 4, tokens_by: null,
  active: 0, compacted: 1, compaction_id: 5, created_at: 30,
};
const compactionRow: CompactionRow = {
  id: 5, session_id: "s", kind: "compaction", at: 40, in_place: 0, messages_before: 9, messages_after: 3, summary: "sum", report_json: '{"a":1}',
  first_seq: null, last_seq: null, reverts_compaction_id: null, undone_by: 6,
};

describe("the session store's row codec", () => {
  it("reads SQLite's rows: integers as they are, 0/1 as booleans, NULL as null, the JSON columns parsed", () => {
    expect(toSession(sessionRow)).toEqual({ id: "s", platform: "cli", scope: "default", title: null, createdAt: 10, updatedAt: 20, parentSessionId: null, compressionCount: 2, lastCompactionInPlace: true });
    expect(toSession({ ...sessionRow, last_compaction_in_place: null }).lastCompactionInPlace).toBeNull();
    expect(toSession({ ...sessionRow, last_compaction_in_place: 0 }).lastCompactionInPlace).toBe(false);
    expect(toStored(messageRow)).toEqual({ id: 7, sessionId: "s", seq: 3, role: "user", message: { role: "user", content: "hi" }, text: "hi", tokens: 4, active: false, compacted: true, compactionId: 5, createdAt: 30 });
    expect(toStored({ ...messageRow, compaction_id: null }).compactionId).toBeNull();
    expect(toCompaction(compactionRow)).toEqual({
      id: 5, sessionId: "s", kind: "compaction", at: 40, inPlace: false, messagesBefore: 9, messagesAfter: 3, summary: "sum", report: { a: 1 },
      revertsCompactionId: null, undoneByCompactionId: 6, transcriptRewritten: false,
    });
    expect(toCompaction({ ...compactionRow, first_seq: 1, last_seq: 4 }).transcriptRewritten).toBe(true);
  });

  it("reads the same records from another driver's columns through its decoder alone", () => {
    type TextColumns = { bigint: string; boolean: "t" | "f" };
    const text: ColumnDecoder<TextColumns> = { bigint: (value) => Number(value), boolean: (value) => value === "t" };
    const codec = sessionRowCodec(text);
    const sqlite = sessionRowCodec(SQLITE_COLUMNS);
    expect(codec.toSession({ ...sessionRow, created_at: "10", updated_at: "20", last_compaction_in_place: "t" })).toEqual(sqlite.toSession(sessionRow));
    expect(codec.toStored({ ...messageRow, id: "7", active: "f", compacted: "t", compaction_id: "5", created_at: "30" })).toEqual(sqlite.toStored(messageRow));
    expect(codec.toCompaction({ ...compactionRow, id: "5", at: "40", in_place: "f", undone_by: "6", reverts_compaction_id: null })).toEqual(sqlite.toCompaction(compactionRow));
  });
});
