/**
 * OpenAI-format chat messages → Anthropic Messages API request params, typed with @anthropic-ai/sdk.
 * System messages become `system` text blocks, tool calls `tool_use` blocks, tool messages
 * `tool_result` blocks in a user turn; consecutive same-role turns are merged; top-level
 * `cache_control` markers move onto the block that carries them on the wire (at most 4 survive).
 */
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { ChatMessage, ContentPart } from "../messages/schema.js";
import type { ToolSchema } from "../engine/types.js";
import { MAX_CACHE_BREAKPOINTS } from "./anthropicFacts.js";
import { toolCallKey } from "../messages/toolPairs.js";

/** Options of {@link toAnthropicMessages}. */
export interface AnthropicRequestOptions {
  model: string;
  maxTokens: number;
  /** OpenAI function-tool schemas, converted to Anthropic tools. */
  tools?: ToolSchema[];
  /** Any further request params (temperature, metadata, …), copied as they are. */
  extra?: Omit<Partial<MessageCreateParamsNonStreaming>, "model" | "max_tokens" | "messages" | "system" | "stream">;
}

/** Thrown for input the Anthropic API would reject; the message names the message index. */
export class AnthropicAdapterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AnthropicAdapterError";
  }
}

type ToolResultContent = Exclude<ToolResultBlockParam["content"], string | undefined>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function markerOf(value: unknown): CacheControlEphemeral | undefined {
  if (!isPlainObject(value) || value.type !== "ephemeral") return undefined;
  return value.ttl === "1h" || value.ttl === "5m" ? { type: "ephemeral", ttl: value.ttl } : { type: "ephemeral" };
}

function textBlock(text: string, marker: CacheControlEphemeral | undefined): TextBlockParam {
  return marker ? { type: "text", text, cache_control: marker } : { type: "text", text };
}

/** `image_url` parts (data URLs or http URLs) → Anthropic image blocks. */
function imageBlock(part: ContentPart, where: string): ImageBlockParam {
  const imageUrl = part.image_url;
  const url = typeof imageUrl === "string" ? imageUrl : isPlainObject(imageUrl) ? imageUrl.url : undefined;
  if (typeof url !== "string") throw new AnthropicAdapterError(`${where}: image_url part has no url`);
  const marker = markerOf(part.cache_control);
  const data = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.*)$/s.exec(url);
  const block: ImageBlockParam = data
    ? { type: "image", source: { type: "base64", media_type: data[1] as "image/jpeg" | "image/png" | "image/gif" | "image/webp", data: data[2] as string } }
    : { type: "image", source: { type: "url", url } };
  if (marker) block.cache_control = marker;
  return block;
}

/** One OpenAI content part → Anthropic block(s); empty text is skipped, Anthropic-native blocks pass through. */
function convertPart(part: unknown, where: string): ContentBlockParam | undefined {
  if (typeof part === "string") return part === "" ? undefined : textBlock(part, undefined);
  if (!isPlainObject(part) || typeof part.type !== "string") throw new AnthropicAdapterError(`${where}: content part must be an object with a type`);
  const p = part as ContentPart;
  if (p.type === "text" || p.type === "input_text" || p.type === "output_text") {
    if (typeof p.text !== "string") throw new AnthropicAdapterError(`${where}: text part has no text`);
    return p.text === "" ? undefined : textBlock(p.text, markerOf(p.cache_control));
  }
  if (p.type === "image_url") return imageBlock(p, where);
  return { ...p } as unknown as ContentBlockParam; // an Anthropic-native block: copied, never shared with the input

}

function convertContent(content: ChatMessage["content"], where: string): ContentBlockParam[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return content === "" ? [] : [textBlock(content, undefined)];
  const blocks: ContentBlockParam[] = [];
  content.forEach((part, i) => {
    const block = convertPart(part, `${where}.content[${i}]`);
    if (block) blocks.push(block);
  });
  return blocks;
}

/** Tool-call arguments → `tool_use.input`: the parsed JSON object; "" → {}; anything else → `{_raw}`. */
export function parseToolArguments(args: string): Record<string, unknown> {
  if (args.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isPlainObject(parsed) ? parsed : { _raw: args };
  } catch {
    return { _raw: args };
  }
}

function toolResultContent(message: ChatMessage, where: string): string | ToolResultContent {
  if (message.content === null || message.content === undefined) return "";
  if (typeof message.content === "string") return message.content;
  const blocks: ToolResultContent = [];
  for (const block of convertContent(message.content, where)) {
    if (block.type === "text" || block.type === "image" || block.type === "document" || block.type === "search_result") blocks.push(block);
    else throw new AnthropicAdapterError(`${where}: a tool result may hold text, image, document or search_result parts, got ${block.type}`);
  }
  return blocks.length > 0 ? blocks : "";
}

interface Turn {
  role: "user" | "assistant";
  blocks: ContentBlockParam[];
}

function setMarker(block: ContentBlockParam, marker: CacheControlEphemeral): void {
  (block as { cache_control?: CacheControlEphemeral | null }).cache_control = marker;
}

function hasMarker(block: object): boolean {
  return isPlainObject((block as { cache_control?: unknown }).cache_control);
}

type MarkerCarrier = { cache_control?: CacheControlEphemeral | null };

/** Every block that can carry a marker, in prefix order: a tool_result's nested content blocks come before it. */
function markerCarriers(blocks: readonly unknown[]): MarkerCarrier[] {
  const out: MarkerCarrier[] = [];
  for (const block of blocks) {
    if (!isPlainObject(block)) continue;
    if (block.type === "tool_result" && Array.isArray(block.content)) out.push(...(block.content.filter(isPlainObject) as MarkerCarrier[]));
    out.push(block as MarkerCarrier);
  }
  return out;
}

/** Keeps the first marker and the last ones, `MAX_CACHE_BREAKPOINTS` in all (system breakpoint + rolling window). */
function capMarkers(blocks: readonly unknown[]): void {
  const marked = markerCarriers(blocks).filter(hasMarker);
  if (marked.length <= MAX_CACHE_BREAKPOINTS) return;
  const dropCount = marked.length - MAX_CACHE_BREAKPOINTS;
  for (const block of marked.slice(1, 1 + dropCount)) delete block.cache_control;
}

function checkToolPairs(turns: Turn[], sourceIndex: Map<ContentBlockParam, number>): void {
  turns.forEach((turn, t) => {
    if (turn.role !== "assistant") return;
    const uses = turn.blocks.filter((b): b is ToolUseBlockParam => b.type === "tool_use");
    if (uses.length === 0) return;
    const next = turns[t + 1];
    const answered = new Set(next?.role === "user" ? next.blocks.filter((b): b is ToolResultBlockParam => b.type === "tool_result").map((b) => b.tool_use_id) : []);
    for (const use of uses) {
      if (!answered.has(use.id)) {
        throw new AnthropicAdapterError(`messages[${sourceIndex.get(use)}]: tool call ${use.id} (${use.name}) has no tool result in the next user turn; run sanitizeToolPairs() first`);
      }
    }
  });
  turns.forEach((turn, t) => {
    if (turn.role !== "user") return;
    const prev = turns[t - 1];
    const issued = new Set(prev?.role === "assistant" ? prev.blocks.filter((b): b is ToolUseBlockParam => b.type === "tool_use").map((b) => b.id) : []);
    for (const block of turn.blocks) {
      if (block.type === "tool_result" && !issued.has(block.tool_use_id)) {
        throw new AnthropicAdapterError(`messages[${sourceIndex.get(block)}]: tool result for ${block.tool_use_id} does not follow an assistant turn that issued that call; run sanitizeToolPairs() first`);
      }
    }
  });
}

function convertTools(tools: ToolSchema[]): Tool[] {
  return tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    input_schema: { type: "object", ...t.function.parameters } as Tool["input_schema"],
  }));
}

/**
 * Builds Anthropic Messages params from OpenAI-format `messages`. Pairs are kept: every `tool_use` is
 * answered by a `tool_result` in the next user turn (tool results come first in that turn), otherwise
 * an {@link AnthropicAdapterError} names the offending message. Never more than 4 cache markers.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], options: AnthropicRequestOptions): MessageCreateParamsNonStreaming {
  const system: TextBlockParam[] = [];
  const turns: Turn[] = [];
  const sourceIndex = new Map<ContentBlockParam, number>();

  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const marker = markerOf(message.cache_control);
    if (message.role === "system") {
      const blocks = convertContent(message.content, where);
      for (const block of blocks) {
        if (block.type !== "text") throw new AnthropicAdapterError(`${where}: a system message may only hold text, got a ${block.type} part`);
      }
      const texts = blocks as TextBlockParam[];
      const last = texts[texts.length - 1];
      if (marker && last) last.cache_control = marker;
      system.push(...texts);
      return;
    }

    let role: Turn["role"];
    let blocks: ContentBlockParam[];
    if (message.role === "tool") {
      if (typeof message.tool_call_id !== "string" || message.tool_call_id === "") throw new AnthropicAdapterError(`${where}: tool message has no tool_call_id`);
      const result: ToolResultBlockParam = { type: "tool_result", tool_use_id: message.tool_call_id, content: toolResultContent(message, where) };
      if (marker) result.cache_control = marker;
      role = "user";
      blocks = [result];
    } else if (message.role === "assistant") {
      role = "assistant";
      blocks = convertContent(message.content, where);
      for (const call of message.tool_calls ?? []) {
        blocks.push({ type: "tool_use", id: toolCallKey(call), name: call.function.name, input: parseToolArguments(call.function.arguments) });
      }
      const last = blocks[blocks.length - 1];
      if (marker && last) setMarker(last, marker);
    } else if (message.role === "user") {
      role = "user";
      blocks = convertContent(message.content, where);
      const last = blocks[blocks.length - 1];
      if (marker && last) setMarker(last, marker);
    } else {
      throw new AnthropicAdapterError(`${where}: unknown role ${JSON.stringify(message.role)}`);
    }
    if (blocks.length === 0) {
      // An empty message adds nothing to the prefix, so its breakpoint caches the same prefix as the
      // block before it: carry the marker there.
      const before = turns[turns.length - 1]?.blocks.at(-1) ?? system.at(-1);
      if (marker && before && !hasMarker(before)) setMarker(before, marker);
      return;
    }
    for (const block of blocks) sourceIndex.set(block, index);
    const previous = turns[turns.length - 1];
    if (previous && previous.role === role) previous.blocks.push(...blocks);
    else turns.push({ role, blocks });
  });

  for (const turn of turns) {
    if (turn.role === "user") {
      // Anthropic wants the tool results first in a user turn; keep the order otherwise.
      turn.blocks = [...turn.blocks.filter((b) => b.type === "tool_result"), ...turn.blocks.filter((b) => b.type !== "tool_result")];
    }
  }
  checkToolPairs(turns, sourceIndex);

  const tools = options.tools && options.tools.length > 0 ? convertTools(options.tools) : undefined;
  capMarkers([...(tools ?? []), ...system, ...turns.flatMap((t) => t.blocks)]);

  const params: MessageCreateParamsNonStreaming = {
    ...(options.extra ?? {}),
    model: options.model,
    max_tokens: options.maxTokens,
    messages: turns.map((t): MessageParam => ({ role: t.role, content: t.blocks })),
  };
  if (system.length > 0) params.system = system;
  if (tools) params.tools = tools;
  return params;
}

/** Counts the `cache_control` markers in Anthropic params (tools, system, message blocks and blocks nested in tool results). */
export function countAnthropicCacheMarkers(params: MessageCreateParamsNonStreaming): number {
  const system = typeof params.system === "string" || params.system === undefined ? [] : params.system;
  const blocks: unknown[] = [...(params.tools ?? []), ...system, ...params.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content))];
  return markerCarriers(blocks).filter(hasMarker).length;
}
