/**
 * The `ai_sdk` field a converted chat message carries: everything of the AI SDK message its OpenAI fields
 * do not show (part order, provider options, tool names, media kinds, parts with no OpenAI equivalent),
 * with the shown values left out. Reading a chat message back fills those values in from the OpenAI
 * fields, so what an engine changed there (a pruned tool output, a summary put in front) is what the
 * model gets. JSON only: a marked message survives `JSON.stringify` (engines such as lcm store messages).
 */
import { z } from "@context-engine/core";

/** The chat-message field holding the marker. */
export const AI_SDK_MARKER = "ai_sdk";

const Json = z.record(z.string(), z.unknown());
const MediaKindSchema = z.enum(["string", "url", "uint8array", "buffer", "arraybuffer"]);

/** Media data kept inside a marker (a part with no OpenAI equivalent, e.g. a file the assistant made). */
const KeptMediaSchema = z.strictObject({ field: z.enum(["image", "data"]), kind: MediaKindSchema, text: z.string() });

/** A part the OpenAI fields do not show, kept whole. */
const HiddenSlotSchema = z.strictObject({ slot: z.literal("hidden"), part: Json, media: KeptMediaSchema.optional() });

/** A user part shown one to one as an OpenAI content part (its text or media data left out here). */
const ContentSlotSchema = z.strictObject({
  slot: z.literal("content"),
  part: Json,
  media: z.strictObject({ field: z.enum(["image", "data"]), kind: MediaKindSchema, wrapped: z.boolean() }).optional(),
});

/** An assistant text or reasoning part; `text` is kept only when several parts share the one OpenAI field. */
const TextSlotSchema = z.strictObject({ slot: z.enum(["text", "reasoning"]), part: Json, text: z.string().optional() });

/** How a tool call's `input` is read back from `arguments` ("kept": the part keeps its input). */
const CallReadingSchema = z.enum(["json", "text", "absent", "null", "kept"]);

/** An assistant tool call shown in `tool_calls`; `input` says how `arguments` is read back. */
const CallSlotSchema = z.strictObject({ slot: z.literal("call"), part: Json, input: CallReadingSchema });

const SlotSchema = z.discriminatedUnion("slot", [HiddenSlotSchema, ContentSlotSchema, TextSlotSchema, CallSlotSchema]);

/** A whole AI SDK message with no OpenAI equivalent (a tool message of approvals only), carried by a neighbour. */
const CarriedSchema = z.strictObject({ role: z.enum(["system", "user", "assistant", "tool"]), providerOptions: Json.optional(), parts: z.array(HiddenSlotSchema) });

/** One `tool-result` of a tool message (`index` of `count`), with the tool message's other parts around it. */
const ToolSlotSchema = z.strictObject({
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  /** The `tool-result` part without its output, or whole when `value` is "kept". */
  part: Json,
  /** The output without its value (absent when `value` is "kept"). */
  output: Json.optional(),
  /** How the output's `value` is read back from the content: as text, as JSON, or kept whole in `part`. */
  value: z.enum(["text", "json", "kept"]),
  lead: z.array(HiddenSlotSchema),
  trail: z.array(HiddenSlotSchema),
});

/** The marker of one converted chat message. */
export const AiSdkMarkerSchema = z.strictObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  providerOptions: Json.optional(),
  /** The parts of array content, in order (absent for string content). */
  parts: z.array(SlotSchema).optional(),
  tool: ToolSlotSchema.optional(),
  before: z.array(CarriedSchema).optional(),
  after: z.array(CarriedSchema).optional(),
});

export type AiSdkMarker = z.infer<typeof AiSdkMarkerSchema>;
export type Slot = z.infer<typeof SlotSchema>;
export type HiddenSlot = z.infer<typeof HiddenSlotSchema>;
export type ToolSlot = z.infer<typeof ToolSlotSchema>;
export type CarriedMessage = z.infer<typeof CarriedSchema>;
export type KeptMedia = z.infer<typeof KeptMediaSchema>;
export type CallReading = z.infer<typeof CallReadingSchema>;
