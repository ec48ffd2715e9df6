/**
 * {@link CompactionSession} over a store that may answer asynchronously ({@link SessionStoreAsync}: the
 * PostgreSQL store of `@context-engine/postgres`, or the SQLite one): the same compaction, every store
 * call awaited. Open one with `await CompactionSessionAsync.open(options)`.
 */
import type { ChatMessage } from "../messages/schema.js";
import { SessionStoreError, type CompactionRecord, type SessionRecord, type SessionStoreAsync, type UndoResult } from "../store/types.js";
import { checkScope, CompactionSessionBase, sessionScopeOf, resolveSessionOptions, serverBoundaryInfo, type ResolvedSessionOptions } from "./compactionSessionBase.js";
import type { CompactionResult, CompactionSessionOptions } from "./types.js";

/** Options of {@link CompactionSessionAsync.open}: those of {@link CompactionSession}, with a store that may answer asynchronously. */
export interface CompactionSessionAsyncOptions extends Omit<CompactionSessionOptions, "store"> {
  store: SessionStoreAsync;
}

/**
 * Creates the session; when another worker created the same id meanwhile (the store refuses the taken
 * id), that session is used, so workers opening one new conversation together all join it.
 */
async function createOrJoin(store: SessionStoreAsync, options: CompactionSessionAsyncOptions): Promise<SessionRecord> {
  try {
    return await store.createSession({ id: options.sessionId, platform: options.platform, scope: sessionScopeOf(options), title: options.title ?? null });
  } catch (error) {
    const created = options.sessionId === undefined || !(error instanceof SessionStoreError) ? undefined : await store.getSession(options.sessionId);
    if (created === undefined) throw error;
    return checkScope(created, sessionScopeOf(options))!;
  }
}

/** One conversation bound to a store that may answer asynchronously and an engine. */
export class CompactionSessionAsync extends CompactionSessionBase {
  readonly store: SessionStoreAsync;
  protected readonly anyStore: SessionStoreAsync;

  private constructor(resolved: ResolvedSessionOptions, store: SessionStoreAsync, session: SessionRecord) {
    super(resolved, session);
    this.store = store;
    this.anyStore = store;
  }

  /** Resumes `options.sessionId` (created with that id when the store does not have it), else starts a new session. */
  static async open(options: CompactionSessionAsyncOptions): Promise<CompactionSessionAsync> {
    const resolved = resolveSessionOptions(options);
    const { store } = options;
    const existing = options.sessionId === undefined ? undefined : checkScope(await store.getSession(options.sessionId), sessionScopeOf(options));
    return new CompactionSessionAsync(resolved, store, existing ?? (await createOrJoin(store, options)));
  }

  /** The current session's record. */
  async session(): Promise<SessionRecord> {
    return (await this.store.getSession(this.currentId))!;
  }

  /** Appends turns to the conversation (the first user turn after a compaction with the notice, when `compaction_notice` is on); returns their row ids. */
  async append(messages: readonly ChatMessage[]): Promise<number[]> {
    return this.store.appendMessages(this.currentId, this.notice.attach(messages));
  }

  /** The current message list, as the next request should send it. */
  async messages(): Promise<ChatMessage[]> {
    return this.store.activeMessages(this.currentId);
  }

  /**
   * Logs a compaction the model's server did on its own thread (e.g. an app-server in native mode) and
   * emits `session:compress`; the local transcript is left as it is.
   */
  async recordAppServerCompaction(): Promise<CompactionResult> {
    const count = (await this.store.activeRows(this.currentId)).length;
    const compaction: CompactionRecord = await this.store.recordCompactionBoundary(this.currentId, serverBoundaryInfo({ trigger: "auto", messageCount: count, hostStarted: false }));
    return this.finish(this.inPlaceEvent((await this.session()).compressionCount), compaction, count, count, undefined);
  }

  /** Undoes the latest in-place compaction of the current session (undefined when there is none). */
  async undoLastCompaction(): Promise<UndoResult | undefined> {
    const result = await this.store.undoLastCompaction(this.currentId);
    this.lastCompactionInPlace = (await this.session()).lastCompactionInPlace;
    return result;
  }
}
