/**
 * Anthropic prompt caching, strategy `system_and_3` (docs/BEHAVIOUR.md, "Prompt caching"): breakpoint 1 on the system prompt, the
 * rest on the last non-system messages that can carry a marker. Where a marker goes depends on the
 * content shape and on whether the request goes to Anthropic natively or through an envelope such as
 * OpenRouter (the content-shape table of docs/BEHAVIOUR.md, "Prompt caching"). Copy-on-write: the input is never mutated.
 */
import type { ChatMessage, ContentPart } from "../messages/schema.js";
import { assertCacheTtl, cacheControlMarker, MAX_CACHE_BREAKPOINTS } from "../providers/anthropicFacts.js";
import type { CacheControlMarker, CacheTtl } from "../providers/anthropicFacts.js";

/** Options of {@link applyAnthropicCacheControl}. */
export interface AnthropicCacheControlOptions {
  /** Marker lifetime; default "5m". */
  ttl?: CacheTtl;
  /** True when the request goes to the Anthropic API directly (the adapter turns top-level markers into block markers). */
  nativeAnthropic?: boolean;
}

/** Where a marker can go on one message: on the message itself, in its content, or nowhere. */
export type MarkerPlacement = "top-level" | "wrap-string" | "last-part" | "none";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * How a marker would be carried by `message` (the content-shape table of docs/BEHAVIOUR.md, "Prompt caching"). "none" means the
 * message cannot carry one, so it does not use up a breakpoint.
 */
export function markerPlacement(message: ChatMessage, nativeAnthropic: boolean): MarkerPlacement {
  const content: unknown = message.content;
  const isEmpty = content === null || content === undefined || content === "";
  if (message.role === "tool") {
    if (nativeAnthropic) return "top-level";
    if (isEmpty) return "none";
  } else if (isEmpty && message.role === "system") {
    // Anthropic's `system` holds no block for an empty prompt, so the marker would be lost on the wire.
    return "none";
  } else if (isEmpty) {
    return nativeAnthropic ? "top-level" : "none";
  }
  if (typeof content === "string") return "wrap-string";
  if (Array.isArray(content)) {
    if (content.length === 0) return "none";
    return isPlainObject(content[content.length - 1]) ? "last-part" : "none";
  }
  return "none";
}

function withMarker(message: ChatMessage, placement: MarkerPlacement, marker: CacheControlMarker): ChatMessage {
  switch (placement) {
    case "top-level":
      return { ...message, cache_control: marker };
    case "wrap-string":
      return { ...message, content: [{ type: "text", text: message.content as string, cache_control: marker }] };
    case "last-part": {
      const parts = message.content as ContentPart[];
      const last = parts[parts.length - 1] as ContentPart;
      return { ...message, content: [...parts.slice(0, -1), { ...last, cache_control: marker }] };
    }
    case "none":
      return message;
  }
}

function stripMessage(message: ChatMessage): ChatMessage {
  let out = message;
  if ("cache_control" in message) {
    const { cache_control: _dropped, ...rest } = message;
    out = rest as ChatMessage;
  }
  if (Array.isArray(message.content) && message.content.some((p) => isPlainObject(p) && "cache_control" in p)) {
    const parts = message.content.map((p) => {
      if (!isPlainObject(p) || !("cache_control" in p)) return p;
      const { cache_control: _dropped, ...rest } = p;
      return rest as ContentPart;
    });
    out = { ...out, content: parts };
  }
  return out;
}

/**
 * Removes every `cache_control` marker (top-level and inside content parts). Messages without a marker
 * are returned as they are; the others are shallow copies. The input is never mutated.
 */
export function stripCacheControl(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map(stripMessage);
}

/** Counts the `cache_control` markers of a conversation (top-level and in content parts). */
export function countCacheBreakpoints(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (isPlainObject(message.cache_control)) count += 1;
    if (Array.isArray(message.content)) {
      for (const part of message.content) if (isPlainObject(part) && isPlainObject(part.cache_control)) count += 1;
    }
  }
  return count;
}

/**
 * Applies `system_and_3`: existing markers are stripped first (idempotent), then the system prompt
 * (`messages[0]` when it is a non-empty system message) gets breakpoint 1 and the last non-system messages that
 * can carry a marker get the remaining ones, never more than 4 in all. Without a system prompt the
 * rolling window takes all 4. The input is never mutated; unchanged messages are shared.
 */
export function applyAnthropicCacheControl(messages: readonly ChatMessage[], options: AnthropicCacheControlOptions = {}): ChatMessage[] {
  const ttl = options.ttl ?? "5m";
  assertCacheTtl(ttl, "applyAnthropicCacheControl: options.ttl");
  const native = options.nativeAnthropic ?? false;
  const out = stripCacheControl(messages);
  let remaining = MAX_CACHE_BREAKPOINTS;

  const first = out[0];
  if (first !== undefined && first.role === "system") {
    const placement = markerPlacement(first, native);
    if (placement !== "none") {
      out[0] = withMarker(first, placement, cacheControlMarker(ttl));
      remaining -= 1;
    }
  }
  for (let i = out.length - 1; i >= 0 && remaining > 0; i -= 1) {
    const message = out[i] as ChatMessage;
    if (message.role === "system") continue;
    const placement = markerPlacement(message, native);
    if (placement === "none") continue;
    out[i] = withMarker(message, placement, cacheControlMarker(ttl));
    remaining -= 1;
  }
  return out;
}
