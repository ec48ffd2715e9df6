/**
 * A turn that only adds to what the host holds (held.ts): a host that re-sends its whole conversation
 * every turn sends the one it held, as it held it, with new turns after it. Such a turn is recognised
 * without walking the conversation (a walk over 100,000 freshly parsed messages costs tens of
 * milliseconds): the stored seq must be where the held sequence left it (or a few turns further, when
 * another worker appended), the incoming list at least as long, and its messages at a fixed number of
 * positions equal to the held ones — all of them for a short conversation; for a long one its first
 * and last messages and a spread between. Anything else (a rewound, trimmed or edited history, a host
 * that sends only new turns) goes to the full alignment (ingest.ts). The held arrays are the engine's
 * own, so the new turns are appended to them in place.
 */
import type { ChatMessage } from "./core.js";
import { sameJson, type HeldSequence } from "./held.js";

/** Messages compared, at most, to recognise a turn that only adds to what the host holds. */
export const CHECKED_POSITIONS = 32;
/** Of those, the first and the last this many are compared in any case. */
const CHECKED_ENDS = 8;
/** Most stored turns another worker may have appended since this engine's last view for the turn to still count as adding to it. */
export const MAX_TURNS_BEHIND = 4_096;

/** The positions of a held conversation of `length` messages an extension of it is checked at. */
export function checkedPositions(length: number): number[] {
  if (length <= CHECKED_POSITIONS) return Array.from({ length }, (_, i) => i);
  const positions = new Set<number>();
  for (let i = 0; i < CHECKED_ENDS; i++) positions.add(i).add(length - 1 - i);
  const between = CHECKED_POSITIONS - 2 * CHECKED_ENDS;
  const step = (length - 2 * CHECKED_ENDS) / (between + 1);
  for (let k = 1; k <= between; k++) positions.add(CHECKED_ENDS + Math.floor(k * step));
  return [...positions].sort((a, b) => a - b);
}

/**
 * How many leading messages of `messages[from…]` (the conversation after the system prompt) are the
 * conversation `held` records, when the list only adds to it and the store (last seq `lastSeq`) is at or
 * a few turns past where it left it; undefined when the full alignment must decide.
 */
export function heldPrefixLength(messages: readonly ChatMessage[], from: number, held: HeldSequence, lastSeq: number): number | undefined {
  const conversation = held.conversation?.messages;
  if (conversation === undefined || held.messages === undefined || held.tokens === undefined || !held.complete || held.lastSeq === undefined) return undefined;
  if (lastSeq < held.lastSeq || lastSeq - held.lastSeq > MAX_TURNS_BEHIND) return undefined;
  const length = conversation.length;
  if (messages.length - from < length) return undefined;
  for (const i of checkedPositions(length)) {
    const incoming = messages[from + i];
    if (incoming !== conversation[i] && !sameJson(incoming, conversation[i])) return undefined;
  }
  return length;
}

/** The turn after the held conversation: its messages, and lcm's artifacts among them. */
export interface HeldAddition {
  /** The new messages of the conversation, in order (artifacts included). */
  conversation: readonly ChatMessage[];
  artifacts: readonly ChatMessage[];
  /** The new messages to store or take as stored (the conversation's without the artifacts). */
  items: readonly ChatMessage[];
  ids: readonly Buffer[];
  tokens: readonly number[];
}

/**
 * `held` with `addition` appended in place (its arrays are the engine's own), reaching `lastSeq` when
 * `complete`: what the host holds once it has sent the turn.
 */
export function extendHeld(held: HeldSequence, addition: HeldAddition, complete: boolean, lastSeq: number): HeldSequence {
  const conversation = held.conversation!;
  const [messages, tokens] = [held.messages!, held.tokens!];
  let added = 0;
  for (let i = 0; i < addition.items.length; i++) {
    held.ids.push(addition.ids[i]!);
    messages.push(addition.items[i]!);
    tokens.push(addition.tokens[i]!);
    added += addition.tokens[i]!;
  }
  for (const message of addition.conversation) conversation.messages.push(message);
  for (const artifact of addition.artifacts) conversation.artifacts.push(artifact);
  return { ids: held.ids, complete, messages, tokens, lastSeq, conversation: { ...conversation, tokens: conversation.tokens + added } };
}
