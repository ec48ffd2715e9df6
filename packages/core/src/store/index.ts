/** `@context-engine/core/store` — the session stores: the embedded SQLite store, full-text query helpers, the `session_search` tool over any store, the kit every store implementation shares (input checks, token counting, error wording), and the engine state workers share work through. */
export * from "./kit.js";
export { SqliteSessionStore } from "./sqliteStore.js";
export type { SqliteStoreOptions } from "./sqliteStore.js";
export type { SessionSearchStore } from "./types.js";
export { SearchQueryError } from "./types.js";
export { searchableText } from "../messages/text.js";

// Full-text queries
export { planSearchQuery } from "./search.js";
export type { SearchQueryPlan } from "./search.js";
export { MAX_QUERY_TERMS, queryTerms, ftsPhrase, literalFtsQuery, queryCutNote } from "./ftsQuery.js";
export type { QueryTerms } from "./ftsQuery.js";

// The session_search tool
export { sessionSearch, sessionEnds, runSessionSearch, scopedSearchSource, sessionSearchToolSchema, canSearchSessions, showMessage, SessionSearchArgsSchema, SessionSearchError, SESSION_SEARCH_TOOL_NAME } from "../tools/sessionSearch.js";
export type { ScopeAwareStore, SessionSearchArgs, ShownMessage, SessionEnds, SessionSearchHit, SessionSearchResult, SessionSearchSource } from "../tools/sessionSearch.js";
// Work shared by the workers of one store (docs/BEHAVIOUR.md, "Many workers"): what an engine, built-in or plugin, shares through
export { sharedStateStoreOf } from "./sharedState.js";
export type { SharedStateStore } from "./sharedState.js";
export { SharedWork, SHARED_CLAIM_MS, SHARED_RENEW_MS, SHARED_POLL_MS } from "./sharedWork.js";
export type { SharedWorkOptions, HeldClaim } from "./sharedWork.js";
// the store contract's helper types (the interfaces themselves are in the root)
export type { ActiveListRepair, Awaitable, AwaitableMethods, EngineStateEntry } from "./types.js";
