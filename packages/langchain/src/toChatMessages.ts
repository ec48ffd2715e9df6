/**
 * LangChain `BaseMessage[]` → chat messages, losslessly: the OpenAI fields show the content (text, images,
 * files), the tool calls (`args` as JSON `arguments`), reasoning and the tool result's call id, so engines
 * count, summarize and search what the model saw; the `langchain` marker keeps the class and every other
 * field, and {@link toBaseMessages} rebuilds the messages from both.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatMessage, Role, ToolCall } from "@context-engine/core";
import { showBlock } from "./blocks.js";
import { LANGCHAIN_MARKER, type BlockSlot, type LangChainMarker } from "./marker.js";
import { messageFields, messageKind, type MessageKind } from "./messageFields.js";

/** Thrown for a message the converters cannot express; the message names its index. */
export class LangChainConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LangChainConversionError";
  }
}

const GENERIC_ROLES: Record<string, Role> = { user: "user", human: "user", assistant: "assistant", ai: "assistant", system: "system", developer: "system", tool: "tool" };

/** The chat role of a message of `kind` (a generic message's own role, mapped). */
export function chatRole(kind: MessageKind, role: unknown, where: string): Role {
  if (kind === "human") return "user";
  if (kind === "ai") return "assistant";
  if (kind === "system" || kind === "tool") return kind;
  const mapped = typeof role === "string" ? GENERIC_ROLES[role.toLowerCase()] : undefined;
  if (mapped === undefined) throw new LangChainConversionError(`${where}: a chat message with role ${JSON.stringify(role)} has no OpenAI role (use user, assistant, system or tool)`);
  return mapped;
}

/** True when `value` comes back from its JSON text as an equal value. */
export function jsonFaithful(value: unknown): boolean {
  if (value === null || typeof value === "boolean" || typeof value === "string") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonFaithful);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every((v) => v !== undefined && jsonFaithful(v));
  return false;
}

/** Reasoning the message carries: `additional_kwargs.reasoning_content` and reasoning/thinking blocks. */
function reasoningText(fields: Record<string, unknown>, content: unknown): string | undefined {
  const texts: string[] = [];
  const kwargs = fields.additional_kwargs as { reasoning_content?: unknown } | undefined;
  if (typeof kwargs?.reasoning_content === "string") texts.push(kwargs.reasoning_content);
  if (Array.isArray(content)) {
    for (const block of content as Record<string, unknown>[]) {
      const text = block?.type === "reasoning" ? block.reasoning : block?.type === "thinking" ? block.thinking : undefined;
      if (typeof text === "string") texts.push(text);
    }
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/** The chat message of one LangChain message. */
function convert(message: BaseMessage, where: string): ChatMessage {
  const kind = messageKind(message);
  if (kind === undefined) throw new LangChainConversionError(`${where}: a '${message.getType()}' message has no chat equivalent`);
  const { content, tool_calls: rawCalls, ...fields } = messageFields(message, kind);
  const role = chatRole(kind, fields.role, where);
  const chat: ChatMessage = { role, content: "" };
  let shape: LangChainMarker["content"] = "string";
  if (typeof content === "string") chat.content = content;
  else if (Array.isArray(content)) {
    const shown = content.map(showBlock);
    let slots: BlockSlot[] = shown.map((s) => s.slot);
    if (role === "assistant") {
      // an assistant's content shows its text as one string; media blocks are kept whole
      const texts = shown.flatMap((s) => (s.slot.slot === "text" ? [String(s.part?.text)] : []));
      if (texts.length > 1) slots.filter((s) => s.slot === "text").forEach((s, k) => Object.assign(s, { text: texts[k] }));
      chat.content = texts.length === 0 ? null : texts.join("\n");
      slots = slots.map((s, k): BlockSlot => (s.slot === "media" ? { slot: "hidden", block: content[k] } : s));
    } else {
      chat.content = shown.flatMap((s) => (s.part ? [s.part] : []));
    }
    shape = slots;
  } else throw new LangChainConversionError(`${where}.content: expected a string or an array of content blocks`);
  const calls = Array.isArray(rawCalls) ? (rawCalls as Record<string, unknown>[]) : [];
  if (calls.length > 0) {
    chat.tool_calls = calls.map((c): ToolCall => ({ id: typeof c.id === "string" ? c.id : "", type: "function", function: { name: String(c.name), arguments: JSON.stringify(c.args ?? {}) } }));
  }
  if (kind === "tool" && typeof fields.tool_call_id === "string") chat.tool_call_id = fields.tool_call_id;
  if (typeof fields.name === "string") chat.name = fields.name;
  const reasoning = reasoningText(fields, content);
  if (reasoning !== undefined && role === "assistant") chat.reasoning_content = reasoning;
  const marker: LangChainMarker = {
    kind,
    fields,
    content: shape,
    ...(Array.isArray(rawCalls) ? { calls: calls.map((c) => (jsonFaithful(c.args) ? { call: without(c, "args"), args: "json" as const } : { call: c, args: "kept" as const })) } : {}),
  };
  return { ...chat, [LANGCHAIN_MARKER]: marker };
}

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _left, ...rest } = record;
  return rest;
}

/**
 * Converts LangChain messages to chat messages an engine can compress; {@link toBaseMessages} gives the
 * same messages back (class, id, name, metadata, usage, tool calls, content blocks). Throws a
 * {@link LangChainConversionError} naming the index of a message it cannot express (e.g. a RemoveMessage).
 */
export function toChatMessages(messages: readonly BaseMessage[]): ChatMessage[] {
  return messages.map((message, i) => convert(message, `messages[${i}]`));
}
