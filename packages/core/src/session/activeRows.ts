/**
 * The session's active rows as it last read them, brought up to date on each read by reading only the
 * rows stored since (constant per turn, not the whole conversation). They are read whole again when the
 * list changed any other way than by appends (a compaction, an undo or a repair, here or by another
 * worker): the store's compression count changed, the last row read is no longer active, or a row
 * stored after it is not as it was (archived rows an undone compaction wrote stay archived, every later
 * row is active).
 */
import type { ChatMessage } from "../messages/schema.js";
import type { SessionStoreAsync, StoredMessage } from "../store/types.js";

/** The highest seq asked for (PostgreSQL's INTEGER). */
const LAST_SEQ = 2_147_483_647;

/** One session's active rows and their messages, as read. Never changed in place: a read that adds rows makes new arrays. */
export interface ActiveList {
  rows: readonly StoredMessage[];
  messages: ChatMessage[];
}

interface CachedList extends ActiveList {
  sessionId: string;
  compressionCount: number;
  /** Rows after the last active one up to this seq were archived when read (an undone compaction's), not appended. */
  archivedThrough: number;
}

/** The active rows of one session, kept between reads. */
export class ActiveRows {
  private cached: CachedList | undefined;

  /** The active rows of `sessionId` in `store` now: the rows kept, followed by those appended since, or all of them read again. */
  async read(store: SessionStoreAsync, sessionId: string): Promise<ActiveList> {
    const cached = this.cached;
    const last = cached?.sessionId === sessionId ? cached.rows[cached.rows.length - 1] : undefined;
    let since: StoredMessage[] | undefined;
    if (cached !== undefined && last !== undefined) {
      // two reads at once (a store with a pool answers both in one round trip's time)
      const [rowsSince, session] = await Promise.all([store.messagesBySeq(sessionId, last.seq, LAST_SEQ), store.getSession(sessionId)]);
      since = rowsSince;
      const count = session?.compressionCount;
      const later = since.slice(1);
      const asItWas = (row: StoredMessage) => (row.seq <= cached.archivedThrough ? !row.active : row.active);
      if (count === cached.compressionCount && since[0]?.id === last.id && since[0].active && later.every(asItWas)) {
        const added = later.filter((row) => row.seq > cached.archivedThrough);
        if (added.length === 0) return cached;
        this.cached = { ...cached, rows: cached.rows.concat(added), messages: cached.messages.concat(added.map((row) => row.message)) };
        return this.cached;
      }
    }
    const compressionCount = (await store.getSession(sessionId))?.compressionCount ?? 0;
    const rows = await store.activeRows(sessionId);
    const newLast = rows[rows.length - 1];
    // the archived rows read just now after what is the last active row still were there already, not appended
    const archivedAfter = newLast !== undefined && since?.some((row) => row.id === newLast.id) === true ? since.filter((row) => !row.active && row.seq > newLast.seq).map((row) => row.seq) : [];
    this.cached = { sessionId, compressionCount, rows, messages: rows.map((row) => row.message), archivedThrough: Math.max(newLast?.seq ?? 0, ...archivedAfter) };
    return this.cached;
  }
}
