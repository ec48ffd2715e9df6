/** The provider-rule check every compacted output passes before the compressor returns it. Pure. */
import type { ChatMessage } from "../messages/schema.js";
import { sanitizeToolPairs } from "../messages/toolPairs.js";
import { problemsIntroduced, validateConversation, type ConversationProblemCode } from "../messages/validate.js";

/**
 * `output` when it keeps the provider rules, else its sanitized copy; undefined when even that would
 * still have problems `input` did not have ({@link problemsIntroduced}).
 */
export function validOutput(input: ChatMessage[], output: ChatMessage[]): ChatMessage[] | undefined {
  if (validateConversation(output).length === 0) return output;
  const repaired = sanitizeToolPairs(output);
  return problemsIntroduced(input, repaired).length === 0 ? repaired : undefined;
}

/** The problems of tool pairs: the ones `sanitizeToolPairs` repairs. */
const TOOL_PAIR_PROBLEMS: ReadonlySet<ConversationProblemCode> = new Set<ConversationProblemCode>([
  "orphan_tool_result",
  "missing_tool_result",
  "tool_result_before_call",
  "misplaced_tool_result",
  "duplicate_tool_result",
]);

/** How many tool-pair problems `messages` has: orphan, early, misplaced or duplicate results, calls without a result. */
export function countToolPairProblems(messages: ChatMessage[]): number {
  return validateConversation(messages).filter((problem) => TOOL_PAIR_PROBLEMS.has(problem.code)).length;
}

/** `messages` with its tool pairs repaired as a compaction repairs them (`sanitizeToolPairs`); `messages` itself when they need none. */
export function withRepairedToolPairs(messages: ChatMessage[]): ChatMessage[] {
  return countToolPairProblems(messages) === 0 ? messages : sanitizeToolPairs(messages);
}

/** How many tool-pair problems of `input` `output` no longer has (see {@link countToolPairProblems}). */
export function repairedToolPairs(input: ChatMessage[], output: ChatMessage[]): number {
  const before = countToolPairProblems(input);
  return before === 0 ? 0 : Math.max(0, before - countToolPairProblems(output));
}
