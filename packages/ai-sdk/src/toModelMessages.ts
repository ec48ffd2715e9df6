/**
 * Chat messages → AI SDK `ModelMessage[]`. A message {@link toChatMessages} made comes back as the AI SDK
 * message it was, with the values its OpenAI fields show read from them (so an engine's changes count);
 * the tool messages of one AI SDK tool message are joined again. Any other message (an engine's summary,
 * a stub tool result) is converted from its OpenAI fields.
 */
import type { ModelMessage } from "./aiTypes.js";
import { messageText, parseMessages, type ChatMessage, type ContentPart, type ToolCall } from "@context-engine/core";
import { aiSdkToolOutputText } from "@context-engine/core/internal";
import { z } from "@context-engine/core";
import { AI_SDK_MARKER, AiSdkMarkerSchema, type AiSdkMarker, type CallReading, type CarriedMessage, type HiddenSlot, type Slot, type ToolSlot } from "./marker.js";
import { decodeMedia, parseDataUrl } from "./mediaData.js";
import { without, type Part } from "./parts.js";
import { AiSdkConversionError } from "./toChatMessages.js";

function hiddenPart(slot: HiddenSlot): Part {
  const { media } = slot;
  return media === undefined ? slot.part : { ...slot.part, [media.field]: decodeMedia(media.kind, media.text, false) };
}

function carriedMessage(item: CarriedMessage): ModelMessage {
  return { role: item.role, content: item.parts.map(hiddenPart), ...(item.providerOptions ? { providerOptions: item.providerOptions } : {}) } as ModelMessage;
}

/** A tool call's input from its `arguments`: JSON (text that is no JSON stays text), the text itself, absent or null. */
function readInput(reading: Exclude<CallReading, "kept">, args: string): unknown {
  if (reading === "text") return args;
  if (reading === "absent" && args === "{}") return undefined;
  if (reading === "null" && args === "{}") return null;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** An AI SDK part for an OpenAI content part of a user message. */
function freshUserPart(part: ContentPart, where: string): Part {
  const p = part as Part;
  if (part.type === "text") return { type: "text", text: String(p.text ?? "") };
  if (part.type === "image_url") {
    const url = String((p.image_url as { url?: unknown } | undefined)?.url ?? "");
    const data = parseDataUrl(url);
    return data ? { type: "image", image: data.base64, mediaType: data.mediaType } : { type: "image", image: new URL(url) };
  }
  if (part.type === "file") {
    const file = (p.file ?? {}) as { file_data?: unknown; filename?: unknown };
    const text = String(file.file_data ?? "");
    const data = parseDataUrl(text);
    const named = typeof file.filename === "string" ? { filename: file.filename } : {};
    return data ? { type: "file", data: data.base64, mediaType: data.mediaType, ...named } : { type: "file", data: new URL(text), mediaType: "application/octet-stream", ...named };
  }
  if (part.type === "input_audio") {
    const audio = (p.input_audio ?? {}) as { data?: unknown; format?: unknown };
    return { type: "file", data: String(audio.data ?? ""), mediaType: `audio/${String(audio.format ?? "wav")}` };
  }
  throw new AiSdkConversionError(`${where}: a '${part.type}' content part has no AI SDK equivalent`);
}

function freshToolCall(call: ToolCall): Part {
  return { type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: readInput("json", call.function.arguments) };
}

/** Is `shown` the OpenAI part a user slot was shown as? */
function fits(slot: Slot, shown: ContentPart): boolean {
  if (slot.slot !== "content") return false;
  if (slot.media === undefined) return shown.type === "text";
  return shown.type === (slot.media.field === "image" ? "image_url" : "file");
}

function filledUserPart(slot: Extract<Slot, { slot: "content" }>, shown: ContentPart): Part {
  const p = shown as Part;
  if (slot.media === undefined) return { ...slot.part, text: String(p.text ?? "") };
  const url = slot.media.field === "image" ? (p.image_url as { url?: unknown } | undefined)?.url : (p.file as { file_data?: unknown } | undefined)?.file_data;
  return { ...slot.part, [slot.media.field]: decodeMedia(slot.media.kind, String(url ?? ""), slot.media.wrapped) };
}

/** Where the slots' shown parts start in `shown`, extra parts being text an engine put before or after; undefined when they do not line up. */
function alignment(slots: Slot[], shown: ContentPart[]): number | undefined {
  const content = slots.filter((s) => s.slot === "content");
  const extra = shown.length - content.length;
  if (extra < 0) return undefined;
  const lines = (offset: number) =>
    content.every((s, k) => fits(s, shown[offset + k]!)) && shown.every((p, i) => (i >= offset && i < offset + content.length) || p.type === "text");
  if (lines(extra)) return extra;
  return lines(0) ? 0 : undefined;
}

function userContent(chat: ChatMessage, slots: Slot[] | undefined, where: string): ModelMessage["content"] {
  const content = chat.content;
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  const fresh = () => content.map((p, j) => freshUserPart(p, `${where}.content[${j}]`));
  if (slots === undefined) return fresh() as never;
  const offset = alignment(slots, content);
  if (offset === undefined) return fresh() as never;
  const out: Part[] = content.slice(0, offset).map((p, j) => freshUserPart(p, `${where}.content[${j}]`));
  let k = offset;
  for (const slot of slots) out.push(slot.slot === "content" ? filledUserPart(slot, content[k++]!) : hiddenPart(slot as HiddenSlot));
  content.slice(k).forEach((p, j) => out.push(freshUserPart(p, `${where}.content[${k + j}]`)));
  return out as never;
}

/**
 * The texts of the text (or reasoning) slots, given what the OpenAI field shows now: unchanged → the
 * stored texts; changed → the shown text in the first slot and the others dropped (undefined).
 */
function slotTexts(slots: Extract<Slot, { slot: "text" | "reasoning" }>[], shown: string | undefined): (string | undefined)[] {
  if (slots.length === 1) return [shown];
  const stored = slots.map((s) => s.text ?? "");
  if (shown === stored.join("\n")) return stored;
  return slots.map((_, i) => (i === 0 ? shown : undefined));
}

function assistantContent(chat: ChatMessage, slots: Slot[] | undefined): ModelMessage["content"] {
  const text = chat.content === null ? undefined : messageText(chat);
  const reasoning = typeof chat.reasoning_content === "string" ? chat.reasoning_content : undefined;
  const calls = chat.tool_calls ?? [];
  if (slots === undefined) {
    const parts: Part[] = [];
    if (reasoning !== undefined) parts.push({ type: "reasoning", text: reasoning });
    if (text !== undefined && (text !== "" || calls.length === 0)) parts.push({ type: "text", text });
    parts.push(...calls.map(freshToolCall));
    return (parts.length === 1 && parts[0]!.type === "text" ? text! : parts) as never;
  }
  const texts = slots.filter((s): s is Extract<Slot, { slot: "text" }> => s.slot === "text");
  const reasonings = slots.filter((s): s is Extract<Slot, { slot: "reasoning" }> => s.slot === "reasoning");
  const textValues = slotTexts(texts, text);
  const reasoningValues = slotTexts(reasonings, reasoning);
  const used = new Set<number>();
  const out: Part[] = [];
  if (texts.length === 0 && text !== undefined && text !== "") out.push({ type: "text", text });
  let t = 0;
  let r = 0;
  for (const slot of slots) {
    if (slot.slot === "text" || slot.slot === "reasoning") {
      const value = slot.slot === "text" ? textValues[t++] : reasoningValues[r++];
      if (value !== undefined) out.push({ ...slot.part, text: value });
    } else if (slot.slot === "call") {
      // the first unused call with the slot's id (ids may repeat within a message)
      const at = calls.findIndex((c, k) => !used.has(k) && c.id === slot.part.toolCallId);
      if (at === -1) continue;
      used.add(at);
      const call = calls[at]!;
      out.push(filledCall(slot, call));
    } else out.push(hiddenPart(slot as HiddenSlot));
  }
  if (reasonings.length === 0 && reasoning !== undefined) out.unshift({ type: "reasoning", text: reasoning });
  calls.forEach((call, k) => used.has(k) || out.push(freshToolCall(call)));
  return out as never;
}

/** A tool-call slot filled from the call `tool_calls` shows now (its input omitted when it was absent). */
function filledCall(slot: Extract<Slot, { slot: "call" }>, call: ToolCall): Part {
  const args = call.function.arguments;
  if (slot.input === "kept") {
    const shownBefore = typeof slot.part.input === "string" ? slot.part.input : JSON.stringify(slot.part.input ?? {});
    return args === shownBefore ? { ...slot.part, toolName: call.function.name } : { ...slot.part, toolName: call.function.name, input: readInput("json", args) };
  }
  const input = readInput(slot.input, args);
  return { ...slot.part, toolName: call.function.name, ...(input === undefined ? {} : { input }) };
}

/** The `tool-result` part of a tool message, its output read from the content. */
function toolResultPart(chat: ChatMessage, slot: ToolSlot): Part {
  const text = typeof chat.content === "string" ? chat.content : messageText(chat);
  const id = chat.tool_call_id ?? slot.part.toolCallId;
  if (slot.value === "kept") {
    return aiSdkToolOutputText(slot.part) === text ? { ...slot.part, toolCallId: id } : { ...without(slot.part, "output"), toolCallId: id, output: { type: "text", value: text } };
  }
  const output = slot.output ?? {};
  if (slot.value === "text") return { ...slot.part, toolCallId: id, output: { ...output, value: text } };
  try {
    return { ...slot.part, toolCallId: id, output: { ...output, value: JSON.parse(text) as unknown } };
  } catch {
    // an engine replaced the JSON (e.g. an old output cleared): the text is what the model sees now
    return { ...slot.part, toolCallId: id, output: { ...output, type: output.type === "error-json" ? "error-text" : "text", value: text } };
  }
}

function readMarker(chat: ChatMessage, where: string): AiSdkMarker | undefined {
  const raw = chat[AI_SDK_MARKER];
  if (raw === undefined) return undefined;
  const parsed = AiSdkMarkerSchema.safeParse(raw);
  if (!parsed.success) throw new AiSdkConversionError(`${where}.${AI_SDK_MARKER}: not a marker this converter wrote:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The tool messages being joined back into one AI SDK tool message. */
interface PendingTool {
  message: { role: "tool"; content: Part[]; providerOptions?: Record<string, unknown> };
  next: number;
  count: number;
}

/**
 * Converts chat messages to AI SDK `ModelMessage[]`. Messages made by {@link toChatMessages} come back as
 * they were (lossless) unless an engine changed their OpenAI fields, whose values then win; other messages
 * are converted from their OpenAI fields (fields with no AI SDK equivalent are left out). Throws an
 * `InvalidMessagesError` or {@link AiSdkConversionError} naming the index of what cannot be converted.
 */
export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const chats = parseMessages(messages, "toModelMessages");
  const out: ModelMessage[] = [];
  const callNames = new Map<string, string>();
  let pending: PendingTool | undefined;
  const flush = () => {
    if (pending) out.push(pending.message as ModelMessage);
    pending = undefined;
  };
  chats.forEach((chat, i) => {
    const where = `messages[${i}]`;
    const marker = readMarker(chat, where);
    for (const call of chat.tool_calls ?? []) callNames.set(call.id, call.function.name);
    const sameRole = marker !== undefined && marker.role === chat.role;
    const options = sameRole && marker.providerOptions ? { providerOptions: marker.providerOptions } : {};
    const tool = sameRole ? marker.tool : undefined;
    if (!(tool && pending && tool.index === pending.next && tool.count === pending.count)) flush();
    for (const item of marker?.before ?? []) out.push(carriedMessage(item));
    if (chat.role === "tool" && tool) {
      pending ??= { message: { role: "tool", content: [], ...options }, next: tool.index, count: tool.count };
      pending.message.content.push(...tool.lead.map(hiddenPart), toolResultPart(chat, tool), ...tool.trail.map(hiddenPart));
      pending.next = tool.index + 1;
      if (pending.next >= pending.count) flush();
    } else if (chat.role === "tool") {
      const id = chat.tool_call_id ?? "";
      const toolName = callNames.get(id) ?? chat.name;
      if (toolName === undefined) throw new AiSdkConversionError(`${where}: tool result ${JSON.stringify(id)} answers no earlier tool call and has no name; the AI SDK needs the tool's name`);
      const value = typeof chat.content === "string" ? chat.content : messageText(chat);
      out.push({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName, output: { type: "text", value } }] });
    } else {
      const slots = sameRole ? marker.parts : undefined;
      const content =
        chat.role === "system" ? messageText(chat) : chat.role === "user" ? userContent(chat, slots, where) : assistantContent(chat, slots);
      out.push({ role: chat.role, content, ...options } as ModelMessage);
    }
    if (marker?.after?.length) {
      flush();
      for (const item of marker.after) out.push(carriedMessage(item));
    }
  });
  flush();
  return out;
}
