/**
 * The provider-level prompt a language-model middleware sees (`LanguageModelV3Prompt`: the AI SDK's
 * reading of `ModelMessage[]`, text content always as parts, images as files with a media type, binary data
 * as `Uint8Array`) ⇄ chat messages. A prompt message is an AI SDK message in a narrower form, so the
 * `ModelMessage` converters do the work; messages an engine wrote are brought into the provider's form.
 */
import type { ModelMessage, ProviderMiddleware } from "./aiTypes.js";
import type { ChatMessage } from "@context-engine/core";
import { isRecord, type Part } from "./parts.js";
import { namedToChatMessages } from "./toChatMessages.js";
import { toModelMessages } from "./toModelMessages.js";

/** The options of a language-model call as a middleware gets them (`LanguageModelV3CallOptions`). */
export type LanguageModelCallOptions = Parameters<NonNullable<ProviderMiddleware["transformParams"]>>[0]["params"];

/** A provider-level prompt (`LanguageModelV3Prompt` of `@ai-sdk/provider`). */
export type LanguageModelPrompt = LanguageModelCallOptions["prompt"];

/** `record` without its `undefined`-valued keys (the AI SDK writes `providerOptions: undefined`; JSON drops them). */
function definedFields(record: Part): Part {
  return Object.values(record).includes(undefined) ? Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) : record;
}

/** A prompt message read as the AI SDK message it stands for, keys holding `undefined` left out. */
function promptMessageFields(message: unknown): unknown {
  if (!isRecord(message)) return message;
  const defined = definedFields(message);
  return Array.isArray(defined.content) ? { ...defined, content: (defined.content as unknown[]).map((p) => (isRecord(p) ? definedFields(p) : p)) } : defined;
}

/** Binary data as the provider prompt holds it (`Uint8Array`; a `Buffer` is one). */
function promptData(data: unknown): unknown {
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** An AI SDK part in the provider's form: an image becomes a file (media type `image/*` when unknown). */
function promptPart(part: Part): Part {
  if (part.type === "image") {
    const { image, mediaType, ...rest } = part;
    return { ...rest, type: "file", data: promptData(image), mediaType: mediaType ?? "image/*" };
  }
  if (part.type === "file") return { ...part, data: promptData(part.data) };
  return part;
}

/** An AI SDK message in the provider's form: string content as one text part, parts as {@link promptPart}; tool-approval requests (never sent to a provider) left out. */
function promptMessage(message: ModelMessage): LanguageModelPrompt[number] {
  if (message.role === "system") return message;
  const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Part[]);
  return { ...message, content: content.filter((p) => p.type !== "tool-approval-request").map(promptPart) } as unknown as LanguageModelPrompt[number];
}

/**
 * Provider prompt → chat messages an engine can compress; {@link toLanguageModelPrompt} gives the same prompt
 * back (keys the AI SDK set to `undefined` aside). Throws an `AiSdkConversionError` naming `prompt[i]`.
 */
export function promptToChatMessages(prompt: LanguageModelPrompt): ChatMessage[] {
  return namedToChatMessages(promptAsModelMessages(prompt), "prompt");
}

/** Chat messages → a provider prompt: {@link toModelMessages}, then each message in the provider's form. */
export function toLanguageModelPrompt(messages: readonly ChatMessage[]): LanguageModelPrompt {
  return modelMessagesToPrompt(toModelMessages(messages));
}

/** AI SDK messages (a prompt read by {@link promptAsModelMessages}, or compacted ones) in the provider's form. */
export function modelMessagesToPrompt(messages: readonly ModelMessage[]): LanguageModelPrompt {
  return messages.map(promptMessage);
}

/** A provider prompt read as AI SDK messages, keys holding `undefined` left out (anything but an array is passed on for the converter to refuse). */
export function promptAsModelMessages(prompt: LanguageModelPrompt): ModelMessage[] {
  return (Array.isArray(prompt) ? prompt.map(promptMessageFields) : prompt) as ModelMessage[];
}
