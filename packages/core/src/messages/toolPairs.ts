/**
 * Tool-call / tool-result pairing helpers shared by every engine: id matching, boundary alignment
 * (a boundary never splits a call from its results) and sanitizing (no orphans in either direction).
 */
import type { ChatMessage, ToolCall } from "./schema.ts";

/** The id a tool result answers: `call_id ?? id` (Responses API items carry `call_id`). */
export function toolCallKey(call: ToolCall): string {
  throw new Error("not implemented");
}

/**
 * Moves a cut index backward so that `messages[index]` is not a tool result whose call sits before the
 * cut: it walks back over consecutive tool results to the assistant message that issued them.
 * Returns an index in [0, index].
 */
export function alignBoundaryBackward(messages: ChatMessage[], index: number): number {
  throw new Error("not implemented");
}

/** Moves a cut index forward past tool results so the part after the cut never starts with one. */
export function alignBoundaryForward(messages: ChatMessage[], index: number): number {
  throw new Error("not implemented");
}

/**
 * Repairs dangling pairs without mutating the input: a tool result whose call is gone is removed; a
 * tool call whose result is gone gets a stub result right after its assistant message (and the results
 * that exist are kept); ids are matched by `call_id ?? id`. Never leaves an assistant message with empty
 * content and no calls.
 */
export function sanitizeToolPairs(messages: ChatMessage[]): ChatMessage[] {
  throw new Error("not implemented");
}

/** The stub text inserted for a tool call whose result was removed. */
export const STUB_TOOL_RESULT = "[Tool result removed during context compaction]";
