/** The provider-rule check every compacted output passes before the compressor returns it. Pure. */
import type { ChatMessage } from "../messages/schema.js";
import { sanitizeToolPairs } from "../messages/toolPairs.js";
import { problemsIntroduced, validateConversation } from "../messages/validate.js";

/**
 * `output` when it keeps the provider rules, else its sanitized copy; undefined when even that would
 * still have problems `input` did not have ({@link problemsIntroduced}).
 */
export function validOutput(input: ChatMessage[], output: ChatMessage[]): ChatMessage[] | undefined {
  if (validateConversation(output).length === 0) return output;
  const repaired = sanitizeToolPairs(output);
  return problemsIntroduced(input, repaired).length === 0 ? repaired : undefined;
}
