/**
 * Chat messages → LangChain `BaseMessage[]`. A message {@link toChatMessages} made comes back as the
 * LangChain message it was (class, id, metadata), with the values its OpenAI fields show read from them,
 * so an engine's changes are kept; any other message (an engine's summary, a stub tool result) becomes a
 * HumanMessage, AIMessage, SystemMessage or ToolMessage from its OpenAI fields.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { messageText, parseMessages, type ChatMessage, type ContentPart, type ToolCall } from "@context-engine/core";
import { z } from "@context-engine/core";
import { fillSlot, fitsSlot } from "./blocks.js";
import { LANGCHAIN_MARKER, LangChainMarkerSchema, type BlockSlot, type LangChainMarker } from "./marker.js";
import { buildMessage } from "./messageFields.js";
import { chatRole, LangChainConversionError } from "./toChatMessages.js";

type Block = Record<string, unknown>;

/** A tool call's args from its `arguments` (text that is no JSON stays text). */
function parseArgs(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function freshCall(call: ToolCall): Block {
  return { id: call.id, name: call.function.name, args: parseArgs(call.function.arguments), type: "tool_call" };
}

/** The tool calls `tool_calls` shows now, each with its stored fields when it was one of `stored` (matched by id, in order). */
function toolCalls(shown: ToolCall[], stored: NonNullable<LangChainMarker["calls"]>): Block[] {
  const used = new Set<number>();
  const out: Block[] = [];
  for (const call of shown) {
    const at = stored.findIndex((s, k) => !used.has(k) && (s.call.id ?? "") === call.id);
    if (at === -1) {
      out.push(freshCall(call));
      continue;
    }
    used.add(at);
    const { call: fields, args } = stored[at]!;
    const keep = args === "kept" && JSON.stringify(fields.args ?? {}) === call.function.arguments;
    out.push(keep ? { ...fields, name: call.function.name } : { ...fields, name: call.function.name, args: parseArgs(call.function.arguments) });
  }
  return out;
}

/** Content blocks of a user, system or tool message: the slots filled from the parts shown now, text an engine added in front kept. */
function partBlocks(slots: BlockSlot[], parts: ContentPart[]): unknown[] | undefined {
  const shownSlots = slots.filter((s) => s.slot !== "hidden");
  const extra = parts.length - shownSlots.length;
  if (extra < 0 || !parts.slice(0, extra).every((p) => p.type === "text") || !shownSlots.every((s, k) => fitsSlot(s, parts[extra + k]!))) return undefined;
  const out: unknown[] = parts.slice(0, extra);
  let k = extra;
  for (const slot of slots) out.push(slot.slot === "hidden" ? slot.block : fillSlot(slot, parts[k++]!));
  return out;
}

/** Content blocks of an AI message: text slots from the shown string (changed text → the first slot), the rest as kept. */
function aiBlocks(slots: BlockSlot[], text: string | undefined): unknown[] {
  const textSlots = slots.filter((s) => s.slot === "text");
  const stored = textSlots.map((s) => s.text ?? "");
  const unchanged = textSlots.length > 1 && text === stored.join("\n");
  const out: unknown[] = textSlots.length === 0 && text !== undefined && text !== "" ? [{ type: "text", text }] : [];
  let t = 0;
  for (const slot of slots) {
    if (slot.slot !== "text") {
      // an AI message's non-text blocks are kept whole (toChatMessages shows no media for them)
      out.push(slot.block);
      continue;
    }
    const value = unchanged ? stored[t] : t === 0 ? text : undefined;
    t++;
    if (value !== undefined) out.push({ ...slot.block, text: value });
  }
  return out;
}

function readMarker(chat: ChatMessage, where: string): LangChainMarker | undefined {
  const raw = chat[LANGCHAIN_MARKER];
  if (raw === undefined) return undefined;
  const parsed = LangChainMarkerSchema.safeParse(raw);
  if (!parsed.success) throw new LangChainConversionError(`${where}.${LANGCHAIN_MARKER}: not a marker this converter wrote:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A LangChain message from the OpenAI fields alone. */
function freshMessage(chat: ChatMessage, where: string): BaseMessage {
  const content = chat.content ?? "";
  const named = chat.name !== undefined ? { name: chat.name } : {};
  switch (chat.role) {
    case "system":
      return new SystemMessage({ content, ...named } as never);
    case "user":
      return new HumanMessage({ content, ...named } as never);
    case "assistant": {
      const reasoning = typeof chat.reasoning_content === "string" ? { reasoning_content: chat.reasoning_content } : {};
      return new AIMessage({ content, ...named, tool_calls: (chat.tool_calls ?? []).map(freshCall), additional_kwargs: reasoning } as never);
    }
    case "tool":
      if (chat.tool_call_id === undefined) throw new LangChainConversionError(`${where}: a tool message needs tool_call_id`);
      return new ToolMessage({ content, tool_call_id: chat.tool_call_id, ...named } as never);
  }
}

/** The message `chat` (with its marker) stands for. */
function restore(chat: ChatMessage, marker: LangChainMarker): BaseMessage {
  const fields: Record<string, unknown> = { ...marker.fields };
  let content: unknown = chat.content ?? "";
  if (marker.content !== "string") {
    if (chat.role === "assistant") content = aiBlocks(marker.content, chat.content === null ? undefined : messageText(chat));
    else if (Array.isArray(chat.content)) content = partBlocks(marker.content, chat.content) ?? chat.content;
  }
  if (marker.calls !== undefined) fields.tool_calls = toolCalls(chat.tool_calls ?? [], marker.calls);
  if (marker.kind === "tool" && chat.tool_call_id !== undefined) fields.tool_call_id = chat.tool_call_id;
  if (chat.name !== undefined) fields.name = chat.name;
  return buildMessage(marker.kind, { ...fields, content });
}

/**
 * Converts chat messages to LangChain messages. Messages made by {@link toChatMessages} come back as they
 * were (lossless) unless an engine changed their OpenAI fields, whose values then win; other messages are
 * built from their OpenAI fields. Throws an `InvalidMessagesError` or {@link LangChainConversionError}
 * naming the index of what cannot be converted.
 */
export function toBaseMessages(messages: readonly ChatMessage[]): BaseMessage[] {
  return parseMessages(messages, "toBaseMessages").map((chat, i) => {
    const where = `messages[${i}]`;
    const marker = readMarker(chat, where);
    const fits = marker !== undefined && chatRole(marker.kind, marker.fields.role, where) === chat.role;
    return fits ? restore(chat, marker) : freshMessage(chat, where);
  });
}
