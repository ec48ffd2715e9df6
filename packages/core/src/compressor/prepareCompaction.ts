/**
 * The pure preparation of a compaction (phases 1 and 2 plus the progress guarantee): boundaries, the
 * pruned conversation, and the numbers the summary request needs. No I/O, no state.
 */
import type { ChatMessage } from "../messages/schema.js";
import { MIN_TAIL_MESSAGES, planBoundaries, type BoundaryPlan } from "./planBoundaries.js";
import { pruneOldToolResults, type PruneMemo } from "./pruneToolOutputs.js";
import { findLatestSummaryIndex, hasCompactionNote } from "./earlierSummaries.js";
import { hasTurnsBetween, indexConversation, turnsBetween, type ConversationIndex } from "./conversationIndex.js";
import { summaryTokenBudget } from "../engine/thresholds.js";
import { knownMessageTokens, type MessageTokens } from "./messageTokens.js";

/** Settings of {@link prepareCompaction}. */
export interface PrepareSettings {
  protectFirstN: number;
  protectLastN: number;
  minTailUserMessages: number;
  tailTokenBudget: number;
  maxSummaryTokens: number;
  /** The trigger: a result predicted at or above it makes the progress guarantee kick in. */
  thresholdTokens: number;
  /** The {@link PreparedCompaction.pruneMemo} of this conversation's last preparation, if kept. */
  pruneMemo?: PruneMemo | undefined;
}

/** What compress() needs to ask for a summary and assemble the result. */
export interface PreparedCompaction {
  plan: BoundaryPlan;
  /** The conversation after phase 1 (same length and order as the input). */
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
  /** How phase 1 cleared this conversation: for its next preparation (`settings.pruneMemo`). */
  pruneMemo: PruneMemo;
}

/** True when no earlier compaction left its system note or a summary message in `messages`. */
export function isFirstCompaction(messages: readonly ChatMessage[]): boolean {
  return !hasCompactionNote(messages[0]) && findLatestSummaryIndex(messages) === -1;
}

/** Index from which the newest tool-result group (and its assistant) is kept verbatim; -1 when the tail has none. */
function newestToolGroupStart(index: ConversationIndex, from: number): number {
  const newest = index.results.at(-1);
  return newest !== undefined && newest >= from ? Math.max(from, index.groupStart[newest]!) : -1;
}

/** Phase 1 outside the tail of `plan`, plus the tail clearing of the progress guarantee when `clearTail`. */
function pruneFor(messages: readonly ChatMessage[], index: ConversationIndex, plan: BoundaryPlan, clearTail: boolean, memo: PruneMemo | undefined) {
  const phase1 = pruneOldToolResults(messages, { protectedFrom: plan.tailStart, memo, index });
  let pruned = phase1.messages;
  let tailToolOutputsCleared = 0;
  if (clearTail) {
    const keepFrom = newestToolGroupStart(index, plan.tailStart);
    if (keepFrom > plan.tailStart) {
      const inTail = pruneOldToolResults(pruned, { protectedFrom: keepFrom, index });
      pruned = inTail.messages;
      tailToolOutputsCleared = inTail.cleared + inTail.dedup;
    }
  }
  return { phase1, pruned, tailToolOutputsCleared };
}

/**
 * Plans boundaries, prunes old tool output, and applies the progress guarantee: when head + summary
 * budget + tail would still reach the threshold, the tail floor drops to 3; if that is not enough,
 * large tool outputs inside the tail are cleared too, except the newest tool group. When neither step
 * can help (nothing to compress and nothing cleared, or still at the threshold with nothing to clear),
 * an anchor that pins the whole rest into the tail is kept at the end of the head instead, so the turns
 * after it are summarized. `tokens` gives the count of `messages[i]`: head and tail are counted exactly,
 * the middle (summarized away) only estimated — pass a `lazyMessageTokens` view to count no more.
 * `index` is the scan of `messages` (made here when not given); every later look-up reads from it.
 */
export function prepareCompaction(
  messages: readonly ChatMessage[],
  counts: readonly number[] | MessageTokens,
  settings: PrepareSettings,
  index: ConversationIndex = indexConversation(messages),
): PreparedCompaction {
  const tokens = Array.isArray(counts) ? knownMessageTokens(counts) : (counts as MessageTokens);
  const latestSummary = index.latestSummary;
  const first = index.isFirstCompaction;
  const boundaryOptions = {
    protectFirstN: settings.protectFirstN,
    protectLastN: settings.protectLastN,
    tailTokenBudget: settings.tailTokenBudget,
    minTailUserMessages: settings.minTailUserMessages,
    isFirstCompaction: first,
    countTokens: (_message: ChatMessage, index: number) => tokens.exact(index),
    tokensWithin: (index: number, limit: number) => tokens.within(index, limit),
  };
  const n = messages.length;
  const predicted = (p: BoundaryPlan) =>
    tokens.exactSum(0, p.headEnd) + tokens.exactSum(p.tailStart, n) + summaryTokenBudget(tokens.estimateSum(p.headEnd, p.tailStart), settings.maxSummaryTokens);
  const hasTurns = (p: BoundaryPlan) => hasTurnsBetween(index, p.headEnd, p.tailStart);

  let plan = planBoundaries(messages, boundaryOptions, index);
  let tailFloorReduced = false;
  if (predicted(plan) >= settings.thresholdTokens && settings.protectLastN > MIN_TAIL_MESSAGES) {
    const smaller = planBoundaries(messages, { ...boundaryOptions, protectLastN: MIN_TAIL_MESSAGES }, index);
    if (smaller.tailStart > plan.tailStart) {
      plan = smaller;
      tailFloorReduced = true;
    }
  }

  let above = predicted(plan) >= settings.thresholdTokens;
  let pruning = pruneFor(messages, index, plan, above, settings.pruneMemo);
  if (pruning.tailToolOutputsCleared === 0 && (above || !hasTurns(plan))) {
    const protectLastN = tailFloorReduced ? MIN_TAIL_MESSAGES : settings.protectLastN;
    const anchored = planBoundaries(messages, { ...boundaryOptions, protectLastN, keepStallingAnchorsInHead: true }, index);
    if (anchored.headEnd > plan.headEnd && hasTurns(anchored)) {
      plan = anchored;
      above = predicted(plan) >= settings.thresholdTokens;
      pruning = pruneFor(messages, index, plan, above, pruning.phase1.memo);
    }
  }

  const { phase1, pruned, tailToolOutputsCleared } = pruning;
  const middleTurns = turnsBetween(index, pruned, plan.headEnd, plan.tailStart);
  return {
    plan,
    pruned,
    head: turnsBetween(index, pruned, 0, plan.headEnd),
    tail: latestSummary >= plan.tailStart ? turnsBetween(index, pruned, plan.tailStart, n) : pruned.slice(plan.tailStart),
    middleTurns,
    isFirstCompaction: first,
    contentTokens: tokens.estimateSum(plan.headEnd, plan.tailStart),
    previousSummaryInMessages: latestSummary === -1 ? undefined : index.summaries[latestSummary]!.summary,
    hasContent: middleTurns.length > 0,
    cleared: phase1.cleared,
    dedup: phase1.dedup,
    truncatedArguments: phase1.truncatedArguments,
    tailFloorReduced,
    tailToolOutputsCleared,
    pruneMemo: phase1.memo,
  };
}
