/** The provider-rule check every compacted output passes before the compressor returns it. Pure. */
import type { ChatMessage } from "../messages/schema.js";
import { sanitizeToolPairs } from "../messages/toolPairs.js";
import { validateConversation, type ConversationProblem } from "../messages/validate.js";

/** Counts the problems of each code (to tell problems we introduced from ones the input already had). */
function problemCounts(problems: ConversationProblem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  return counts;
}

/**
 * `output` when it keeps the provider rules, else its sanitized copy; undefined when even that would
 * still have problems `input` did not have.
 */
export function validOutput(input: ChatMessage[], output: ChatMessage[]): ChatMessage[] | undefined {
  if (validateConversation(output).length === 0) return output;
  const repaired = sanitizeToolPairs(output);
  const problems = validateConversation(repaired);
  if (problems.length === 0) return repaired;
  const before = problemCounts(validateConversation(input));
  for (const [code, count] of problemCounts(problems)) if (count > (before.get(code) ?? 0)) return undefined;
  return repaired;
}
