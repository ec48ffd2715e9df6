/**
 * AI SDK `ModelMessage[]` → chat messages, losslessly. The OpenAI fields are the core importer's reading of
 * each message (`aiSdkMessageToChat`: text, reasoning, tool calls, one tool message per result, images and
 * files as data URLs), so engines count, summarize and search what the model saw; the `ai_sdk` marker
 * keeps the rest, and {@link toModelMessages} rebuilds the very same messages from both.
 */
import type { ModelMessage } from "./aiTypes.js";
import { type ChatMessage } from "@context-engine/core";
import { aiSdkMessageToChat } from "@context-engine/core/internal";
import { AI_SDK_MARKER, type AiSdkMarker, type CallReading, type CarriedMessage, type HiddenSlot, type Slot, type ToolSlot } from "./marker.js";
import { encodeMedia, wrappedAsDataUrl } from "./mediaData.js";
import { isRecord, jsonFaithful, without, type Part } from "./parts.js";

/** Thrown for input that is not an AI SDK message; the message names the index and field. */
export class AiSdkConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AiSdkConversionError";
  }
}

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/** The field holding a media part's data: `image` for images, `data` for files. */
function mediaField(part: Part): "image" | "data" | undefined {
  if (part.type === "image") return "image";
  if (part.type === "file") return "data";
  return undefined;
}

/** A part no OpenAI field shows, kept whole (binary media data as base64). */
export function hiddenSlot(part: Part): HiddenSlot {
  const field = mediaField(part);
  const media = field === undefined ? undefined : encodeMedia(part[field]);
  if (field === undefined || media === undefined) return { slot: "hidden", part };
  return { slot: "hidden", part: without(part, field), media: { field, kind: media.kind, text: media.text } };
}

/** `part` with its media data as JSON text, as the importer reads it. */
function jsonSafePart(part: Part): Part {
  const field = mediaField(part);
  const media = field === undefined ? undefined : encodeMedia(part[field]);
  return field === undefined || media === undefined ? part : { ...part, [field]: media.text };
}

/** True when the importer shows this user part as an OpenAI content part. */
function shownUserPart(safe: Part): boolean {
  if (safe.type === "text") return true;
  if (safe.type === "image") return typeof safe.image === "string";
  if (safe.type === "file") return typeof safe.data === "string";
  return false;
}

function userSlots(parts: Part[]): Slot[] {
  return parts.map((part): Slot => {
    if (!shownUserPart(jsonSafePart(part))) return hiddenSlot(part);
    const field = mediaField(part);
    if (field === undefined) return { slot: "content", part: without(part, "text") };
    const media = encodeMedia(part[field])!;
    return { slot: "content", part: without(part, field), media: { field, kind: media.kind, wrapped: wrappedAsDataUrl(media.text) } };
  });
}

/**
 * How a tool call's `input` is read back from `arguments`: JSON, the text itself (string input), absent or
 * null (both shown as `{}`), or kept in the marker (a value its JSON does not give back, such as -0).
 */
function inputReading(input: unknown): CallReading {
  if (input === undefined) return "absent";
  if (input === null) return "null";
  if (typeof input === "string") return "text";
  return jsonFaithful(input) ? "json" : "kept";
}

function assistantSlots(parts: Part[]): Slot[] {
  const texts = parts.filter((p) => p.type === "text").length;
  const reasonings = parts.filter((p) => p.type === "reasoning").length;
  return parts.map((part): Slot => {
    if (part.type === "text" || part.type === "reasoning") {
      const shared = (part.type === "text" ? texts : reasonings) > 1;
      return { slot: part.type, part: without(part, "text"), ...(shared ? { text: String(part.text) } : {}) };
    }
    if (part.type === "tool-call" && part.providerExecuted !== true) {
      const input = inputReading(part.input);
      return { slot: "call", part: input === "kept" ? part : without(part, "input"), input };
    }
    return hiddenSlot(part);
  });
}

/** The tool slot of one `tool-result` part: its output's value left out when the content text gives it back, else the part kept whole. */
function toolSlot(part: Part, index: number, count: number, lead: HiddenSlot[], trail: HiddenSlot[]): ToolSlot {
  const output = isRecord(part.output) ? part.output : undefined;
  const base = { index, count, part: without(part, "output"), lead, trail };
  if (output && (output.type === "text" || output.type === "error-text") && typeof output.value === "string") {
    return { ...base, output: without(output, "value"), value: "text" };
  }
  if (output && (output.type === "json" || output.type === "error-json") && output.value !== undefined && jsonFaithful(output.value)) {
    return { ...base, output: without(output, "value"), value: "json" };
  }
  return { ...base, part, value: "kept" };
}

/** Attaches `marker` to `message` (no marker when it says nothing the OpenAI fields do not). */
function marked(message: ChatMessage, marker: AiSdkMarker): ChatMessage {
  const plain = marker.providerOptions === undefined && marker.parts === undefined && marker.tool === undefined && marker.role === message.role;
  return plain ? message : { ...message, [AI_SDK_MARKER]: marker };
}

function messageOptions(message: Part): Pick<AiSdkMarker, "providerOptions"> {
  return isRecord(message.providerOptions) ? { providerOptions: message.providerOptions } : {};
}

/** The chat messages of one AI SDK message; [] for a tool message with no `tool-result`. */
function convertMessage(message: Part, where: string): ChatMessage[] {
  const role = message.role as AiSdkMarker["role"];
  const content = message.content;
  const parts = Array.isArray(content) ? (content as unknown[]) : undefined;
  if (parts !== undefined) {
    const bad = parts.findIndex((p) => !isRecord(p) || typeof p.type !== "string");
    if (bad !== -1) throw new AiSdkConversionError(`${where}.content[${bad}]: expected a part with a string type`);
  } else if (typeof content !== "string") {
    throw new AiSdkConversionError(`${where}.content: expected a string or an array of parts`);
  }
  const safe = parts === undefined ? message : { ...message, content: (parts as Part[]).map(jsonSafePart) };
  const shown = aiSdkMessageToChat(safe, where, []);
  const options = messageOptions(message);
  if (role === "tool") {
    const list = (parts ?? []) as Part[];
    const results = list.flatMap((p, i) => (p.type === "tool-result" ? [i] : []));
    return shown.map((chat, k) => {
      const at = results[k]!;
      const leadFrom = k === 0 ? 0 : results[k - 1]! + 1;
      const lead = list.slice(leadFrom, at).map(hiddenSlot);
      const trail = k === results.length - 1 ? list.slice(at + 1).map(hiddenSlot) : [];
      return { ...chat, [AI_SDK_MARKER]: { role, ...options, tool: toolSlot(list[at]!, k, results.length, lead, trail) } satisfies AiSdkMarker };
    });
  }
  if (shown.length !== 1) throw new AiSdkConversionError(`${where}: expected one chat message, the importer gave ${shown.length}`);
  const slots = parts === undefined || role === "system" ? undefined : role === "user" ? userSlots(parts as Part[]) : assistantSlots(parts as Part[]);
  return [marked(shown[0]!, { role, ...options, ...(slots ? { parts: slots } : {}) })];
}

/** A message with no chat equivalent, kept whole for a neighbour to carry. */
function carried(message: Part): CarriedMessage {
  const parts = Array.isArray(message.content) ? (message.content as Part[]) : [];
  return { role: message.role as CarriedMessage["role"], ...messageOptions(message), parts: parts.map(hiddenSlot) };
}

function carry(message: ChatMessage, side: "before" | "after", items: CarriedMessage[]): ChatMessage {
  const marker = (message[AI_SDK_MARKER] as AiSdkMarker | undefined) ?? { role: message.role };
  return { ...message, [AI_SDK_MARKER]: { ...marker, [side]: [...(marker[side] ?? []), ...items] } };
}

/**
 * Converts AI SDK `ModelMessage[]` to chat messages an engine can compress; {@link toModelMessages} gives
 * the same messages back (media data by value and kind, provider options, part order, tool approvals).
 * Throws an {@link AiSdkConversionError} naming the index of anything that is not an AI SDK message.
 */
export function toChatMessages(messages: readonly ModelMessage[]): ChatMessage[] {
  return namedToChatMessages(messages, "messages");
}

/** {@link toChatMessages} whose errors call the list `name` (e.g. "prompt"). */
export function namedToChatMessages(messages: readonly ModelMessage[], name: string): ChatMessage[] {
  if (!Array.isArray(messages)) throw new AiSdkConversionError(`${name}: expected an array of AI SDK messages, got ${messages === null ? "null" : typeof messages}`);
  const out: ChatMessage[] = [];
  let waiting: CarriedMessage[] = [];
  messages.forEach((raw: unknown, i) => {
    const where = `${name}[${i}]`;
    if (!isRecord(raw) || typeof raw.role !== "string" || !ROLES.has(raw.role)) {
      throw new AiSdkConversionError(`${where}: expected an AI SDK message with role system, user, assistant or tool`);
    }
    const chats = convertMessage(raw, where);
    if (chats.length === 0) {
      if (out.length > 0) out[out.length - 1] = carry(out[out.length - 1]!, "after", [carried(raw)]);
      else waiting.push(carried(raw));
      return;
    }
    if (waiting.length > 0) chats[0] = carry(chats[0]!, "before", waiting);
    waiting = [];
    out.push(...chats);
  });
  if (waiting.length > 0) throw new AiSdkConversionError(`${name}: only tool messages without results (tool approvals); no chat message can carry them`);
  return out;
}
