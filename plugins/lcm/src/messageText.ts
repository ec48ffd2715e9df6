/** Pure helpers on single messages: identity, the public ids of stored records, and snippets. */
import { createHash } from "node:crypto";
import type { ChatMessage } from "./core.js";

// Message text comes from core, so lcm indexes what the compressor and the session store see.
export { contentText } from "./core.js";
import { canonicalJson, searchableText as coreSearchableText } from "./core.js";
import { imagesAsMarkers } from "./imageText.js";

/**
 * Everything searchable in a message, as lcm indexes, searches and summarizes it: core's readable text
 * (content, then each tool call as `name(arguments)`; image parts as `[image]`) with images written into
 * the text (base64 data URLs, bare base64 image files) as `[image]` too, so no payload is indexed as words.
 */
export function searchableText(message: ChatMessage): string {
  return imagesAsMarkers(coreSearchableText(message));
}

/** A message's text verbatim, image payloads included (core's searchable text): what lcm_expand pages through. */
export { coreSearchableText as verbatimText };

/** A message's identity: the first 16 bytes of SHA-256 over its key-sorted JSON (role, content, tool fields, extras). */
export function messageIdentity(message: ChatMessage): Buffer {
  return createHash("sha256").update(canonicalJson(message)).digest().subarray(0, 16);
}

/** Public id of a stored message. */
export function messageId(rowId: number): string {
  return `msg_${rowId}`;
}

/** The row id inside a public message id, or undefined when `id` is not one. */
export function parseMessageId(id: string): number | undefined {
  const match = /^msg_(\d{1,15})$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** Deterministic summary id from its kind, depth, sources and body. */
export function summaryId(kind: string, depth: number, sourceIds: readonly string[], body: string): string {
  const hash = createHash("sha256").update(`${kind}\n${depth}\n${sourceIds.join(",")}\n${body}`).digest("hex");
  return `sum_${hash.slice(0, 16)}`;
}

/** True when `id` has the shape of a summary id. */
export function isSummaryId(id: string): boolean {
  return /^sum_[0-9a-f]{16}$/.test(id);
}

/** A short excerpt of `text` around the first occurrence of any of `terms` (case-insensitive). */
export function snippetAround(text: string, terms: readonly string[], radius = 80): string {
  const lower = text.toLowerCase();
  let at = -1;
  let length = 0;
  for (const term of terms) {
    if (!term) continue;
    const i = lower.indexOf(term.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) {
      at = i;
      length = term.length;
    }
  }
  return snippetAt(text, at < 0 ? 0 : at, length, radius);
}

/** A short excerpt of `text` around position `at`, with ellipses where it was cut. */
export function snippetAt(text: string, at: number, length: number, radius = 80): string {
  const start = Math.max(0, at - radius);
  const end = Math.min(text.length, at + length + radius);
  const body = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}
