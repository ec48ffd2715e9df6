/**
 * Background compaction as pure decisions (docs/BEHAVIOUR.md, "Background compaction"; when a summary is
 * due is the contract's `preparationDue`): whether the range a summary was prepared for still starts the
 * conversation at the trigger, and the prepared compaction carried over to that conversation — the turns
 * appended since join its tail — or narrowed to only what is new, when the appended turns alone would
 * keep it at the trigger.
 */
import { isDeepStrictEqual } from "node:util";
import type { ChatMessage } from "../messages/schema.js";
import { turnsBetween, type ConversationIndex } from "./conversationIndex.js";
import type { PreparedCompaction } from "./prepareCompaction.js";

/** How the conversation at the trigger relates to the one a summary was prepared on. */
export type RangeMatch = { unchanged: true; appended: ChatMessage[] } | { unchanged: false; reason: string };

/**
 * Whether `messages` still start with `snapshot` (each message the same object or an equal copy): then
 * the prepared range is unchanged and `appended` holds the turns that came since; else why not.
 */
export function matchPreparedRange(snapshot: readonly ChatMessage[], messages: readonly ChatMessage[]): RangeMatch {
  if (messages.length < snapshot.length) {
    return { unchanged: false, reason: `the conversation has ${messages.length} messages, fewer than the ${snapshot.length} its summary was prepared on` };
  }
  for (let i = 0; i < snapshot.length; i++) {
    if (snapshot[i] !== messages[i] && !isDeepStrictEqual(snapshot[i], messages[i])) {
      return { unchanged: false, reason: `message ${i} changed after its summary was prepared` };
    }
  }
  return { unchanged: true, appended: messages.slice(snapshot.length) };
}

/** `prepared` carried over to the conversation at the trigger: the turns appended since follow its tail unchanged. */
export function withAppendedTurns(prepared: PreparedCompaction, appended: readonly ChatMessage[]): PreparedCompaction {
  return appended.length === 0 ? prepared : { ...prepared, tail: [...prepared.tail, ...appended] };
}

/**
 * `current` (the conversation at the trigger, prepared the blocking way) narrowed to what is new: its
 * middle from `preparedTailStart` on, handed over with `summary` (the prepared one) to update. Undefined
 * when `current` keeps another head or compacts nothing past the prepared range.
 */
export function onlyNewTurns(current: PreparedCompaction, index: ConversationIndex, prepared: PreparedCompaction, summary: string): PreparedCompaction | undefined {
  const { headEnd, tailStart } = current.plan;
  const from = prepared.plan.tailStart;
  if (headEnd !== prepared.plan.headEnd || tailStart <= from) return undefined;
  const middleTurns = turnsBetween(index, current.pruned, from, tailStart);
  if (middleTurns.length === 0) return undefined;
  return { ...current, middleTurns, middleFrom: from, previousSummaryInMessages: summary, hasContent: true };
}
