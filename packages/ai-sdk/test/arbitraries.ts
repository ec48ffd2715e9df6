/** fast-check arbitraries of AI SDK 6 `ModelMessage[]`: every part kind, media of every data kind, provider options. */
import fc from "fast-check";
import type { ModelMessage } from "ai";

/** JSON values: `faithful` ones only (what survives JSON.stringify/parse), or any fc.jsonValue (with -0). */
export function jsonValues(faithful: boolean): fc.Arbitrary<unknown> {
  return faithful ? fc.json({ maxDepth: 2 }).map((text) => JSON.parse(text) as unknown) : fc.jsonValue({ maxDepth: 2 });
}

/** Optional keys: present with a value from `arb`, or absent (never `undefined`). */
function maybe<T>(key: string, arb: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc.option(arb, { nil: undefined }).map((value) => (value === undefined ? {} : { [key]: value }));
}

/** ModelMessage arbitraries; `faithful` keeps every JSON value JSON-faithful (for the trip through JSON text). */
export function modelMessages(faithful: boolean): fc.Arbitrary<ModelMessage[]> {
  const json = jsonValues(faithful);
  const providerOptions = maybe("providerOptions", fc.dictionary(fc.constantFrom("openai", "anthropic", "custom"), fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 2, noNullPrototype: true }), { maxKeys: 2, noNullPrototype: true }));
  const text = fc.string({ maxLength: 30 });
  const id = fc.stringMatching(/^call_[a-z0-9]{1,6}$/);
  const bytes = fc.uint8Array({ maxLength: 12 });
  const media = fc.oneof(
    fc.base64String({ maxLength: 16 }),
    fc.webUrl().filter((u) => u.startsWith("http")),
    fc.base64String({ maxLength: 16 }).map((b) => `data:image/png;base64,${b}`),
    fc.webUrl().map((u) => new URL(u)),
    bytes,
    bytes.map((b) => Buffer.from(b)),
    bytes.map((b) => b.slice().buffer),
  );
  const mediaType = fc.constantFrom("image/png", "image/jpeg", "application/pdf", "text/plain");

  const textPart = fc.tuple(text, providerOptions).map(([t, o]) => ({ type: "text" as const, text: t, ...o }));
  const imagePart = fc.tuple(media, maybe("mediaType", mediaType), providerOptions).map(([image, m, o]) => ({ type: "image" as const, image, ...m, ...o }));
  const filePart = fc.tuple(media, mediaType, maybe("filename", fc.constantFrom("a.pdf", "log.txt")), providerOptions).map(([data, m, f, o]) => ({ type: "file" as const, data, mediaType: m, ...f, ...o }));
  const reasoningPart = fc.tuple(text, providerOptions).map(([t, o]) => ({ type: "reasoning" as const, text: t, ...o }));
  const input = fc.oneof(json, fc.constant(undefined), fc.string({ maxLength: 8 }));
  const toolCallPart = fc
    .tuple(id, fc.constantFrom("readFile", "lcm_grep"), input, providerOptions, maybe("providerExecuted", fc.boolean()))
    .map(([toolCallId, toolName, i, o, p]) => ({ type: "tool-call" as const, toolCallId, toolName, ...(i === undefined ? {} : { input: i }), ...o, ...p }));
  const output = fc.oneof(
    fc.tuple(fc.constantFrom("text", "error-text"), text, providerOptions).map(([type, value, o]) => ({ type, value, ...o })),
    fc.tuple(fc.constantFrom("json", "error-json"), json, providerOptions).map(([type, value, o]) => ({ type, value, ...o })),
    maybe("reason", text).map((r) => ({ type: "execution-denied", ...r })),
    fc
      .array(
        fc.oneof(
          text.map((t) => ({ type: "text", text: t })),
          fc.base64String({ maxLength: 12 }).map((data) => ({ type: "image-data", data, mediaType: "image/png" })),
          fc.webUrl().map((url) => ({ type: "file-url", url })),
        ),
        { maxLength: 3 },
      )
      .map((value) => ({ type: "content", value })),
  );
  const toolResultPart = fc
    .tuple(id, fc.constantFrom("readFile", "lcm_grep"), output, providerOptions)
    .map(([toolCallId, toolName, o, p]) => ({ type: "tool-result" as const, toolCallId, toolName, output: o, ...p }));
  const approvalRequest = fc.tuple(fc.uuid(), id).map(([approvalId, toolCallId]) => ({ type: "tool-approval-request" as const, approvalId, toolCallId }));
  const approvalResponse = fc
    .tuple(fc.uuid(), fc.boolean(), maybe("reason", text), maybe("providerExecuted", fc.boolean()))
    .map(([approvalId, approved, r, p]) => ({ type: "tool-approval-response" as const, approvalId, approved, ...r, ...p }));

  const system = fc.tuple(text, providerOptions).map(([content, o]) => ({ role: "system" as const, content, ...o }));
  const user = fc.tuple(fc.oneof(text, fc.array(fc.oneof(textPart, imagePart, filePart), { maxLength: 4 })), providerOptions).map(([content, o]) => ({ role: "user" as const, content, ...o }));
  const assistant = fc
    .tuple(fc.oneof(text, fc.array(fc.oneof(textPart, filePart, reasoningPart, toolCallPart, toolResultPart, approvalRequest), { maxLength: 6 })), providerOptions)
    .map(([content, o]) => ({ role: "assistant" as const, content, ...o }));
  const tool = fc.tuple(fc.array(fc.oneof({ weight: 3, arbitrary: toolResultPart }, { weight: 1, arbitrary: approvalResponse }), { maxLength: 4 }), providerOptions).map(([content, o]) => ({ role: "tool" as const, content, ...o }));

  return fc.tuple(fc.oneof(system, user), fc.array(fc.oneof(system, user, assistant, tool), { maxLength: 8 })).map(([first, rest]) => [first, ...rest] as ModelMessage[]);
}

/** A part of an AI SDK message in the provider prompt's form, as the AI SDK's own conversion gives it. */
function promptPart(part: Record<string, unknown>): Record<string, unknown> {
  const bytes = (data: unknown) => (data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  if (part.type === "image") {
    const { image, mediaType, ...rest } = part;
    return { ...rest, type: "file", data: bytes(image), mediaType: mediaType ?? "image/*" };
  }
  if (part.type === "file") return { ...part, data: bytes(part.data) };
  return part;
}

/**
 * Provider prompts (`LanguageModelV3Prompt`, what a language-model middleware sees): the AI SDK's reading of
 * {@link modelMessages} — text content as one text part, images as files with a media type, binary data as
 * Uint8Array, no tool-approval requests.
 */
export function languageModelPrompts(faithful: boolean): fc.Arbitrary<Record<string, unknown>[]> {
  return modelMessages(faithful).map((messages) =>
    messages.map((message) => {
      if (message.role === "system") return message as Record<string, unknown>;
      const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Record<string, unknown>[]);
      return { ...message, content: content.filter((p) => p.type !== "tool-approval-request").map(promptPart) };
    }),
  );
}

/** `prompt` with `providerOptions: undefined` on every message and part that has none, as the AI SDK writes them. */
export function withUndefinedKeys(prompt: Record<string, unknown>[]): Record<string, unknown>[] {
  const widen = (record: Record<string, unknown>) => ("providerOptions" in record ? record : { ...record, providerOptions: undefined });
  return prompt.map((message) => {
    const wide = widen(message);
    return Array.isArray(wide.content) ? { ...wide, content: (wide.content as Record<string, unknown>[]).map(widen) } : wide;
  });
}
