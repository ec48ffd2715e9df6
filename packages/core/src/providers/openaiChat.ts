/**
 * OpenAI chat-completions request messages: our messages keep unknown fields (timestamps, `is_error`,
 * importer extras), which the API does not take. This keeps exactly the wire fields of each role.
 */
import type { ChatMessage } from "../messages/schema.js";
import { toolCallKey } from "../messages/toolPairs.js";

/** Fields the chat-completions API accepts on a message, by role. */
const WIRE_FIELDS: Record<ChatMessage["role"], readonly string[]> = {
  system: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal", "audio"],
  tool: ["role", "content", "tool_call_id"],
};

/**
 * The messages as the OpenAI chat-completions API takes them: only wire fields per role, tool calls
 * reduced to `{id, type, function: {name, arguments}}`. Content parts (with any OpenRouter
 * `cache_control` markers) pass unchanged. Never mutates the input.
 */
export function toOpenAIChatMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((message) => {
    const out: Record<string, unknown> = {};
    for (const field of WIRE_FIELDS[message.role]) {
      const value = (message as Record<string, unknown>)[field];
      if (value !== undefined) out[field] = value;
    }
    if (message.role === "assistant" && message.tool_calls) {
      out.tool_calls = message.tool_calls.map((call) => ({ id: toolCallKey(call), type: "function", function: { name: call.function.name, arguments: call.function.arguments } }));
    }
    return out;
  });
}
