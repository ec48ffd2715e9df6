/**
 * LangChain content blocks ⇄ OpenAI content parts: text blocks, `image_url` blocks and the standard
 * `image` / `file` / `audio` blocks (by `url` or base64 `data`) are shown as parts, and those by a
 * provider's file id (`fileId`, or v0's `source_type: "id"`) as a `file` part with that `file_id`, so an
 * engine sees that the turn carries them; anything else (reasoning, tool_use, provider blocks) is kept
 * whole in the marker.
 */
import type { ContentPart } from "@context-engine/core";
import type { BlockSlot } from "./marker.js";

type Block = Record<string, unknown>;

function isRecord(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function without(record: Block, key: string): Block {
  const { [key]: _left, ...rest } = record;
  return rest;
}

const DATA_URL = /^data:[^,]*;base64,/i;

/** The media type a standard block names (`mimeType`, or v0's `mime_type`). */
function mimeOf(block: Block, fallback: string): string {
  const type = block.mimeType ?? block.mime_type;
  return typeof type === "string" && type !== "" ? type : fallback;
}

/** A media part of `kind` for `url`. */
function mediaPart(kind: "image" | "file", url: string, block: Block): ContentPart {
  if (kind === "image") return { type: "image_url", image_url: { url } };
  return { type: "file", file: { file_data: url, ...(typeof block.filename === "string" ? { filename: block.filename } : {}) } };
}

/** How one block is shown (an OpenAI part, or none) and its slot. */
export function showBlock(raw: unknown): { part?: ContentPart; slot: BlockSlot } {
  if (!isRecord(raw)) return { slot: { slot: "hidden", block: raw } };
  const block = raw;
  if (block.type === "text" && typeof block.text === "string") return { part: { type: "text", text: block.text }, slot: { slot: "text", block: without(block, "text") } };
  if (block.type === "image_url") {
    const value = block.image_url;
    if (typeof value === "string") return { part: { type: "image_url", image_url: { url: value } }, slot: { slot: "media", block: without(block, "image_url"), field: "image_url", wrapped: false } };
    if (isRecord(value) && typeof value.url === "string") {
      return { part: { type: "image_url", image_url: { url: value.url } }, slot: { slot: "media", block: { ...block, image_url: without(value, "url") }, field: "image_url.url", wrapped: false } };
    }
  }
  if (block.type === "image" || block.type === "file" || block.type === "audio") {
    const kind = block.type === "image" ? "image" : "file";
    if (typeof block.url === "string") return { part: mediaPart(kind, block.url, block), slot: { slot: "media", block: without(block, "url"), field: "url", wrapped: false } };
    if (typeof block.data === "string") {
      const url = `data:${mimeOf(block, kind === "image" ? "image/png" : "application/octet-stream")};base64,${block.data}`;
      return { part: mediaPart(kind, url, block), slot: { slot: "media", block: without(block, "data"), field: "data", wrapped: true } };
    }
    const idField = typeof block.fileId === "string" ? "fileId" : block.source_type === "id" && typeof block.id === "string" ? "id" : undefined;
    if (idField !== undefined) return { part: { type: "file", file: { file_id: block[idField] as string } }, slot: { slot: "media", block: without(block, idField), field: idField, wrapped: false } };
  }
  return { slot: { slot: "hidden", block } };
}

type MediaSlot = Extract<BlockSlot, { slot: "media" }>;

/** What an OpenAI media part shows for a block's `field`: its URL (or data URL), or its provider file id. */
function partValue(part: ContentPart, field: MediaSlot["field"]): string | undefined {
  const p = part as Block;
  const file = part.type === "file" ? (p.file as Block | undefined) : undefined;
  const value = field === "fileId" || field === "id" ? file?.file_id : part.type === "image_url" ? (p.image_url as Block | undefined)?.url : file?.file_data;
  return typeof value === "string" ? value : undefined;
}

/** Is `part` the OpenAI part `slot` was shown as? */
export function fitsSlot(slot: BlockSlot, part: ContentPart): boolean {
  if (slot.slot === "text") return part.type === "text" && typeof (part as Block).text === "string";
  if (slot.slot !== "media") return false;
  const block = slot.block as Block;
  const byId = slot.field === "fileId" || slot.field === "id";
  const expected = byId || block.type === "file" || block.type === "audio" ? "file" : "image_url";
  return part.type === expected && partValue(part, slot.field) !== undefined;
}

/** The block of `slot` filled from the part it is shown as now ({@link fitsSlot} holds). */
export function fillSlot(slot: Extract<BlockSlot, { slot: "text" | "media" }>, part: ContentPart): Block {
  if (slot.slot === "text") return { ...slot.block, text: (part as Block).text };
  const shown = partValue(part, slot.field)!;
  const value = slot.wrapped ? shown.replace(DATA_URL, "") : shown;
  if (slot.field === "image_url.url") return { ...slot.block, image_url: { ...(slot.block.image_url as Block), url: value } };
  return { ...slot.block, [slot.field]: value };
}
