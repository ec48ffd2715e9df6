/**
 * Vercel AI SDK `ModelMessage[]` (v5/v6; a JSON array or `{messages: [...]}`) → OpenAI chat messages.
 * Text and `reasoning` parts become the assistant's `content` and `reasoning_content`; `tool-call`
 * parts become `tool_calls` (`input` as JSON `arguments`); each `tool-result` of a tool message
 * becomes its own `tool` message, its `output` (`text`, `json`, `error-text`, `error-json`,
 * `content`, `execution-denied`) as text; user `image` and `file` parts become `image_url` and `file`
 * parts (data URLs for inline data). v4's `args`/`result` are read too. Tool approvals and
 * provider-executed calls and results are left out with a warning; pairs are repaired by `assembleConversation`.
 * {@link aiSdkMessageToChat} converts one message (no repair); the lossless converters of
 * `@context-engine/ai-sdk` build on it.
 */
import type { ChatMessage, ContentPart, ToolCall } from "../messages/schema.js";
import { assembleConversation, type SourcedMessage } from "./assemble.js";
import { describeValue, isRecord, parseJsonDocument } from "./jsonInput.js";
import { TranscriptImportError, UNNAMED_INPUT, type ImporterOptions, type ImportResult } from "./types.js";

type Part = Record<string, unknown>;

/** A string, or the JSON text of anything else (`undefined` → `{}` for tool arguments). */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}

/** A URL for inline or linked media: URLs and data URLs as they are, base64 data as a data URL. */
function mediaUrl(data: unknown, mediaType: unknown, fallbackType: string): string | undefined {
  if (typeof data !== "string") return undefined;
  if (/^(https?:|data:)/i.test(data)) return data;
  return `data:${typeof mediaType === "string" ? mediaType : fallbackType};base64,${data}`;
}

/** The text of a tool result's `output` (v5/v6) or `result` (v4). */
export function aiSdkToolOutputText(part: Part): string {
  const output = part.output;
  if (!isRecord(output)) return asText(part.result ?? output ?? "");
  switch (output.type) {
    case "text":
    case "error-text":
      return asText(output.value);
    case "json":
    case "error-json":
      return JSON.stringify(output.value ?? null);
    case "execution-denied":
      return `Tool execution denied${typeof output.reason === "string" ? `: ${output.reason}` : ""}`;
    case "content":
      return Array.isArray(output.value)
        ? output.value.map((item) => (isRecord(item) && item.type === "text" ? asText(item.text) : `[${isRecord(item) ? String(item.mediaType ?? item.type) : "content"}]`)).join("\n")
        : asText(output.value);
    default:
      return JSON.stringify(output);
  }
}

/** An OpenAI content part for a user `text`, `image` or `file` part; `undefined` (with a warning) otherwise. */
function userPart(part: Part, where: string, warnings: string[]): ContentPart | undefined {
  if (part.type === "text") return { type: "text", text: asText(part.text) };
  if (part.type === "image") {
    const url = mediaUrl(part.image, part.mediaType ?? part.mimeType, "image/png");
    if (url !== undefined) return { type: "image_url", image_url: { url } };
  }
  if (part.type === "file") {
    const url = mediaUrl(part.data, part.mediaType ?? part.mimeType, "application/octet-stream");
    if (url !== undefined) return { type: "file", file: { ...(typeof part.filename === "string" ? { filename: part.filename } : {}), file_data: url } };
  }
  warnings.push(`${where}: ${String(part.type)} part without usable data; left out`);
  return undefined;
}

/** One assistant message from text, reasoning and tool-call parts. */
function assistantMessage(parts: Part[], where: string, warnings: string[]): ChatMessage {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  for (const part of parts) {
    if (part.type === "text") texts.push(asText(part.text));
    else if (part.type === "reasoning") reasoning.push(asText(part.text));
    else if (part.type === "tool-call" && part.providerExecuted === true) {
      // the provider ran it and its result sits in this message: no OpenAI tool message can answer it
      warnings.push(`${where}: provider-executed tool call ${JSON.stringify(part.toolCallId)} (${String(part.toolName)}) has no OpenAI equivalent; left out`);
    } else if (part.type === "tool-call") {
      calls.push({ id: asText(part.toolCallId), type: "function", function: { name: asText(part.toolName), arguments: asText(part.input ?? part.args) } });
    } else warnings.push(`${where}: assistant '${String(part.type)}' part has no OpenAI equivalent; left out`);
  }
  return {
    role: "assistant",
    content: texts.length > 0 ? texts.join("\n") : null,
    ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("\n") } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/** The OpenAI messages of one AI SDK message (a tool message gives one per result). */
function convertMessage(raw: unknown, where: string, warnings: string[]): SourcedMessage[] {
  if (!isRecord(raw) || typeof raw.role !== "string") throw new TranscriptImportError(`${where}: expected an AI SDK message with a role, got ${describeValue(raw)}`);
  const { role, content } = raw;
  const parts = Array.isArray(content) ? content.filter(isRecord) : [];
  if (role === "system") return [{ message: { role: "system", content: typeof content === "string" ? content : parts.map((p) => asText(p.text)).join("\n") }, where }];
  if (role === "user") {
    if (typeof content === "string") return [{ message: { role: "user", content }, where }];
    const converted = parts.flatMap((part) => userPart(part, where, warnings) ?? []);
    return [{ message: { role: "user", content: converted }, where }];
  }
  if (role === "assistant") {
    if (typeof content === "string") return [{ message: { role: "assistant", content }, where }];
    return [{ message: assistantMessage(parts, where, warnings), where }];
  }
  if (role === "tool") {
    return parts.flatMap((part) => {
      if (part.type !== "tool-result") {
        warnings.push(`${where}: tool '${String(part.type)}' part has no OpenAI equivalent; left out`);
        return [];
      }
      return [{ message: { role: "tool", tool_call_id: asText(part.toolCallId), content: aiSdkToolOutputText(part) }, where }];
    });
  }
  throw new TranscriptImportError(`${where}: unknown AI SDK role ${JSON.stringify(role)}`);
}

/**
 * The OpenAI chat messages of one AI SDK `ModelMessage` (a tool message gives one per `tool-result`),
 * without repairing tool pairs; parts with no OpenAI equivalent are left out with a warning naming `where`.
 * Inline media must be base64 or data-URL strings (JSON); URLs are kept as they are.
 */
export function aiSdkMessageToChat(message: unknown, where: string, warnings: string[] = []): ChatMessage[] {
  return convertMessage(message, where, warnings).map((item) => item.message);
}

/** Imports Vercel AI SDK `ModelMessage[]` JSON (or `{messages: [...]}`) as valid OpenAI chat messages. */
export function importAiSdkMessages(text: string, options: ImporterOptions = {}): ImportResult {
  const fileName = options.fileName ?? UNNAMED_INPUT;
  const document = parseJsonDocument(text, fileName);
  const list = Array.isArray(document) ? document : isRecord(document) && Array.isArray(document.messages) ? document.messages : undefined;
  if (list === undefined) throw new TranscriptImportError(`${fileName}: expected an array of AI SDK messages or {messages: [...]}, got ${describeValue(document)}`);
  const prefix = Array.isArray(document) ? "" : "messages";
  const warnings: string[] = [];
  const items = list.flatMap((raw, i) => convertMessage(raw, `${fileName}: ${prefix}[${i}]`, warnings));
  return { format: "ai-sdk", messages: assembleConversation(items, warnings), warnings };
}
