/**
 * Content fingerprints of messages as the provider's prefix cache sees them: `cache_control` markers
 * do not change the cached content, and string content equals a single text part on the wire.
 */
import { createHash } from "node:crypto";
import type { ChatMessage } from "../messages/schema.js";
import { canonicalJson } from "../messages/canonicalJson.js";

const memo = new WeakMap<object, string>();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withoutMarker(value: unknown): unknown {
  if (!isPlainObject(value) || !("cache_control" in value)) return value;
  const { cache_control: _dropped, ...rest } = value;
  return rest;
}

/** Content as the wire sees it: null/"" → [], a string → one text part, markers removed from parts. */
function normalizedContent(content: unknown): unknown {
  if (content === null || content === undefined || content === "") return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? { type: "text", text: part } : withoutMarker(part)));
  return content;
}

/**
 * A sha256 fingerprint of one message's cacheable content (every field except `cache_control`, with
 * content normalized). Memoized per message object.
 */
export function messageFingerprint(message: ChatMessage): string {
  const known = memo.get(message);
  if (known !== undefined) return known;
  const normalized = { ...(withoutMarker(message) as Record<string, unknown>), content: normalizedContent(message.content) };
  const fingerprint = createHash("sha256").update(canonicalJson(normalized)).digest("hex");
  memo.set(message, fingerprint);
  return fingerprint;
}
