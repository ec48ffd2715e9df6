/**
 * The pure preparation of a compaction (phases 1 and 2 plus the progress guarantee): boundaries, the
 * pruned conversation, and the numbers the summary request needs. No I/O, no state.
 */
import type { ChatMessage } from "../messages/schema.ts";
import { alignBoundaryBackward } from "../messages/toolPairs.ts";
import { MIN_TAIL_MESSAGES, planBoundaries, type BoundaryPlan } from "./phase2Boundaries.ts";
import { pruneOldToolResults } from "./phase1Prune.ts";
import { findLatestSummary, findLatestSummaryIndex, hasCompactionNote, turnsForSummary } from "./summaryMessage.ts";
import { summaryTokenBudget } from "./thresholds.ts";

/** Settings of {@link prepareCompaction}. */
export interface PrepareSettings {
  protectFirstN: number;
  protectLastN: number;
  minTailUserMessages: number;
  tailTokenBudget: number;
  maxSummaryTokens: number;
  /** The trigger: a result predicted at or above it makes the progress guarantee kick in. */
  thresholdTokens: number;
}

/** What compress() needs to ask for a summary and assemble the result. */
export interface PreparedCompaction {
  plan: BoundaryPlan;
  /** The conversation after phase 1 (same length and order as the input). */
  pruned: ChatMessage[];
  isFirstCompaction: boolean;
  /** Tokens of the original middle (sets the summary budget). */
  contentTokens: number;
  /** The summary an earlier compaction left before the tail, if any. */
  previousSummaryInMessages?: string | undefined;
  /** False when the middle holds nothing new to summarize. */
  hasContent: boolean;
  cleared: number;
  dedup: number;
  truncatedArguments: number;
  tailFloorReduced: boolean;
  tailToolOutputsCleared: number;
}

/** True when no earlier compaction left its system note or a summary message in `messages`. */
export function isFirstCompaction(messages: readonly ChatMessage[]): boolean {
  return !hasCompactionNote(messages[0]) && findLatestSummaryIndex(messages) === -1;
}

function sum(tokens: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += tokens[i]!;
  return total;
}

/** Index from which the newest tool-result group (and its assistant) is kept verbatim; -1 when the tail has none. */
function newestToolGroupStart(messages: readonly ChatMessage[], from: number): number {
  for (let i = messages.length - 1; i >= from; i--) {
    if (messages[i]!.role === "tool") return Math.max(from, alignBoundaryBackward(messages as ChatMessage[], i));
  }
  return -1;
}

/**
 * Plans boundaries, prunes old tool output, and applies the progress guarantee: when head + summary
 * budget + tail would still reach the threshold, the tail floor drops to 3; if that is not enough,
 * large tool outputs inside the tail are cleared too, except the newest tool group.
 * `tokens[i]` is the token count of `messages[i]`.
 */
export function prepareCompaction(messages: readonly ChatMessage[], tokens: readonly number[], settings: PrepareSettings): PreparedCompaction {
  const latestSummary = findLatestSummaryIndex(messages);
  const first = latestSummary === -1 && !hasCompactionNote(messages[0]);
  const boundaryOptions = {
    protectFirstN: settings.protectFirstN,
    protectLastN: settings.protectLastN,
    tailTokenBudget: settings.tailTokenBudget,
    minTailUserMessages: settings.minTailUserMessages,
    isFirstCompaction: first,
    countTokens: (_message: ChatMessage, index: number) => tokens[index]!,
  };
  const n = messages.length;
  const predicted = (p: BoundaryPlan) =>
    sum(tokens, 0, p.headEnd) + sum(tokens, p.tailStart, n) + summaryTokenBudget(sum(tokens, p.headEnd, p.tailStart), settings.maxSummaryTokens);

  let plan = planBoundaries(messages, boundaryOptions);
  let tailFloorReduced = false;
  if (predicted(plan) >= settings.thresholdTokens && settings.protectLastN > MIN_TAIL_MESSAGES) {
    const smaller = planBoundaries(messages, { ...boundaryOptions, protectLastN: MIN_TAIL_MESSAGES });
    if (smaller.tailStart > plan.tailStart) {
      plan = smaller;
      tailFloorReduced = true;
    }
  }

  const phase1 = pruneOldToolResults(messages, { protectedFrom: plan.tailStart });
  let pruned = phase1.messages;
  let tailToolOutputsCleared = 0;
  if (predicted(plan) >= settings.thresholdTokens) {
    const keepFrom = newestToolGroupStart(pruned, plan.tailStart);
    if (keepFrom > plan.tailStart) {
      const inTail = pruneOldToolResults(pruned, { protectedFrom: keepFrom });
      pruned = inTail.messages;
      tailToolOutputsCleared = inTail.cleared + inTail.dedup;
    }
  }

  const middle = pruned.slice(plan.headEnd, plan.tailStart);
  return {
    plan,
    pruned,
    isFirstCompaction: first,
    contentTokens: sum(tokens, plan.headEnd, plan.tailStart),
    previousSummaryInMessages: latestSummary === -1 ? undefined : findLatestSummary(messages, 0, plan.tailStart),
    hasContent: turnsForSummary(middle).length > 0,
    cleared: phase1.cleared,
    dedup: phase1.dedup,
    truncatedArguments: phase1.truncatedArguments,
    tailFloorReduced,
    tailToolOutputsCleared,
  };
}
