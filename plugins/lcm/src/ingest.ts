/**
 * Ingest: store what is new in an incoming conversation, by identity and idempotently. Hosts send either
 * the whole history, or lcm's last output (summary block + tail) plus new turns, or only new turns; the
 * incoming list is aligned against those known sequences, so re-sending an overlapping list adds nothing
 * while a message repeated later in the conversation is still stored.
 */
import { countingIdOf, type Awaitable, type ChatMessage, type TokenCounter } from "./core.js";
export type { HeldSequence } from "./held.js";
import { isLcmArtifact } from "./assemble.js";
import { heldSequence, identify, type HeldSequence } from "./held.js";
import { extendHeld, heldPrefixLength } from "./heldExtension.js";
import type { StoredMessage } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** Longest overlap looked for when the incoming list starts at none of the known sequences. */
export const MAX_FALLBACK_OVERLAP = 4_096;

/** A sequence of identities the host may be holding: loaded lazily, with its first element for a cheap test. */
export interface KnownSequence {
  first: Buffer | undefined;
  load: () => Awaitable<readonly Buffer[]>;
  /** True when the sequence reaches the last stored message (so whatever follows it is new). */
  complete: boolean;
}

/** How an incoming list lines up with the store. */
export interface Alignment {
  /** Leading incoming items that are already stored. */
  skip: number;
  /** True when the incoming list reaches the last stored message. */
  reachesEnd: boolean;
}

/**
 * How many leading items of `incoming` are already stored. Tries each known sequence in order: the first
 * whose elements agree with the incoming list's head (over their common length) wins, provided it reaches
 * the store's end or the incoming list stops within it. Otherwise the longest suffix of `storedTail` (the
 * last stored identities) that equals a prefix of `incoming`; no overlap means everything is new.
 */
export async function alignIncoming(incoming: readonly Buffer[], known: readonly KnownSequence[], storedTail: () => Awaitable<readonly Buffer[]>): Promise<Alignment> {
  if (incoming.length === 0) return { skip: 0, reachesEnd: false };
  for (const candidate of known) {
    if (!candidate.first || !candidate.first.equals(incoming[0]!)) continue;
    const seq = await candidate.load();
    const common = Math.min(seq.length, incoming.length);
    let ok = true;
    for (let i = 0; i < common && ok; i++) ok = seq[i]!.equals(incoming[i]!);
    if (!ok) continue;
    const reachesEnd = candidate.complete && incoming.length >= seq.length;
    // a sequence that stops short of the store's end says nothing about what follows it
    if (!candidate.complete && incoming.length > seq.length) continue;
    return { skip: common, reachesEnd };
  }
  const tail = await storedTail();
  for (let k = Math.min(tail.length, incoming.length); k > 0; k--) {
    const start = tail.length - k;
    if (!tail[start]!.equals(incoming[0]!)) continue;
    let ok = true;
    for (let i = 1; i < k && ok; i++) ok = tail[start + i]!.equals(incoming[i]!);
    if (ok) return { skip: k, reachesEnd: true };
  }
  return { skip: 0, reachesEnd: true };
}

/** What one ingest did. */
export interface IngestResult {
  /** The messages newly stored. */
  stored: StoredMessage[];
  /** Identities of the incoming conversation without lcm's artifacts: what the host now holds. */
  held: HeldSequence;
  /** Tokens of the incoming conversation without lcm's artifacts (stored counts where known). */
  tokens: number;
  /** lcm's own artifacts in the incoming conversation (its summary block, stub results): not stored, not in `tokens`. */
  artifacts: readonly ChatMessage[];
}

/** Per position of a conversation: true where item `j` (at `at[j]`) matched a held one (`reused[j]`); lcm's artifacts are never trusted. */
function trustedPositions(at: readonly number[], reused: readonly boolean[]): (position: number) => boolean {
  const trusted = new Set<number>();
  for (let j = 0; j < at.length; j++) if (reused[j]) trusted.add(at[j]!);
  return (position) => trusted.has(position);
}

/**
 * Checks the messages of a conversation before anything is stored: the positions before `from` are
 * known to be valid (the conversation the host held, validated when it came), and of the others those
 * `trusted` says equal held ones; throws to refuse the list.
 */
export type ValidateConversation = (from: number, trusted: (position: number) => boolean) => void;

/** `conversation`'s messages without lcm's own artifacts (its summary block, stub results), and those artifacts. */
function withoutArtifacts(conversation: readonly ChatMessage[]): { items: ChatMessage[]; at: number[]; artifacts: ChatMessage[] } {
  const items: ChatMessage[] = [];
  const at: number[] = [];
  const artifacts: ChatMessage[] = [];
  for (let i = 0; i < conversation.length; i++) {
    if (isLcmArtifact(conversation[i]!)) {
      artifacts.push(conversation[i]!);
      continue;
    }
    items.push(conversation[i]!);
    at.push(i);
  }
  return { items, at, artifacts };
}

/**
 * Stores the new part of the conversation `messages[from…]` (the messages after the system prompt) in
 * `session`. lcm's own artifacts (its summary block, stub tool results) are never stored. `lastHeld` is
 * what the host was last known to hold (lcm's previous output, or the previous input), when known;
 * `previous` the same when already in memory, so messages equal to its own take their identities and
 * counts without hashing, and a conversation that only adds to it is taken as it is (heldExtension.ts:
 * its held part neither walked nor hashed). `validate` is called before anything is stored.
 */
export async function ingestConversation(
  store: LcmStoreAsync,
  session: string,
  messages: readonly ChatMessage[],
  from: number,
  counter: TokenCounter,
  lastHeld: () => Awaitable<HeldSequence>,
  now: number,
  previous?: HeldSequence,
  validate?: ValidateConversation,
): Promise<IngestResult> {
  const lastSeq = await store.lastSeq(session);
  const heldLength = previous === undefined ? undefined : heldPrefixLength(messages, from, previous, lastSeq);
  if (heldLength !== undefined) {
    const added = await ingestAddition(store, session, messages.slice(from + heldLength), heldLength, counter, now, previous!, lastSeq, validate);
    if (added !== undefined) return added;
  }
  return ingestAligned(store, session, messages.slice(from), counter, lastHeld, now, lastSeq, previous, validate);
}

/**
 * The turn after the conversation the host held (`previous`, whose first `heldLength` messages it
 * repeats): only `addition` is read. Its leading messages that another worker stored since `previous`
 * was held are taken as stored; undefined when they differ from those (the full alignment decides).
 */
async function ingestAddition(
  store: LcmStoreAsync,
  session: string,
  addition: ChatMessage[],
  heldLength: number,
  counter: TokenCounter,
  now: number,
  previous: HeldSequence,
  lastSeq: number,
  validate: ValidateConversation | undefined,
): Promise<IngestResult | undefined> {
  const { items, artifacts } = withoutArtifacts(addition);
  validate?.(heldLength, () => false);
  const { ids, tokens } = identify(items, undefined, counter);
  // turns other workers stored after what this engine saw the host hold: the host sent them to those workers
  const behind = lastSeq - previous.lastSeq!;
  const common = Math.min(behind, items.length);
  if (behind > 0) {
    const appended = await store.identitiesFrom(session, previous.lastSeq! + 1);
    for (let i = 0; i < common; i++) if (!appended[i]!.equals(ids[i]!)) return undefined;
  }
  const tokensBy = countingIdOf(counter);
  const fresh = items.slice(common).map((message, i) => ({ message, tokens: tokens[common + i]!, identity: ids[common + i]!, tokensBy }));
  const stored = await store.appendMessages(session, fresh, now);
  const reached = stored.length > 0 ? stored[stored.length - 1]!.seq : lastSeq;
  const held = extendHeld(previous, { conversation: addition, artifacts, items, ids, tokens }, fresh.length > 0 || common === behind, reached);
  return { stored, held, tokens: held.conversation!.tokens, artifacts: [...held.conversation!.artifacts] };
}

/** Stores what is new in `conversation` by aligning it against the sequences the host may hold (see {@link alignIncoming}). */
async function ingestAligned(
  store: LcmStoreAsync,
  session: string,
  conversation: ChatMessage[],
  counter: TokenCounter,
  lastHeld: () => Awaitable<HeldSequence>,
  now: number,
  lastSeq: number,
  previous: HeldSequence | undefined,
  validate: ValidateConversation | undefined,
): Promise<IngestResult> {
  // `at[i]` is item i's position in `conversation`
  const { items, at, artifacts } = withoutArtifacts(conversation);
  const { ids: held, tokens, reused } = identify(items, previous, counter);
  // before anything is stored: the messages not equal to held ones (validated when they first came) are checked
  validate?.(0, trustedPositions(at, reused));
  let alignment: Alignment = { skip: 0, reachesEnd: true };
  if (lastSeq > 0) {
    const [last, firstStored] = await Promise.all([lastHeld(), store.identityAt(session, 1)]);
    const known: KnownSequence[] = [await heldAsKnown(store, session, last, lastSeq), { first: firstStored, load: () => store.identitiesFrom(session, 1), complete: true }];
    const window = Math.min(lastSeq, items.length, MAX_FALLBACK_OVERLAP);
    alignment = await alignIncoming(held, known, () => store.identitiesFrom(session, lastSeq - window + 1));
  }
  const skip = alignment.skip;
  const tokensBy = countingIdOf(counter);
  const fresh = items.slice(skip).map((message, i) => ({ message, tokens: tokens[skip + i]!, identity: held[skip + i]!, tokensBy }));
  const stored = await store.appendMessages(session, fresh, now);
  const reached = stored.length > 0 ? stored[stored.length - 1]!.seq : lastSeq;
  const sequence = heldSequence(conversation, artifacts, items, held, tokens, fresh.length > 0 || alignment.reachesEnd, reached);
  return { stored, held: sequence, tokens: sequence.conversation!.tokens, artifacts };
}

/**
 * What the host holds as a known sequence. When another engine on the same store appended to the session
 * after the sequence reached its end (`last.lastSeq` below `lastSeq`), the host holds what it held and,
 * after it, what was appended (it sent those turns to the other engine).
 */
async function heldAsKnown(store: LcmStoreAsync, session: string, last: HeldSequence, lastSeq: number): Promise<KnownSequence> {
  const reached = last.lastSeq;
  if (!last.complete || reached === undefined || reached >= lastSeq) return { first: last.ids[0], load: () => last.ids, complete: last.complete };
  const first = last.ids[0] ?? (await store.identityAt(session, reached + 1));
  return { first, load: async () => [...last.ids, ...(await store.identitiesFrom(session, reached + 1))], complete: true };
}
