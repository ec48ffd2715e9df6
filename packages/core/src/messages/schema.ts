/**
 * The message shape every engine speaks: OpenAI chat-completions, snake_case on the wire.
 * Unknown fields are preserved untouched (loose objects), so provider extras survive a round trip.
 */
import { z } from "zod";
import { AI_SDK_CONVERSION_HINT, firstAiSdkPart } from "./aiSdkShape.js";

/** One part of a multi-part content list (`{type: "text", text}`, images, provider blocks). */
export const ContentPartSchema = z.looseObject({ type: z.string() });

/** A function call an assistant message issues; `call_id` (Responses API) wins over `id` when matching. */
export const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
  call_id: z.string().optional(),
});

/** Roles the host understands. */
export const RoleSchema = z.enum(["system", "user", "assistant", "tool"]);

/** One chat message. */
export const ChatMessageSchema = z.looseObject({
  role: RoleSchema,
  content: z.union([z.string(), z.array(ContentPartSchema), z.null()]),
  tool_calls: z.array(ToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

/** One part of a multi-part content list (`{type: "text", text}`, images, provider blocks); other fields kept. */
export type ContentPart = z.infer<typeof ContentPartSchema>;
/** A function call an assistant message issues (`{id, type: "function", function: {name, arguments}}`). */
export type ToolCall = z.infer<typeof ToolCallSchema>;
/** A message's role: `system`, `user`, `assistant` or `tool`. */
export type Role = z.infer<typeof RoleSchema>;
/** One chat message in the OpenAI chat-completions shape; unknown fields are kept as they are. */
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** One problem found while parsing messages: where (`index`, `path`) and what. */
export interface MessageIssue {
  index: number;
  path: string;
  message: string;
}

/** Thrown by {@link parseMessages}; its message names the index and field of every problem. */
export class InvalidMessagesError extends Error {
  readonly issues: MessageIssue[];
  constructor(issues: MessageIssue[], source?: string) {
    const where = source ? ` in ${source}` : "";
    const lines = issues.map((i) => `  - messages[${i.index}]${i.path ? "." + i.path : ""}: ${i.message}`);
    super(`Invalid messages${where} (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "InvalidMessagesError";
    this.issues = issues;
  }
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

/**
 * Validates `input` as a list of chat messages. Returns new message objects (unknown fields kept);
 * throws {@link InvalidMessagesError} naming the index and field of every problem. Vercel AI SDK
 * parts (`tool-call`, `tool-result`, …) are rejected with the converter to use. `trusted` names the
 * indexes whose message is known to be valid (equal to one validated before): those are returned as
 * given, unchecked, so a caller that re-receives a long conversation checks only what is new.
 */
export function parseMessages(input: unknown, source?: string, trusted?: (index: number) => boolean): ChatMessage[] {
  if (!Array.isArray(input)) {
    throw new InvalidMessagesError([{ index: -1, path: "", message: `expected an array of messages, got ${describe(input)}` }], source);
  }
  const out: ChatMessage[] = [];
  const issues: MessageIssue[] = [];
  input.forEach((raw, index) => {
    if (trusted?.(index) === true) {
      out.push(raw as ChatMessage);
      return;
    }
    const aiSdk = firstAiSdkPart(raw);
    if (aiSdk !== undefined) {
      issues.push({ index, path: `content[${aiSdk.index}]`, message: `AI SDK '${aiSdk.type}' part — ${AI_SDK_CONVERSION_HINT}` });
      return;
    }
    const parsed = ChatMessageSchema.safeParse(raw);
    if (parsed.success) {
      out.push(parsed.data);
      return;
    }
    for (const issue of parsed.error.issues) {
      issues.push({ index, path: formatPath(issue.path), message: issue.message });
    }
  });
  if (issues.length > 0) throw new InvalidMessagesError(issues, source);
  return out;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
