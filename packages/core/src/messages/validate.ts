/** Provider rules (Anthropic and OpenAI) checked in code: every compressed output must pass them. */
import type { ChatMessage } from "./schema.ts";

/** Kinds of rule violations {@link validateConversation} reports. */
export type ConversationProblemCode =
  | "orphan_tool_result" // a tool result whose call is nowhere before it
  | "missing_tool_result" // a tool call with no result after it
  | "tool_result_before_call" // a result that appears before the call it answers
  | "tool_result_first" // the first non-system message (or the tail) starts with a tool result
  | "first_not_user" // the first non-system message is not a user message (Anthropic)
  | "consecutive_same_role" // two user or two assistant messages in a row
  | "system_not_first" // a system message after a non-system one
  | "empty_assistant" // an assistant message with no content and no tool calls
  | "duplicate_tool_call_id"; // two calls share an id

/** One violation: where it is and what is wrong. */
export interface ConversationProblem {
  code: ConversationProblemCode;
  index: number;
  message: string;
}

/** Returns every provider-rule problem of `messages` (empty list = valid). */
export function validateConversation(messages: ChatMessage[]): ConversationProblem[] {
  throw new Error("not implemented");
}
