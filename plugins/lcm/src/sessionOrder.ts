/** Work on one session runs in order, one task after another; work on different sessions runs side by side. */

/** A queue per session. */
export class SessionOrder {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after the tasks of `session` queued before it (whether they succeeded or failed). */
  run<T>(session: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(session);
    const result = previous === undefined ? task() : previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(session, tail);
    void tail.then(() => {
      if (this.tails.get(session) === tail) this.tails.delete(session);
    });
    return result;
  }
}
