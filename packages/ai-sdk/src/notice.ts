/**
 * The notice after a compaction in the AI SDK's history (`compression.compaction_notice`): appended to the
 * first user message that follows the compacted part, and to that same message in every later view, so the
 * prompt the provider caches stays the same from one call to the next. Never to a tool result.
 */
import type { ModelMessage } from "./aiTypes.js";
import { userTurnWithNotice } from "@context-engine/core/internal";

/** A notice waiting for, or placed on, a user message of the history. */
export interface HistoryNotice {
  text: string;
  /** The index in the history of the user message that carries it, once there is one. */
  at?: number;
}

/** `view` (the history's messages from index `from` on) with `notice` on its user message; places it on the first one when not placed yet. */
export function withHistoryNotice(view: ModelMessage[], from: number, notice: HistoryNotice | undefined): ModelMessage[] {
  if (notice === undefined) return view;
  if (notice.at === undefined) {
    const first = view.findIndex((m) => m.role === "user");
    if (first < 0) return view;
    notice.at = from + first;
  }
  const i = notice.at - from;
  if (i < 0 || i >= view.length) return view;
  const out = [...view];
  out[i] = userTurnWithNotice(out[i]!, notice.text);
  return out;
}
