/**
 * The `langchain` field a converted chat message carries: the LangChain message's class and fields, with
 * what the OpenAI fields show (content text and media, tool-call arguments) left out; reading the chat
 * message back fills those in from the OpenAI fields, so an engine's changes are what the agent keeps.
 * JSON only, so a marked message survives a store.
 */
import { z } from "@context-engine/core";

/** The chat-message field holding the marker. */
export const LANGCHAIN_MARKER = "langchain";

const Json = z.record(z.string(), z.unknown());

/** A content block and how the OpenAI content shows it. */
const BlockSlotSchema = z.discriminatedUnion("slot", [
  /** A text block shown as text; `text` kept only when several blocks share one string (AI messages). */
  z.strictObject({ slot: z.literal("text"), block: Json, text: z.string().optional() }),
  /** A media block shown as an image_url or file part; `field` (its URL, base64 data or provider file id) left out. */
  z.strictObject({ slot: z.literal("media"), block: Json, field: z.enum(["url", "data", "image_url", "image_url.url", "fileId", "id"]), wrapped: z.boolean() }),
  /** A block no OpenAI field shows (reasoning, tool_use, provider blocks), kept whole. */
  z.strictObject({ slot: z.literal("hidden"), block: z.unknown() }),
]);

/** A tool call of an AI message without its `args`, read back from `arguments` (JSON, or kept here). */
const CallSchema = z.strictObject({ call: Json, args: z.enum(["json", "kept"]) });

/** The marker of one converted chat message. */
export const LangChainMarkerSchema = z.strictObject({
  kind: z.enum(["human", "ai", "system", "tool", "generic"]),
  /** The message's fields without `content` and without the tool calls' `args`. */
  fields: Json,
  /** "string": the content was a string (the chat content's text); else its blocks in order. */
  content: z.union([z.literal("string"), z.array(BlockSlotSchema)]),
  calls: z.array(CallSchema).optional(),
});

export type LangChainMarker = z.infer<typeof LangChainMarkerSchema>;
export type BlockSlot = z.infer<typeof BlockSlotSchema>;
