/**
 * How a store's history is searched, chosen in one place by what the store can do: the SQLite store
 * through its own indexes (FTS5 words, trigrams, see search.ts); a store that offers full-text search
 * ({@link LcmFullTextSearch}, e.g. PostgreSQL) through it, one query over the scope; regex patterns on such a
 * store, and full text on a store with neither, by a scan of its records through the data methods,
 * newest first within each session, inside the time budget.
 */
import { searchableText } from "../messageText.js";
import { LcmStore, type StoredMessage, type SummaryRecord } from "./LcmStore.js";
import type { LcmFullTextSearch, LcmStoreAsync } from "./LcmStoreAsync.js";
import { candidatesWanted, compileRegex, FAR_FUTURE, matchingFor, matchInSandbox, ranked, SCAN_BATCH, scanPattern, searchFullText, searchRegex } from "./search.js";
import type { FullTextRequest, FullTextResult, SearchKinds, SearchResult, SearchWindow, SessionScope } from "./search.js";

/** The searches lcm_grep runs. */
export interface HistorySearch {
  /** Full-text search (its query has at least one term); newest first, or the most relevant first. */
  fullText(request: FullTextRequest): Promise<FullTextResult>;
  /** Regex search (the pattern is checked first: a bad one is a `SearchError`); newest first. */
  regex(sessions: SessionScope, pattern: string, window: SearchWindow, budgetMs: number, kinds: SearchKinds): Promise<SearchResult>;
}

/** True when `store` offers its own full-text search. */
export function hasFullTextSearch(store: object): store is LcmFullTextSearch {
  const candidate = store as Partial<LcmFullTextSearch>;
  return typeof candidate.searchMessagesFullText === "function" && typeof candidate.searchSummariesFullText === "function";
}

/** The searches of `store` (see the module comment). */
export function historySearchOf(store: LcmStoreAsync): HistorySearch {
  if (store instanceof LcmStore) {
    return {
      fullText: async (request) => searchFullText(store, request),
      regex: async (sessions, pattern, window, budgetMs, kinds) => searchRegex(store, sessions, pattern, window, budgetMs, kinds),
    };
  }
  return {
    fullText: hasFullTextSearch(store)
      ? (request) => fullTextThroughStore(store, request)
      : async (request) => ({ ...ranked(await scanRecords(store, scanPattern(request.query), request.sessions, { ...request.window, limit: candidatesWanted(request) }, request.budgetMs, request.kinds), request), matchedBy: "scan" }),
    regex: async (sessions, pattern, window, budgetMs, kinds) => {
      compileRegex(pattern);
      return scanRecords(store, pattern, sessions, window, budgetMs, kinds);
    },
  };
}

/** The sessions of a scope as a list. */
async function sessionList(store: LcmStoreAsync, sessions: SessionScope): Promise<readonly string[]> {
  return sessions === "all" ? store.sessions() : sessions;
}

/** Newest first: by creation time, then by the order the store gave them (a message's row id). */
const newestMessageFirst = (a: StoredMessage, b: StoredMessage) => b.createdAt - a.createdAt || b.rowId - a.rowId;
const newestSummaryFirst = (a: SummaryRecord, b: SummaryRecord) => b.createdAt - a.createdAt || b.seqEnd - a.seqEnd;

/** Full text through the store's own search: one query per kind over the whole scope. */
async function fullTextThroughStore(store: LcmStoreAsync & LcmFullTextSearch, request: FullTextRequest): Promise<FullTextResult> {
  const window = { ...request.window, limit: candidatesWanted(request) };
  const none = { hits: [], truncated: false };
  const [messages, summaries] = await Promise.all([
    request.kinds.messages ? store.searchMessagesFullText(request.sessions, request.pattern, window) : none,
    request.kinds.summaries ? store.searchSummariesFullText(request.sessions, request.pattern, window) : none,
  ]);
  const result: SearchResult = {
    messages: (messages.hits as StoredMessage[]).sort(newestMessageFirst),
    summaries: (summaries.hits as SummaryRecord[]).sort(newestSummaryFirst),
    truncated: messages.truncated || summaries.truncated,
  };
  return { ...ranked(result, request), matchedBy: matchingFor(request.query) === "words" ? "words" : "substring" };
}

/**
 * Scans the records of the scope's sessions with the regex `pattern` (already checked), summaries then
 * messages, newest first within each session; stops at `window.limit` matches of each kind, and with
 * `truncated: true` when `budgetMs` runs out.
 */
async function scanRecords(store: LcmStoreAsync, pattern: string, sessions: SessionScope, window: SearchWindow, budgetMs: number, kinds: SearchKinds): Promise<SearchResult> {
  const deadline = Date.now() + budgetMs;
  const inWindow = (createdAt: number) => createdAt >= (window.since ?? 0) && createdAt < (window.before ?? FAR_FUTURE);
  const out: SearchResult = { messages: [], summaries: [], truncated: false };
  const scope = await sessionList(store, sessions);
  if (kinds.summaries) {
    const all = (await Promise.all(scope.map((session) => store.allSummaries(session)))).flat().filter((s) => inWindow(s.createdAt)).sort(newestSummaryFirst);
    const found = matchInSandbox(pattern, all.map((s) => s.content), window.limit, deadline - Date.now());
    if (found === "timeout") return { ...out, truncated: true };
    out.summaries = found.map((i) => all[i]!);
  }
  if (!kinds.messages) return out;
  for (const session of scope) {
    for (let to = await store.lastSeq(session); to >= 1 && out.messages.length < window.limit; to -= SCAN_BATCH) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { ...out, truncated: true };
      const batch = (await store.getMessagesBySeq(session, Math.max(1, to - SCAN_BATCH + 1), to)).filter((m) => inWindow(m.createdAt)).reverse();
      const found = matchInSandbox(pattern, batch.map((m) => searchableText(m.message)), window.limit - out.messages.length, remaining);
      if (found === "timeout") return { ...out, truncated: true };
      out.messages.push(...found.map((i) => batch[i]!));
    }
  }
  out.messages.sort(newestMessageFirst);
  return out;
}
