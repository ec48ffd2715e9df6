/**
 * The middle of a compaction as the summary model reads it. Pruning bounds what the agent keeps in its
 * context; the middle leaves the conversation, so there the summary model reads the calls whole (a script
 * or a file the agent wrote; the serializer bounds each argument) and a cleared failure with the longer
 * evidence bound of the summary (clearedEvidence.ts). Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import { clearedForSummary, type PruneMemo } from "./pruneToolOutputs.js";

/**
 * `pruned[from, to)` as the summary model reads it: an assistant message whose long call arguments pruning
 * cut is the original `messages[i]`, an output pruning cleared with evidence keeps the summary's share
 * of it (`memo` is that pruning's). The rest of `pruned` is returned as is (the same array when nothing differs).
 */
export function summaryView(pruned: readonly ChatMessage[], messages: readonly ChatMessage[], memo: PruneMemo, from: number, to: number): readonly ChatMessage[] {
  let out: ChatMessage[] | undefined;
  for (let i = from; i < to; i++) {
    if (pruned[i] === messages[i]) continue;
    const role = pruned[i]!.role;
    const entry = role === "tool" && memo.messages[i] === messages[i] ? memo.cleared[i] : undefined;
    const seen = role === "assistant" ? messages[i]! : entry !== undefined && entry.cleared === pruned[i] ? clearedForSummary(messages[i]!, entry) : pruned[i]!;
    if (seen === pruned[i]) continue;
    out ??= pruned.slice();
    out[i] = seen;
  }
  return out ?? pruned;
}
