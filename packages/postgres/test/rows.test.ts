/**
 * One row codec per store for SQLite and PostgreSQL: the same record read from SQLite's columns and from
 * pg's (BIGINT as text, booleans), and pg handing a real server's BIGINT and BOOLEAN over as the
 * decoder expects (a server this file starts).
 */
import { deflateRawSync } from "node:zlib";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { sessionRowCodec, SQLITE_COLUMNS, type CompactionRow, type MessageRow, type SessionRow, type SqliteColumnTypes } from "@context-engine/core/store";
import { lcmRowCodec, messageIdentity, type LcmCompactionRow, type LcmMessageRow, type LcmSummaryRow } from "@context-engine/lcm/store";
import { PG_COLUMNS, type PgColumnTypes } from "../src/columns.js";
import { toCompaction, toSession, toStored } from "../src/session/rows.js";
import { useTestPostgres } from "./support/useTestPostgres.js";

const server = useTestPostgres();

describe("the session store's rows on SQLite and PostgreSQL", () => {
  it("read as the same session, message and compaction records", () => {
    const sqlite = sessionRowCodec(SQLITE_COLUMNS);
    const session: SessionRow = { id: "s", platform: "cli", scope: "team-a", title: "t", created_at: 1_700_000_000_000, updated_at: 1_700_000_000_500, parent_session_id: "p", compression_count: 1, last_compaction_in_place: 0 };
    const pgSession: SessionRow<PgColumnTypes> = { ...session, created_at: "1700000000000", updated_at: "1700000000500", last_compaction_in_place: false };
    expect(toSession(pgSession)).toEqual(sqlite.toSession(session));
    const message: MessageRow = { id: 12, session_id: "s", seq: 2, role: "tool", message_json: '{"role":"tool","tool_call_id":"c","content":"ok"}', text: "ok", tokens: 3, tokens_by: "rough-v1", active: 1, compacted: 0, compaction_id: null, created_at: 9 };
    const pgMessage: MessageRow<PgColumnTypes> = { ...message, id: "12", active: true, compacted: false, compaction_id: null, created_at: "9" };
    expect(toStored(pgMessage)).toEqual(sqlite.toStored(message));
    const compaction: CompactionRow = { id: 3, session_id: "s", kind: "undo", at: 77, in_place: 1, messages_before: 3, messages_after: 5, summary: null, report_json: null, first_seq: 1, last_seq: 2, reverts_compaction_id: 2, undone_by: null };
    const pgCompaction: CompactionRow<PgColumnTypes> = { ...compaction, id: "3", at: "77", in_place: true, reverts_compaction_id: "2", undone_by: null };
    expect(toCompaction(pgCompaction)).toEqual(sqlite.toCompaction(compaction));
  });
});

describe("the lcm store's rows on SQLite and PostgreSQL", () => {
  it("read as the same message, summary and compaction-log records, SQLite's packed JSON and content column included", () => {
    const sqlite = lcmRowCodec<SqliteColumnTypes>(SQLITE_COLUMNS);
    const postgres = lcmRowCodec(PG_COLUMNS);
    const content = "a long tool output ".repeat(60);
    const message = { role: "user" as const, content };
    const identity = messageIdentity(message);
    const sqliteMessage: LcmMessageRow = {
      id: 41, session: "s", seq: 1, role: "user", message_json: deflateRawSync(JSON.stringify({ ...message, content: null })), content_text: deflateRawSync(content),
      tokens: 120, identity, created_at: 5, tokens_by: null,
    };
    const pgMessage: LcmMessageRow<PgColumnTypes> = { id: "41", session: "s", seq: 1, role: "user", message_json: JSON.stringify(message), tokens: 120, identity, created_at: "5", tokens_by: null };
    const read = postgres.toMessage(pgMessage);
    expect(read).toEqual(sqlite.toMessage(sqliteMessage));
    expect([read.id, read.rowId, read.message, read.tokensBy]).toEqual(["msg_41", 41, message, undefined]);
    const summary: LcmSummaryRow = { id: "sum_1", session: "s", kind: "leaf", depth: 1, level: 2, content: "c", tokens: 5, source_tokens: 50, seq_start: 1, seq_end: 4, created_at: 8 };
    expect(postgres.toSummary({ ...summary, created_at: "8" })).toEqual(sqlite.toSummary(summary));
    const logged: LcmCompactionRow = { at: 99, passes: 2, tokens_before: 900, tokens_after: 300, summaries_created: 3, fallback_summaries: 1 };
    expect(postgres.toCompaction("s", { ...logged, at: "99" })).toEqual({ session: "s", at: 99, passes: 2, tokensBefore: 900, tokensAfter: 300, summariesCreated: 3, fallbackSummaries: 1 });
    expect(sqlite.toCompaction("s", logged)).toEqual(postgres.toCompaction("s", { ...logged, at: "99" }));
  });
});

describe("pg's columns", () => {
  it("come from a real server as the decoder reads them: BIGINT as text, BOOLEAN as boolean", async () => {
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    try {
      const { rows } = await client.query<{ big: unknown; yes: unknown }>("SELECT 1700000000123::bigint AS big, true AS yes");
      expect(rows[0]).toEqual({ big: "1700000000123", yes: true });
      expect(PG_COLUMNS.bigint(rows[0]!.big as string)).toBe(1_700_000_000_123);
      expect(PG_COLUMNS.boolean(rows[0]!.yes as boolean)).toBe(true);
    } finally {
      await client.end();
    }
  });
});
