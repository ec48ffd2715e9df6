/** What a generateText call added to the history, read the way the installed ai's result holds it. */
import type { ModelMessage } from "ai";

/** Every step's response messages: ai 7's `result.responseMessages`; ai 6's `result.response.messages` (ai 7's holds the last step's only). */
export function responseMessages(result: { response: { messages: ModelMessage[] } }): ModelMessage[] {
  return (result as { responseMessages?: ModelMessage[] }).responseMessages ?? result.response.messages;
}
