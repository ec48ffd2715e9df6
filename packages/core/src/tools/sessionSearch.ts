/**
 * `session_search`, the agent's tool over the session store (upstream's; docs/BEHAVIOUR.md, "In-place compaction": archived turns stay
 * searchable): discovery by full-text query — each hit with a window of the turns around it and its
 * session's first and last turns —, scrolling around one message of a session, and browsing the most
 * recent sessions. Pure over a {@link SessionSearchStore}; results are JSON strings, errors `{error, code}`.
 */
import { z } from "zod";
import type { ToolSchema } from "../engine/types.js";
import { isScope } from "../engine/toolScope.js";
import { zodToolSchema } from "../engine/toolSchema.js";
import { unknownSessionError } from "../store/kit.js";
import { SearchQueryError, type AwaitableMethods, type SessionRecord, type SessionSearchStore, type StoredMessage } from "../store/types.js";

/** What `session_search` reads: a {@link SessionSearchStore} whose methods may answer with promises (a PostgreSQL store). */
export type SessionSearchSource = AwaitableMethods<SessionSearchStore>;

/** The tool's name. */
export const SESSION_SEARCH_TOOL_NAME = "session_search";

/** Characters of one message's text shown in a result (longer texts are cut with "…"). */
export const SESSION_SEARCH_TEXT_CHARS = 600;

/** `session_search` arguments. */
export const SessionSearchArgsSchema = z.strictObject({
  query: z.string().trim().min(1).optional().describe("Words to find in every session, archived (compacted) turns included; omit to browse recent sessions"),
  session_id: z.string().min(1).optional().describe("Scroll in this session (with around_seq), or restrict the query to it"),
  around_seq: z.number().int().min(1).optional().describe("The message (seq) to scroll around, with session_id"),
  window: z.number().int().min(0).max(20).default(2).describe("Messages shown before and after a hit or around_seq"),
  limit: z.number().int().min(1).max(50).default(5).describe("Hits (query) or sessions (browse) returned"),
});

/** Parsed `session_search` arguments. */
export type SessionSearchArgs = z.output<typeof SessionSearchArgsSchema>;

/** The schema offered to the agent. */
export function sessionSearchToolSchema(): ToolSchema {
  return zodToolSchema(
    SESSION_SEARCH_TOOL_NAME,
    "Search past conversations, including turns compacted out of this one: with query, matching turns with the turns around them and each session's first and last turns; with session_id and around_seq, the turns around that message; with neither, the most recent sessions.",
    SessionSearchArgsSchema,
  );
}

/** One message as the tool shows it. */
export interface ShownMessage {
  seq: number;
  role: string;
  /** False when a compaction took the turn out of the active list (it is still stored). */
  active: boolean;
  text: string;
  createdAt: string;
}

/** A session's first user turn (else its first turn) and its last turn, for orientation. */
export interface SessionEnds {
  first?: ShownMessage;
  last?: ShownMessage;
}

/** One hit of a query: the matching turn, its snippet and the turns around it. */
export interface SessionSearchHit {
  seq: number;
  archived: boolean;
  snippet: string;
  around: ShownMessage[];
}

/** What `session_search` answers: turns around one message, the recent sessions, or a query's hits by session. */
export type SessionSearchResult =
  | { mode: "scroll"; session_id: string; title: string | null; messages: ShownMessage[] }
  | { mode: "recent"; sessions: Array<{ session_id: string; title: string | null; platform: string; messages: number; updatedAt: string } & SessionEnds> }
  | { mode: "search"; query: string; sessions: Array<{ session_id: string; title: string | null; hits: SessionSearchHit[] } & SessionEnds> };

/** A store that can hand out a view restricted to one scope at the database level (PostgreSQL's row-level security). */
export interface ScopeAwareStore {
  forScope(scope: string): SessionSearchSource;
}

/**
 * `store` as the agent of a session of `scope` may read it: sessions, turns and hits of that scope only.
 * A session of another scope reads exactly as one that does not exist (the store's own "unknown
 * session" error, or no hit), so no argument widens the view. A store that offers `forScope` (PostgreSQL)
 * is also restricted by the database; the check here holds for every store.
 */
export function scopedSearchSource(store: SessionSearchSource & Partial<ScopeAwareStore>, scope: string): SessionSearchSource {
  // a blank scope would read as none (PostgreSQL's operator view): never a view of one scope
  if (!isScope(scope)) throw new TypeError("scopedSearchSource: the scope must be a non-empty string");
  const inner = typeof store.forScope === "function" ? store.forScope(scope) : store;
  const own = async (sessionId: string): Promise<SessionRecord | undefined> => {
    const session = await inner.getSession(sessionId);
    return session !== undefined && session.scope === scope ? session : undefined;
  };
  const require = async (sessionId: string, where: string): Promise<void> => {
    if ((await own(sessionId)) === undefined) throw unknownSessionError(sessionId, where);
  };
  return {
    getSession: own,
    listSessions: (options = {}) => inner.listSessions({ ...options, scope }),
    messagesBySeq: async (sessionId, fromSeq, toSeq) => {
      await require(sessionId, "messagesBySeq");
      return inner.messagesBySeq(sessionId, fromSeq, toSeq);
    },
    search: async (query, options = {}) => {
      if (options.sessionId !== undefined) await require(options.sessionId, "search");
      const hits = await inner.search(query, { ...options, scope });
      // the store filtered by scope; a hit of a session it does not own would be a store bug, never shown
      const owned = new Set<string>();
      for (const id of new Set(hits.map((hit) => hit.sessionId))) if ((await own(id)) !== undefined) owned.add(id);
      return hits.filter((hit) => owned.has(hit.sessionId));
    },
  };
}

/** True when `store` can serve `session_search` (a session store with search and ranged reads). */
export function canSearchSessions(store: unknown): store is SessionSearchSource {
  const s = store as Partial<SessionSearchSource> | undefined;
  return typeof s?.search === "function" && typeof s.listSessions === "function" && typeof s.messagesBySeq === "function" && typeof s.getSession === "function";
}

function cut(text: string, chars = SESSION_SEARCH_TEXT_CHARS): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/** The message as shown: seq, role, active, its searchable text (cut), creation time. */
export function showMessage(row: StoredMessage): ShownMessage {
  return { seq: row.seq, role: row.role, active: row.active, text: cut(row.text), createdAt: new Date(row.createdAt).toISOString() };
}

/** The {@link SessionEnds} of a session whose highest seq is `lastSeq`. */
export async function sessionEnds(store: SessionSearchSource, sessionId: string, lastSeq: number): Promise<SessionEnds> {
  const head = await store.messagesBySeq(sessionId, 1, Math.min(lastSeq, 8));
  const first = head.find((m) => m.role === "user") ?? head[0];
  const last = lastSeq > 0 ? (await store.messagesBySeq(sessionId, lastSeq, lastSeq))[0] : undefined;
  return { ...(first ? { first: showMessage(first) } : {}), ...(last ? { last: showMessage(last) } : {}) };
}

/** The result of one `session_search` call as a JSON-serialisable value. */
export async function sessionSearch(store: SessionSearchSource, args: SessionSearchArgs): Promise<SessionSearchResult> {
  if (args.around_seq !== undefined) {
    if (args.session_id === undefined) throw new SessionSearchError("around_seq needs session_id");
    const session = await store.getSession(args.session_id);
    if (session === undefined) throw new SessionSearchError(`no session '${args.session_id}'`, "not_found");
    const from = Math.max(1, args.around_seq - args.window);
    const messages = await store.messagesBySeq(session.id, from, args.around_seq + args.window);
    return { mode: "scroll", session_id: session.id, title: session.title, messages: messages.map(showMessage) };
  }
  if (args.query === undefined) {
    const sessions = await store.listSessions({ limit: args.limit });
    const listed = [];
    for (const s of sessions) {
      listed.push({ session_id: s.id, title: s.title, platform: s.platform, messages: s.messageCount, updatedAt: new Date(s.updatedAt).toISOString(), ...(await sessionEnds(store, s.id, s.lastSeq)) });
    }
    return { mode: "recent", sessions: listed };
  }
  const hits = await store.search(args.query, { limit: args.limit, ...(args.session_id ? { sessionId: args.session_id } : {}) });
  const bySession = new Map<string, SessionSearchHit[]>();
  for (const hit of hits) {
    const from = Math.max(1, hit.seq - args.window);
    const around = (await store.messagesBySeq(hit.sessionId, from, hit.seq + args.window)).map(showMessage);
    const list = bySession.get(hit.sessionId) ?? [];
    list.push({ seq: hit.seq, archived: hit.archived, snippet: hit.snippet, around });
    bySession.set(hit.sessionId, list);
  }
  const results = [];
  for (const [sessionId, sessionHits] of bySession) {
    const [overview] = await store.listSessions({ ids: [sessionId] });
    results.push({ session_id: sessionId, title: overview?.title ?? null, hits: sessionHits, ...(await sessionEnds(store, sessionId, overview?.lastSeq ?? 0)) });
  }
  return { mode: "search", query: args.query, sessions: results };
}

/** A `session_search` call that cannot be answered as asked. */
export class SessionSearchError extends Error {
  constructor(
    message: string,
    readonly code: "invalid_arguments" | "not_found" = "invalid_arguments",
  ) {
    super(message);
    this.name = "SessionSearchError";
  }
}

/** Runs `session_search` with raw arguments: a JSON result, or `{error, code}` (never rejects). */
export async function runSessionSearch(store: SessionSearchSource, rawArgs: unknown): Promise<string> {
  const parsed = SessionSearchArgsSchema.safeParse(rawArgs ?? {});
  if (!parsed.success) return JSON.stringify({ error: `session_search: ${z.prettifyError(parsed.error)}`, code: "invalid_arguments" });
  try {
    return JSON.stringify(await sessionSearch(store, parsed.data));
  } catch (error) {
    if (error instanceof SessionSearchError) return JSON.stringify({ error: `session_search: ${error.message}`, code: error.code });
    if (error instanceof SearchQueryError) return JSON.stringify({ error: error.message, code: "invalid_arguments" });
    return JSON.stringify({ error: `session_search failed: ${error instanceof Error ? error.message : String(error)}`, code: "internal" });
  }
}
