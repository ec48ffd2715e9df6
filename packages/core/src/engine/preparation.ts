/**
 * Background compaction in the engine contract (docs/BEHAVIOUR.md, "Background compaction"): an engine
 * may prepare the summary of the range it would compact before its trigger fires, off the request path,
 * and apply it at once when the trigger fires. The optional `ContextEngine.prepareCompression` says so.
 */
import type { ToolSchema } from "./types.js";

/** Options of one `prepareCompression()` call. */
export interface PrepareCompressionOptions {
  /** The conversation this list belongs to (as for `compress()`). */
  sessionId?: string;
  /** The prompt tokens now (default: the engine's last real usage). */
  currentTokens?: number;
  /**
   * The trigger the preparation point is a share of (default: the engine's own; gateway hygiene passes
   * its 85 % threshold, `hygieneThresholdTokens`).
   */
  triggerTokens?: number;
  /** The tool definitions the agent's requests send (as for `compress()`: a summary asked as the conversation's suffix repeats them). */
  tools?: readonly ToolSchema[];
}

/**
 * Where a session's background summary stands. `off`: not configured; `not_due`: usage is below the
 * preparation point (or compaction is paused); `started`: this call started it; `pending`: it is being
 * written; `ready`: it waits for the trigger; `failed`: the summarizer failed in the background — the
 * conversation is unchanged and the trigger will compact the usual, blocking way.
 */
export type PreparationState = "off" | "not_due" | "started" | "pending" | "ready" | "failed";

/** What `prepareCompression()` reports: the state, why, and the range the summary covers. */
export interface PreparationStatus {
  state: PreparationState;
  /** Why it is not due, or why it failed. */
  reason?: string;
  /** How many messages of the conversation the prepared range was planned on (absent when none). */
  messages?: number;
}

/**
 * True when `promptTokens` has reached the preparation point (`prepareAt` × `triggerTokens`) and not yet
 * the trigger; never when `prepareAt` is null (background compaction off). Plugin engines decide with it too.
 */
export function preparationDue(promptTokens: number, triggerTokens: number, prepareAt: number | null | undefined): boolean {
  return prepareAt != null && triggerTokens > 0 && promptTokens >= prepareAt * triggerTokens && promptTokens < triggerTokens;
}
