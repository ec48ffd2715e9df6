/**
 * Planning a compaction: the boundaries of planBoundaries, then the progress guarantee, decided before
 * anything is pruned. When head + summary budget + tail would still reach the threshold, the tail floor
 * drops to 3; if the compaction is still predicted at the threshold, large tool outputs inside the tail
 * are to be cleared too, except the newest tool group. When neither can help (nothing to compress, or
 * still at the threshold with nothing in the tail to clear), an anchor that pins the whole rest into the
 * tail is kept at the end of the head instead, so the turns after it are summarized. Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { summaryTokenBudget } from "../engine/thresholds.js";
import { contentSize } from "./content.js";
import { hasTurnsBetween, type ConversationIndex } from "./conversationIndex.js";
import type { MessageTokens } from "./messageTokens.js";
import { MIN_TAIL_MESSAGES, planBoundaries, type BoundaryOptions, type BoundaryPlan } from "./planBoundaries.js";
import { PRUNE_MIN_CHARS, isClearedToolOutput } from "./pruneToolOutputs.js";

/** Settings of {@link planCompaction}. */
export interface PlanSettings {
  protectFirstN: number;
  protectLastN: number;
  minTailUserMessages: number;
  tailTokenBudget: number;
  maxSummaryTokens: number;
  /** The trigger: a result predicted at or above it makes the progress guarantee kick in. */
  thresholdTokens: number;
}

/** The boundaries a compaction prunes and summarizes by. */
export interface CompactionPlan {
  plan: BoundaryPlan;
  /** The tail floor was lowered to {@link MIN_TAIL_MESSAGES}. */
  tailFloorReduced: boolean;
  /** Still predicted at or above the threshold: tool outputs inside the tail are cleared too, but the newest group. */
  clearTail: boolean;
}

/** Index from which the newest tool-result group (and its assistant) is kept verbatim; -1 when the tail from `from` has none. */
export function newestToolGroupStart(index: ConversationIndex, from: number): number {
  const newest = index.results.at(-1);
  return newest !== undefined && newest >= from ? Math.max(from, index.groupStart[newest]!) : -1;
}

/**
 * True when clearing inside the tail would clear something: a tool output before the newest tool group,
 * not cleared yet and longer than {@link PRUNE_MIN_CHARS} (what pruning up to that group would clear;
 * everything before the tail is pruned anyway).
 */
function tailHasOutputsToClear(index: ConversationIndex, tailStart: number): boolean {
  const keepFrom = newestToolGroupStart(index, tailStart);
  for (const i of index.results) {
    if (i >= keepFrom) break;
    const message = index.messages[i]!;
    if (i >= tailStart && !isClearedToolOutput(message) && contentSize(message) > PRUNE_MIN_CHARS) return true;
  }
  return false;
}

/**
 * The boundaries for the indexed conversation with the progress guarantee applied (see the file
 * comment). `tokens` counts the messages: head and tail exactly, the middle only estimated.
 */
export function planCompaction(index: ConversationIndex, tokens: MessageTokens, settings: PlanSettings): CompactionPlan {
  const messages = index.messages;
  const boundaryOptions: BoundaryOptions = {
    protectFirstN: settings.protectFirstN,
    protectLastN: settings.protectLastN,
    tailTokenBudget: settings.tailTokenBudget,
    minTailUserMessages: settings.minTailUserMessages,
    isFirstCompaction: index.isFirstCompaction,
    countTokens: (_message: ChatMessage, i: number) => tokens.exact(i),
    tokensWithin: (i: number, limit: number) => tokens.within(i, limit),
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
  const tailClearingHelps = above && tailHasOutputsToClear(index, plan.tailStart);
  if (!tailClearingHelps && (above || !hasTurns(plan))) {
    const protectLastN = tailFloorReduced ? MIN_TAIL_MESSAGES : settings.protectLastN;
    const anchored = planBoundaries(messages, { ...boundaryOptions, protectLastN, keepStallingAnchorsInHead: true }, index);
    if (anchored.headEnd > plan.headEnd && hasTurns(anchored)) {
      plan = anchored;
      above = predicted(plan) >= settings.thresholdTokens;
    }
  }
  return { plan, tailFloorReduced, clearTail: above };
}
