/**
 * The lcm doctor: checks a store's summary DAG and indexes and lists what is wrong. Read-only. Each
 * session's context items must resolve to records of that session, every summary's sources must exist
 * and match its covered range and depth, every stored message must be reachable from the context (so
 * nothing is lost), and every message and summary must have its full-text (and, for unspaced scripts,
 * trigram) index row. The index rows are checked on the SQLite store only; on another store (PostgreSQL,
 * whose indexes the database keeps itself) the report says that check was skipped.
 */
import { searchableText } from "./messageText.js";
import { LcmStore, sessionKey, type ItemRef, type StoredMessage, type SummaryRecord } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { hasUnspacedScript } from "./store/unspaced.js";

/** Kinds of problems the doctor reports. */
export type DoctorProblemCode =
  | "missing_item" // a context item names a record that does not exist
  | "foreign_item" // a context item names a record of another session
  | "missing_source" // a summary names a source that does not exist
  | "range_mismatch" // a summary's covered seq range is not its sources' range, or its sources are out of order
  | "depth_mismatch" // a leaf with summary sources, or a condensed summary not one deeper than its deepest child
  | "context_order" // context items whose seq ranges overlap or go backwards
  | "unreachable_message" // a stored message no context item leads to
  | "missing_index_row"; // a message or summary without its full-text or trigram index row

/** One problem: what, where, and a sentence. */
export interface DoctorProblem {
  code: DoctorProblemCode;
  session: string;
  /** The record concerned, when there is one. */
  id?: string;
  message: string;
}

/** What the doctor found. */
export interface DoctorReport {
  ok: boolean;
  sessions: number;
  messages: number;
  summaries: number;
  problems: DoctorProblem[];
  /** Checks this store could not run, each a sentence (the index rows on a store other than SQLite). */
  skipped?: string[];
}

/** What the report says when the index rows were not checked. */
export const INDEX_CHECK_SKIPPED = "missing_index_row: not checked, the store is not lcm's SQLite store (its database keeps its own search indexes)";

type Range = [number, number];

/** Checks `sessions` (default: every session in the store); see the module comment. */
export async function checkLcmStore(store: LcmStoreAsync, sessions?: readonly string[]): Promise<DoctorReport> {
  const checked = sessions ?? (await store.sessions());
  const report: DoctorReport = { ok: true, sessions: checked.length, messages: 0, summaries: 0, problems: [] };
  for (const session of checked) await checkSession(store, session, report);
  if (!(store instanceof LcmStore)) report.skipped = [INDEX_CHECK_SKIPPED];
  report.ok = report.problems.length === 0;
  return report;
}

async function checkSession(store: LcmStoreAsync, session: string, report: DoctorReport): Promise<void> {
  const problem = (code: DoctorProblemCode, message: string, id?: string) => report.problems.push({ code, session, ...(id ? { id } : {}), message });
  const [messages, summaries, items] = await Promise.all([store.getMessagesBySeq(session, 1, Number.MAX_SAFE_INTEGER), store.allSummaries(session), store.contextItems(session)]);
  report.messages += messages.length;
  report.summaries += summaries.length;
  const byId = new Map<string, StoredMessage>(messages.map((m) => [m.id, m]));
  const summaryById = new Map<string, SummaryRecord>(summaries.map((s) => [s.id, s]));

  // summaries: sources exist, ranges and depths agree
  const sourcesById = new Map(await Promise.all(summaries.map(async (s) => [s.id, await store.sourcesOf(s.id)] as const)));
  for (const summary of summaries) {
    const sources = sourcesById.get(summary.id)!;
    const ranges: Range[] = [];
    let deepest = 0;
    let resolved = true;
    for (const ref of sources) {
      const range = rangeOf(ref, byId, summaryById);
      if (!range) {
        problem("missing_source", `summary ${summary.id} names source ${ref.id}, which does not exist in this session`, summary.id);
        resolved = false;
        continue;
      }
      ranges.push(range.range);
      deepest = Math.max(deepest, range.depth);
    }
    if (resolved && !rangesMatch(ranges, [summary.seqStart, summary.seqEnd])) {
      problem("range_mismatch", `summary ${summary.id} covers messages ${summary.seqStart}-${summary.seqEnd}, its ${sources.length} sources ${describeRanges(ranges)}`, summary.id);
    }
    if (summary.kind === "leaf" ? sources.some((s) => s.type !== "message") : resolved && summary.depth !== deepest + 1) {
      problem("depth_mismatch", `${summary.kind} summary ${summary.id} has depth ${summary.depth} over sources of depth ${deepest}`, summary.id);
    }
  }

  // context: items resolve, in order, and every message is reachable
  const reachable = new Set<string>();
  // a source that is not a summary of this session has no sources here (reported above)
  const walk = (ref: ItemRef, seen: Set<string>) => {
    if (seen.has(ref.id)) return;
    seen.add(ref.id);
    if (ref.type === "message") reachable.add(ref.id);
    else for (const child of sourcesById.get(ref.id) ?? []) walk(child, seen);
  };
  let lastEnd = 0;
  let carried = true;
  for (const item of items) {
    const range = rangeOf(item, byId, summaryById);
    if (!range) {
      const elsewhere = item.type === "message" ? await store.getMessage(item.id) : await store.getSummary(item.id);
      // summaries of an earlier session that /new carried over lead the context: they are not this session's to check
      if (carried && item.type === "summary" && elsewhere) continue;
      if (elsewhere) problem("foreign_item", `context item ${item.id} belongs to session '${elsewhere.session}'`, item.id);
      else problem("missing_item", `context item ${item.type} ${item.id} does not exist`, item.id);
      continue;
    }
    carried = false;
    if (range.range[0] <= lastEnd) problem("context_order", `context item ${item.id} (messages ${range.range[0]}-${range.range[1]}) starts at or before message ${lastEnd}, where the item before it ends`, item.id);
    lastEnd = Math.max(lastEnd, range.range[1]);
    walk(item, new Set());
  }
  for (const m of messages) if (!reachable.has(m.id)) problem("unreachable_message", `message ${m.id} (seq ${m.seq}) is reachable from no context item`, m.id);
  if (store instanceof LcmStore) checkIndexRows(store, session, messages, summaries, problem);
}

/** Every message and summary of `session` has its full-text row, and its trigram row when written without spaces. */
function checkIndexRows(store: LcmStore, session: string, messages: readonly StoredMessage[], summaries: readonly SummaryRecord[], problem: (code: DoctorProblemCode, message: string, id?: string) => void): void {
  const indexed = new Set((store.db.prepare("SELECT rowid AS id FROM lcm_messages_fts WHERE lcm_messages_fts MATCH ?").all(`skey : ${sessionKey(session)}`) as { id: number }[]).map((r) => r.id));
  const summaryIndexed = new Set((store.db.prepare("SELECT rowid AS id FROM lcm_summaries_fts WHERE lcm_summaries_fts MATCH ?").all(`skey : ${sessionKey(session)}`) as { id: number }[]).map((r) => r.id));
  for (const m of messages) {
    const text = searchableText(m.message);
    if (!indexed.has(m.rowId)) problem("missing_index_row", `message ${m.id} has no full-text index row`, m.id);
    else if (hasUnspacedScript(text) && !hasTrigramRow(store, "lcm_messages_tri", m.rowId, text)) problem("missing_index_row", `message ${m.id} has no trigram index row`, m.id);
  }
  const rowIds = new Map((store.db.prepare("SELECT rowid AS rowId, id FROM lcm_summaries WHERE session = ?").all(session) as { rowId: number; id: string }[]).map((r) => [r.id, r.rowId]));
  for (const s of summaries) {
    const rowId = rowIds.get(s.id)!;
    if (!summaryIndexed.has(rowId)) problem("missing_index_row", `summary ${s.id} has no full-text index row`, s.id);
    else if (hasUnspacedScript(s.content) && !hasTrigramRow(store, "lcm_summaries_tri", rowId, s.content)) problem("missing_index_row", `summary ${s.id} has no trigram index row`, s.id);
  }
}

/** The seq range and depth (0 for a message) of a reference inside the session, or undefined when it does not resolve there. */
function rangeOf(ref: ItemRef, messages: Map<string, StoredMessage>, summaries: Map<string, SummaryRecord>): { range: Range; depth: number } | undefined {
  if (ref.type === "message") {
    const m = messages.get(ref.id);
    return m ? { range: [m.seq, m.seq], depth: 0 } : undefined;
  }
  const s = summaries.get(ref.id);
  return s ? { range: [s.seqStart, s.seqEnd], depth: s.depth } : undefined;
}

/** True when `ranges` follow each other in order and span exactly `span`. */
function rangesMatch(ranges: readonly Range[], span: Range): boolean {
  if (ranges.length === 0 || ranges[0]![0] !== span[0] || ranges[ranges.length - 1]![1] !== span[1]) return false;
  for (let i = 1; i < ranges.length; i++) if (ranges[i]![0] <= ranges[i - 1]![1]) return false;
  return true;
}

function describeRanges(ranges: readonly Range[]): string {
  if (ranges.length === 0) return "cover nothing";
  return `cover ${ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ")}`;
}

/** True when the trigram table has row `rowId` holding a substring of `text`. */
function hasTrigramRow(store: LcmStore, table: "lcm_messages_tri" | "lcm_summaries_tri", rowId: number, text: string): boolean {
  const probe = [...text.trim()].slice(0, 3).join("");
  if ([...probe].length < 3) return true;
  const row = store.db.prepare(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid = ?`).get(`"${probe.replace(/"/g, '""')}"`, rowId);
  return row !== undefined;
}
