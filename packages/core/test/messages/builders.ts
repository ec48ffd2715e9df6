/** Small message builders shared by the messages tests. */
import type { ChatMessage, ToolCall } from "../../src/messages/schema.js";

export const system = (content = "You are helpful."): ChatMessage => ({ role: "system", content });
export const user = (content: string): ChatMessage => ({ role: "user", content });
export const say = (content: string): ChatMessage => ({ role: "assistant", content });

/** A tool call with id `id` (and `call_id` when given). */
export function call(id: string, name = "terminal", args = "{}", callId?: string): ToolCall {
  return { id, type: "function", function: { name, arguments: args }, ...(callId === undefined ? {} : { call_id: callId }) };
}

/** An assistant message issuing calls with the given ids (content null). */
export function calls(...ids: string[]): ChatMessage {
  return { role: "assistant", content: null, tool_calls: ids.map((id) => call(id)) };
}

export const result = (id: string, content = `output of ${id}`): ChatMessage => ({ role: "tool", tool_call_id: id, content });
