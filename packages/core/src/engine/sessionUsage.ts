/**
 * Prompt tokens per conversation, for an engine serving several at once (docs/BEHAVIOUR.md,
 * "Thresholds"): `lastPromptTokens` is the engine's latest report of any session, so a host that
 * names the session of each response (`updateFromResponse(usage, sessionId)`) gets each session judged by
 * its own usage. Pure bookkeeping; the engine decides what to record.
 */

/** The value of `lastPromptTokens` after a compaction, until the next real usage arrives. */
export const AWAITING_REAL_USAGE = -1;

/** Each named session's last reported prompt tokens ({@link AWAITING_REAL_USAGE} after its compaction). */
export class SessionPromptTokens {
  private readonly bySession = new Map<string, number>();
  /** True while the latest report named no session (a host that does not name sessions). */
  private latestUnnamed = true;

  /** A response's prompt tokens: of `sessionId`, or of no session in particular (`undefined`). */
  record(sessionId: string | undefined, promptTokens: number): void {
    this.latestUnnamed = sessionId === undefined;
    if (sessionId !== undefined) this.bySession.set(sessionId, promptTokens);
  }

  /** `sessionId` was compacted: its usage is unknown until its next response reports it. */
  compacted(sessionId: string): void {
    this.bySession.set(sessionId, AWAITING_REAL_USAGE);
  }

  /**
   * The last prompt tokens reported for `sessionId`, 0 for a session with no report of its own ("no real
   * usage yet": another session's usage says nothing about this one) — or `engineWide` (the engine's
   * `lastPromptTokens`) while the latest report named no session: that host does not name them.
   */
  of(sessionId: string, engineWide: number): number {
    return this.latestUnnamed ? engineWide : (this.bySession.get(sessionId) ?? 0);
  }

  /** The session ended or was reset. */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  /** Every session starts over (a model change: the old model's usage says nothing about the new one). */
  clear(): void {
    this.bySession.clear();
    this.latestUnnamed = true;
  }
}

/**
 * The last prompt tokens `engine` knows for `sessionId`: its `lastPromptTokensOf(sessionId)` when it keeps
 * usage per session, else its `lastPromptTokens` (engines are duck-typed).
 */
export function promptTokensOf(engine: { lastPromptTokens: number; lastPromptTokensOf?: (sessionId: string) => number }, sessionId: string | undefined): number {
  return sessionId !== undefined && typeof engine.lastPromptTokensOf === "function" ? engine.lastPromptTokensOf(sessionId) : engine.lastPromptTokens;
}
