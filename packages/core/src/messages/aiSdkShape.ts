/**
 * Recognizing Vercel AI SDK `ModelMessage` content parts (`tool-call`, `tool-result`, `reasoning`,
 * `image`, `file`, tool approvals), which look like chat messages but are not OpenAI's shape:
 * `parseMessages` rejects them with a pointer to the converter, and format detection picks the
 * `ai-sdk` importer for them.
 */

/** How to convert AI SDK messages, for error texts. */
export const AI_SDK_CONVERSION_HINT = "convert AI SDK ModelMessage[] with importAiSdkMessages() or `context-engine import --format ai-sdk`";

const ALWAYS_AI_SDK = new Set(["tool-call", "tool-result", "tool-approval-request", "tool-approval-response"]);

/**
 * The AI SDK part type of `part` when it has the AI SDK's shape and not OpenAI's: `tool-call`,
 * `tool-result` and tool approvals always; `reasoning` with `text`; `image` with `image`; `file` with
 * `data` or `mediaType` and no OpenAI `file` object. `undefined` otherwise.
 */
export function aiSdkPartType(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null || Array.isArray(part)) return undefined;
  const { type } = part as { type?: unknown };
  if (typeof type !== "string") return undefined;
  if (ALWAYS_AI_SDK.has(type)) return type;
  if (type === "reasoning" && typeof (part as { text?: unknown }).text === "string") return type;
  if (type === "image" && "image" in part) return type;
  if (type === "file" && ("data" in part || "mediaType" in part) && !("file" in part)) return type;
  return undefined;
}

/** The index and type of the first AI SDK part of `message`'s content, if any. */
export function firstAiSdkPart(message: unknown): { index: number; type: string } | undefined {
  const content = (message as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return undefined;
  for (const [index, part] of content.entries()) {
    const type = aiSdkPartType(part);
    if (type !== undefined) return { index, type };
  }
  return undefined;
}
