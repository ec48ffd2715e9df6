/**
 * The pure preparation of a compaction, the steps before the summary: scan, plan boundaries (with the
 * progress guarantee), prune; then the kept head and tail, the middle the summarizer sees, and the
 * numbers the summary request needs. No I/O, no state.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { BoundaryPlan } from "./planBoundaries.js";
import { pruneOldToolResults, type PruneMemo } from "./pruneToolOutputs.js";
import { indexConversation, turnsBetween, type ConversationIndex } from "./conversationIndex.js";
import { newestToolGroupStart, planCompaction, type CompactionPlan, type PlanSettings } from "./planCompaction.js";
import { knownMessageTokens, type MessageTokens } from "./messageTokens.js";
import { summaryView } from "./summaryView.js";

/** Settings of {@link prepareCompaction}. */
export interface PrepareSettings extends PlanSettings {
  /** The {@link PreparedCompaction.pruneMemo} of this conversation's last preparation, if kept. */
  pruneMemo?: PruneMemo | undefined;
}

/** What compress() needs to ask for a summary and assemble the result. */
export interface PreparedCompaction {
  plan: BoundaryPlan;
  /** The conversation it was planned on, as given (a summary asked as the conversation's suffix sends it). */
  conversation: readonly ChatMessage[];
  /**
   * Where the summarized turns start when not at `plan.headEnd`: a prepared summary updated with only the
   * turns that came since (preparedRange.ts) covers `[middleFrom, plan.tailStart)`.
   */
  middleFrom?: number | undefined;
  /** The conversation after pruning (same length and order as the input). */
  pruned: ChatMessage[];
  /**
   * The head to keep: `pruned[0, headEnd)` without earlier summaries (a head that kept an anchor may
   * hold one; its text goes to the summarizer as the previous summary instead of staying twice).
   */
  head: ChatMessage[];
  /**
   * The tail to keep: `pruned[tailStart, end)`, the same objects — except that an earlier summary inside
   * it loses its framing (the new summary, which updates it, supersedes it).
   */
  tail: ChatMessage[];
  /** The middle `pruned[headEnd, tailStart)` as the summarizer sees it: earlier summaries taken out. */
  middleTurns: ChatMessage[];
  isFirstCompaction: boolean;
  /** Tokens of the original middle (sets the summary budget; estimated where not counted). */
  contentTokens: number;
  /** The newest summary an earlier compaction left in the conversation, if any. */
  previousSummaryInMessages?: string | undefined;
  /** False when the middle holds nothing new to summarize. */
  hasContent: boolean;
  cleared: number;
  dedup: number;
  truncatedArguments: number;
  tailFloorReduced: boolean;
  tailToolOutputsCleared: number;
  /** How pruning cleared this conversation: for its next preparation (`settings.pruneMemo`). */
  pruneMemo: PruneMemo;
}

/** Pruning by `planned`: outside its tail, and inside the tail too (but the newest tool group) when `planned.clearTail`. */
function pruneByPlan(messages: readonly ChatMessage[], index: ConversationIndex, planned: CompactionPlan, memo: PruneMemo | undefined) {
  const { plan } = planned;
  const outside = pruneOldToolResults(messages, { protectedFrom: plan.tailStart, memo, index });
  let pruned = outside.messages;
  let tailToolOutputsCleared = 0;
  if (planned.clearTail) {
    const keepFrom = newestToolGroupStart(index, plan.tailStart);
    if (keepFrom > plan.tailStart) {
      const inTail = pruneOldToolResults(pruned, { protectedFrom: keepFrom, index });
      pruned = inTail.messages;
      tailToolOutputsCleared = inTail.cleared + inTail.dedup;
    }
  }
  return { outside, pruned, tailToolOutputsCleared };
}

/**
 * The compaction's steps before the summary, in the order they run: the scan (`index`, made here when
 * not given), the plan with the progress guarantee (planCompaction.ts), then pruning by that plan, once.
 * `tokens` gives the count of `messages[i]`: head and tail are counted exactly, the middle (summarized
 * away) only estimated — pass a `lazyMessageTokens` view to count no more.
 */
export function prepareCompaction(
  messages: readonly ChatMessage[],
  counts: readonly number[] | MessageTokens,
  settings: PrepareSettings,
  index: ConversationIndex = indexConversation(messages),
): PreparedCompaction {
  const tokens = Array.isArray(counts) ? knownMessageTokens(counts) : (counts as MessageTokens);
  const planned = planCompaction(index, tokens, settings);
  const { outside, pruned, tailToolOutputsCleared } = pruneByPlan(messages, index, planned, settings.pruneMemo);
  const { plan } = planned;
  const n = messages.length;
  const middleTurns = turnsBetween(index, summaryView(pruned, messages, outside.memo, plan.headEnd, plan.tailStart), plan.headEnd, plan.tailStart);
  return {
    plan,
    conversation: messages,
    pruned,
    head: turnsBetween(index, pruned, 0, plan.headEnd),
    tail: index.latestSummary >= plan.tailStart ? turnsBetween(index, pruned, plan.tailStart, n) : pruned.slice(plan.tailStart),
    middleTurns,
    isFirstCompaction: index.isFirstCompaction,
    contentTokens: tokens.estimateSum(plan.headEnd, plan.tailStart),
    previousSummaryInMessages: index.latestSummary === -1 ? undefined : index.summaries[index.latestSummary]!.summary,
    hasContent: middleTurns.length > 0,
    cleared: outside.cleared,
    dedup: outside.dedup,
    truncatedArguments: outside.truncatedArguments,
    tailFloorReduced: planned.tailFloorReduced,
    tailToolOutputsCleared,
    pruneMemo: outside.memo,
  };
}
