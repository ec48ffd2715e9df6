/**
 * The engine's hold on its store. A SQLite file the engine opened itself is closed at a session's end
 * (once the operations still using it are done) and reopened on its next use; a store handed to the
 * engine stays open until `close()`, which closes it only when the engine was told it owns it.
 */
import { LcmStore } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** A store and the operations using it. */
export class StoreHandle<S extends LcmStoreAsync> {
  /** Operations using the store: a file is not closed under them. */
  private running = 0;
  /** Set by {@link release} while operations were running: the last one to finish closes the file. */
  private closeWhenIdle = false;
  /** Set by {@link close}: the file is not reopened any more. */
  private disposed = false;

  /**
   * @param current the open store
   * @param openedFile true when the engine opened `current` (a SQLite file) itself
   * @param owned true when `close()` closes a store handed to the engine
   */
  constructor(
    private current: S,
    private readonly openedFile: boolean,
    private readonly owned: boolean,
  ) {}

  /** The store; a file this handle closed is reopened. */
  get store(): S {
    const current = this.current;
    if (this.openedFile && !this.disposed && current instanceof LcmStore && !current.isOpen) this.current = new LcmStore(current.path) as LcmStoreAsync as S;
    return this.current;
  }

  /** Runs `body` on the store; the file is not closed while it runs. The count starts before the first await. */
  async use<T>(body: (store: S) => PromiseLike<T> | T): Promise<T> {
    this.running++;
    try {
      return await body(this.store);
    } finally {
      this.running--;
      if (this.running === 0 && this.closeWhenIdle) this.closeFile();
    }
  }

  /** Closes a file the engine opened, now or once the operations using it are done; the next use reopens it. */
  release(): void {
    if (this.running > 0) this.closeWhenIdle = true;
    else this.closeFile();
  }

  private closeFile(): void {
    this.closeWhenIdle = false;
    const current = this.current;
    if (this.openedFile && current instanceof LcmStore && current.path !== ":memory:") current.close();
  }

  /** Closes the store for good if the engine opened or owns it. */
  async close(): Promise<void> {
    this.disposed = true;
    if (this.openedFile || this.owned) await this.current.close();
  }
}
