/**
 * What the PostgreSQL lcm store takes from `@context-engine/lcm`, the package that owns the store
 * contract (a peer dependency). Its runtime part is loaded when a store is opened, so a host that uses
 * only the session store does not load lcm (nor its SQLite driver).
 */
import { SessionStoreError } from "@context-engine/core";
import type * as LcmStoreModule from "@context-engine/lcm/store";

export type {
  CompactionRecord as LcmCompactionRecord,
  ItemRef,
  LcmFullTextSearch,
  LcmMessageRow,
  LcmRowCodec,
  LcmStoreAsync,
  LcmSummaryRow,
  LcmCompactionRow,
  NewMessage,
  SearchHits,
  SearchWindow,
  SessionScope,
  StoredMessage,
  SummaryKind,
  SummaryLevel,
  SummaryRecord,
} from "@context-engine/lcm/store";

/** The runtime part of `@context-engine/lcm/store` (message ids, searchable text, SearchError). */
export type LcmApi = typeof LcmStoreModule;

/** Loads `@context-engine/lcm/store`; a missing package is a SessionStoreError saying what to install. */
export async function loadLcmApi(): Promise<LcmApi> {
  try {
    return await import("@context-engine/lcm/store");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    throw new SessionStoreError("openPostgresLcmStore needs the @context-engine/lcm package (a peer dependency of @context-engine/postgres): npm install @context-engine/lcm");
  }
}
