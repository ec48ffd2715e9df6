/**
 * Starting a summary in the background (`compression.prepare_at`;
 * docs/BEHAVIOUR.md, "Background compaction"): below the trigger and past the preparation point, the
 * range compress() would compact now is planned as compress() plans it and its summary started off the
 * request path (backgroundSummaries.ts keeps it until the trigger applies it).
 */
import type { CompressionConfig } from "../config/schema.js";
import { preparationDue, type PrepareCompressionOptions, type PreparationStatus } from "../engine/preparation.js";
import type { ChatMessage } from "../messages/schema.js";
import { summaryOptionsOf, type CompactionParts } from "./compactionRun.js";
import { scanConversation } from "./conversationIndex.js";
import { summarizePrepared } from "./summarize.js";

/**
 * Starts the background summary of `messages` when due and returns at once, or says why not (`off`,
 * `not_due`), or where the session's preparation of this range already stands.
 */
export function prepareInBackground(parts: CompactionParts, compression: Pick<CompressionConfig, "prepare_at" | "enabled">, messages: ChatMessage[], options: PrepareCompressionOptions): PreparationStatus {
  const prepareAt = compression.prepare_at;
  if (prepareAt === null || !compression.enabled) return { state: "off" };
  const { engine, sessions, background } = parts;
  const session = sessions.resolve(options.sessionId);
  const { settled, index } = scanConversation(messages);
  if (background.match(session.id, settled, engine.maxSummaryTokens) !== undefined) {
    const status = background.status(session.id);
    if (status.state !== "not_due") return status;
  }
  const tokens = options.currentTokens ?? sessions.promptTokens(session, engine.lastPromptTokens);
  const trigger = options.triggerTokens ?? engine.thresholdTokens;
  if (!preparationDue(tokens, trigger, prepareAt)) return { state: "not_due", reason: `${tokens} prompt tokens: the preparation point is ${Math.ceil(prepareAt * trigger)}, the trigger ${trigger}` };
  const state = sessions.state(session.id);
  if (state.pausedBy !== null || state.cooldownUntil > parts.now()) return { state: "not_due", reason: "automatic compaction is paused or cooling down" };
  // planned like compress() would, but the prune memo is kept only once the summary is applied
  const prepared = parts.replan(settled, options.currentTokens, session.id, index);
  if (!prepared.hasContent) return { state: "not_due", reason: "nothing between the protected head and tail to summarize yet" };
  const summaryOptions = summaryOptionsOf(engine, session, state, {}, undefined, parts.offer(session.id, options.tools, tokens));
  // in the background every failure is reported, never replaced by the offline fallback
  return background.start(session.id, settled, prepared, engine.maxSummaryTokens, (signal) => summarizePrepared(prepared, { ...summaryOptions, signal, abortOnFailure: true }), options.currentTokens);
}
