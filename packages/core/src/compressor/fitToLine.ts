/**
 * The last step of a compaction whose result would still cross the overflow line (docs/BEHAVIOUR.md,
 * "No request over the window"): tool outputs the protected tail kept are cleared like pruned ones —
 * first those before the newest tool group, then the newest group's own — until the request fits. Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { indexConversation } from "./conversationIndex.js";
import { newestToolGroupStart } from "./planCompaction.js";
import { pruneOldToolResults } from "./pruneToolOutputs.js";

/** What {@link fitToLine} returns: the list (the same object when it fits or nothing could be cleared) and how many outputs it cleared. */
export interface FittedToLine {
  messages: ChatMessage[];
  cleared: number;
  /** Tokens of `messages` as `count` counts them. */
  tokens: number;
}

/**
 * `messages` within `limitTokens` (as `count` counts a list) by clearing tool outputs in two steps: every
 * output before the newest tool group, then the newest group's too. Each step runs only while the list
 * is still over the line; a list that fits, or holds nothing to clear, comes back as it is. A list still
 * over the line after both (a user message alone past it) is returned with what was cleared.
 */
export function fitToLine(messages: ChatMessage[], limitTokens: number, count: (messages: ChatMessage[]) => number): FittedToLine {
  let tokens = count(messages);
  if (tokens <= limitTokens) return { messages, cleared: 0, tokens };
  const index = indexConversation(messages);
  const newest = newestToolGroupStart(index, 0);
  let list = messages;
  let cleared = 0;
  for (const protectedFrom of [newest, messages.length]) {
    if (tokens <= limitTokens || protectedFrom <= 0) continue;
    const pruned = pruneOldToolResults(list, { protectedFrom, index });
    if (pruned.cleared + pruned.dedup === 0) continue;
    list = pruned.messages;
    cleared += pruned.cleared + pruned.dedup;
    tokens = count(list);
  }
  return { messages: list, cleared, tokens };
}
