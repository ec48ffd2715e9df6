/**
 * What the host holds: the identities (and token counts) of the conversation it was last known to hold,
 * with the messages they were computed from. A gateway hands the engine freshly parsed copies of the
 * same messages every turn; each incoming message equal to the held one at its position takes that
 * one's identity and count, so only new messages are hashed and counted.
 */
import type { ChatMessage, TokenCounter } from "./core.js";
import { messageIdentity } from "./messageText.js";

/**
 * What the host was last known to hold, and whether that reaches the last stored message. Its arrays
 * are the engine's own: a turn that only adds to them grows them in place (heldExtension.ts).
 */
export interface HeldSequence {
  ids: Buffer[];
  complete: boolean;
  /** The messages `ids` were computed from (same positions), when known. */
  messages?: ChatMessage[] | undefined;
  /** Their token counts (same positions), when known. */
  tokens?: number[] | undefined;
  /** When complete: the last stored seq it reaches (another engine on the same store may append after it). */
  lastSeq?: number | undefined;
  /** The conversation as the host holds it, lcm's artifacts in place, when known (heldExtension.ts checks a turn against it). */
  conversation?: HeldConversation | undefined;
}

/** The conversation a host holds as it will send it back (after the system prompt), by its ends. */
export interface HeldConversation {
  /** Its messages, lcm's artifacts included (the engine's own array, not the host's). */
  messages: ChatMessage[];
  /** lcm's artifacts in it (its summary block, stub results): not stored, counted apart. */
  artifacts: ChatMessage[];
  /** The tokens of its stored messages (the sum of the sequence's `tokens`). */
  tokens: number;
}

/**
 * True when `a` and `b` have the same key-sorted JSON (what {@link messageIdentity} hashes): same values,
 * same keys with defined values, whatever their order. May say false for some equal values (a NaN, an
 * undefined array element); callers then hash, which is slower but still right.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // for-in allocates no key arrays; messages are plain objects (their prototype adds no enumerable keys)
  let defined = 0;
  for (const key in x) {
    const value = x[key];
    if (value === undefined) continue;
    defined++;
    if (!sameJson(value, y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) defined--;
  return defined === 0;
}

/**
 * Identities and token counts of `items`, reusing those of `previous` where the message at a position is
 * unchanged (`reused[i]`: such a message equals one the engine already had, so it was validated then).
 */
export function identify(items: readonly ChatMessage[], previous: HeldSequence | undefined, counter: TokenCounter): { ids: Buffer[]; tokens: number[]; reused: boolean[] } {
  const ids: Buffer[] = new Array<Buffer>(items.length);
  const tokens: number[] = new Array<number>(items.length);
  const reused: boolean[] = new Array<boolean>(items.length).fill(false);
  const known = previous?.messages && previous.tokens ? previous : undefined;
  for (let i = 0; i < items.length; i++) {
    const message = items[i]!;
    if (known && i < known.messages!.length && sameJson(message, known.messages![i])) {
      ids[i] = known.ids[i]!;
      tokens[i] = known.tokens![i]!;
      reused[i] = true;
    } else {
      ids[i] = messageIdentity(message);
      tokens[i] = counter.countMessages([message]);
    }
  }
  return { ids, tokens, reused };
}

/**
 * The held sequence of `items` (the stored messages of `conversation`, whose other messages are lcm's
 * `artifacts`) with their identities and counts; `lastSeq` the last stored seq it reaches, when complete.
 */
export function heldSequence(
  conversation: ChatMessage[],
  artifacts: ChatMessage[],
  items: ChatMessage[],
  ids: Buffer[],
  tokens: number[],
  complete: boolean,
  lastSeq?: number,
): HeldSequence {
  let total = 0;
  for (const n of tokens) total += n;
  return { ids, complete, messages: items, tokens, lastSeq, conversation: { messages: conversation, artifacts, tokens: total } };
}
