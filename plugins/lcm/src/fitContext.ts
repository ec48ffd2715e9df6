/**
 * An assembled context that would cross the overflow line (the window less the output reserve;
 * docs/BEHAVIOUR.md, "No request over the window") keeps more tool outputs out of it: the externalizing
 * size is halved until the context fits or a preview would be no smaller than the output. Lossless —
 * every output stays stored whole, and its preview names the id `lcm_expand` reads it back by. Pure.
 */
import { assembleContext, type AssembleOptions, type LoadedItem } from "./assemble.js";
import type { ChatMessage } from "./core.js";
import { PREVIEW_TOKENS } from "./externalize.js";

/** Below this many tokens an output is not worth a preview (which shows about {@link PREVIEW_TOKENS} of it and a header). */
export const MIN_FIT_EXTERNALIZE_TOKENS = 2 * PREVIEW_TOKENS;

/**
 * `assembleContext(system, items, options)`, with tool outputs above ever smaller sizes externalized
 * while the context is over `limitTokens` (undefined or 0: no limit). Stored messages count by their
 * stored counts; `countMessage` counts the rest (the system prompt, summary blocks, previews).
 */
export function assembleWithin(system: readonly ChatMessage[], items: readonly LoadedItem[], options: AssembleOptions, limitTokens: number | undefined, countMessage: (message: ChatMessage) => number): ChatMessage[] {
  let output = assembleContext(system, items, options);
  if (limitTokens === undefined || limitTokens <= 0) return output;
  const stored = new Map<ChatMessage, number>();
  for (const item of items) if (item.type === "message") stored.set(item.stored.message, item.stored.tokens);
  const count = (messages: readonly ChatMessage[]) => messages.reduce((sum, m) => sum + (stored.get(m) ?? countMessage(m)), 0);
  const largest = Math.max(0, ...items.map((item) => (item.type === "message" && item.stored.role === "tool" ? item.stored.tokens : 0)));
  let above = options.externalizeAboveTokens !== undefined && options.externalizeAboveTokens > 0 ? Math.min(options.externalizeAboveTokens, largest) : largest;
  while (above > MIN_FIT_EXTERNALIZE_TOKENS && count(output) > limitTokens) {
    above = Math.max(MIN_FIT_EXTERNALIZE_TOKENS, Math.floor(above / 2));
    output = assembleContext(system, items, { ...options, externalizeAboveTokens: above });
  }
  return output;
}
