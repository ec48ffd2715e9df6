/**
 * The fields of a LangChain message, read from the instance (not from `toDict()`, which misses fields set
 * after construction, such as the ids LangGraph assigns), and the message rebuilt from them.
 */
import { AIMessage, ChatMessage as GenericMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

/** The message classes the converters know, by `getType()`. */
export type MessageKind = "human" | "ai" | "system" | "tool" | "generic";

const COMMON = ["id", "name", "content", "additional_kwargs", "response_metadata"] as const;
const BY_KIND: Record<MessageKind, readonly string[]> = {
  human: COMMON,
  system: COMMON,
  ai: [...COMMON, "tool_calls", "invalid_tool_calls", "usage_metadata"],
  tool: [...COMMON, "tool_call_id", "status", "artifact", "metadata"],
  generic: [...COMMON, "role"],
};

/** The kind of `message`, or undefined for a class the converters do not know (remove, function messages). */
export function messageKind(message: BaseMessage): MessageKind | undefined {
  const type = message.getType();
  return type in BY_KIND ? (type as MessageKind) : undefined;
}

/** The defined fields of `message` its class is rebuilt from. */
export function messageFields(message: BaseMessage, kind: MessageKind): Record<string, unknown> {
  const source = message as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of BY_KIND[kind]) if (source[key] !== undefined) fields[key] = source[key];
  return fields;
}

/** A message of `kind` built from `fields`. */
export function buildMessage(kind: MessageKind, fields: Record<string, unknown>): BaseMessage {
  const f = fields as never;
  switch (kind) {
    case "human":
      return new HumanMessage(f);
    case "ai":
      return new AIMessage(f);
    case "system":
      return new SystemMessage(f);
    case "tool":
      return new ToolMessage(f);
    case "generic":
      return new GenericMessage(f);
  }
}
