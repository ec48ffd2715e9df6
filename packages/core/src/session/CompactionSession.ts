/**
 * The thin stateful shell a host application keeps per conversation: it appends turns to the session
 * store, asks the engine whether and how to compress, writes the result back (in place under the same
 * id, or by rotation to a child session), and emits `session:compress`. When a route takes the
 * compaction over (the model's server owns the thread's context) it delegates and only logs the boundary.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { SessionRecord, SessionStore, UndoResult } from "../store/types.js";
import { checkScope, CompactionSessionBase, sessionScopeOf, resolveSessionOptions, serverBoundaryInfo } from "./compactionSessionBase.js";
import type { CompactionResult, CompactionSessionOptions } from "./types.js";

export type { CompactionOutcome, CompactionResult, CompactionSessionHost, CompactionSessionOptions, MaybeCompressOptions } from "./types.js";

/** One conversation bound to a (synchronous) store and an engine; {@link CompactionSessionAsync} takes a store that may answer asynchronously. */
export class CompactionSession extends CompactionSessionBase {
  readonly store: SessionStore;
  protected readonly anyStore: SessionStore;

  constructor(options: CompactionSessionOptions) {
    const resolved = resolveSessionOptions(options);
    const existing = options.sessionId === undefined ? undefined : checkScope(options.store.getSession(options.sessionId), sessionScopeOf(options));
    const session = existing ?? options.store.createSession({ id: options.sessionId, platform: options.platform, scope: sessionScopeOf(options), title: options.title ?? null });
    super(resolved, session);
    this.store = options.store;
    this.anyStore = options.store;
  }

  /** The current session's record. */
  session(): SessionRecord {
    return this.store.getSession(this.currentId)!;
  }

  /** Appends turns to the conversation (the first user turn after a compaction with the notice, when `compaction_notice` is on); returns their row ids. */
  append(messages: readonly ChatMessage[]): number[] {
    return this.store.appendMessages(this.currentId, this.notice.attach(messages));
  }

  /** The current message list, as the next request should send it. */
  messages(): ChatMessage[] {
    return this.store.activeMessages(this.currentId);
  }

  /**
   * Logs a compaction the model's server did on its own thread (e.g. an app-server in native mode) and
   * emits `session:compress`; the local transcript is left as it is.
   */
  recordAppServerCompaction(): CompactionResult {
    const count = this.store.activeRows(this.currentId).length;
    const compaction = this.store.recordCompactionBoundary(this.currentId, serverBoundaryInfo({ trigger: "auto", messageCount: count, hostStarted: false }));
    return this.finish(this.inPlaceEvent(this.session().compressionCount), compaction, count, count, undefined);
  }

  /** Undoes the latest in-place compaction of the current session (undefined when there is none). */
  undoLastCompaction(): UndoResult | undefined {
    const result = this.store.undoLastCompaction(this.currentId);
    this.lastCompactionInPlace = this.session().lastCompactionInPlace;
    return result;
  }
}
