/**
 * Per session, what the host holds (held.ts), kept between an engine's calls: a host's message list is
 * checked and stored against it (ingest.ts), and an assembled context handed to the host replaces it
 * (heldContext.ts).
 */
import { InvalidMessagesError, parseMessages, type ChatMessage, type MessageIssue, type TokenCounter } from "./core.js";
import { systemPromptLength, type AssembleOptions } from "./assemble.js";
import type { HeldSequence } from "./held.js";
import { assembleHeldContext } from "./heldContext.js";
import { ingestConversation, type IngestResult } from "./ingest.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** What the host holds of each session, and the ingest and assembly that change it. */
export class HeldConversations {
  /** Per session: identities of the conversation the host was last known to hold. */
  private readonly held = new Map<string, HeldSequence>();

  /**
   * @param counter counts the tokens of messages
   * @param now the engine's clock (a message's `created_at`)
   * @param assembleOptions how the engine assembles contexts, read at each assembly
   */
  constructor(
    private readonly counter: TokenCounter,
    private readonly now: () => number,
    private readonly assembleOptions: () => AssembleOptions,
  ) {}

  /**
   * Validates and stores what is new in `messages` (run in the session's order). The store is
   * append-only, so a malformed message is refused before anything is stored; only the messages not
   * equal to ones the engine already had are checked (those were checked when they came). A list too
   * malformed to compare gets the full check's error, naming each bad message of `source`'s list.
   */
  async ingest(store: LcmStoreAsync, messages: ChatMessage[], session: string, source: string): Promise<IngestResult> {
    const offset = systemPromptLength(messages);
    // the system prompt, and the conversation's messages from `from` on but those equal to held ones
    const validate = (from: number, trusted: (position: number) => boolean) =>
      parseRanges(messages, [[0, offset], [offset + from, messages.length]], source, (i) => i >= offset && trusted(i - offset));
    let result: IngestResult;
    try {
      result = await ingestConversation(store, session, messages, offset, this.counter, () => this.heldBy(store, session), this.now(), this.held.get(session), validate);
    } catch (error) {
      if (!(error instanceof InvalidMessagesError)) parseMessages(messages, source);
      throw error;
    }
    this.held.set(session, result.held);
    return result;
  }

  /** The assembled context of `session`, which the host holds from now on. */
  async assembleAndHold(store: LcmStoreAsync, system: ChatMessage[], session: string): Promise<ChatMessage[]> {
    const { output, held } = await assembleHeldContext(store, system, session, this.counter, this.assembleOptions());
    this.held.set(session, held);
    return output;
  }

  /** The session is over: what its host held is forgotten. */
  forget(session: string): void {
    this.held.delete(session);
  }

  /** What the host holds for `session`, when unknown: the identities of the current assembled context. */
  private async heldBy(store: LcmStoreAsync, session: string): Promise<HeldSequence> {
    return this.held.get(session) ?? (await assembleHeldContext(store, [], session, this.counter, this.assembleOptions())).held;
  }
}

/**
 * Validates the messages of `messages` in `ranges` (from, to) as `parseMessages` does (`trusted` by
 * index of `messages`) without visiting the others, throwing one error that names every problem by its
 * index in `messages`.
 */
function parseRanges(messages: readonly ChatMessage[], ranges: readonly [number, number][], source: string, trusted: (index: number) => boolean): void {
  const issues: MessageIssue[] = [];
  for (const [from, to] of ranges) {
    try {
      parseMessages(messages.slice(from, to), source, (i) => trusted(from + i));
    } catch (error) {
      if (!(error instanceof InvalidMessagesError)) throw error;
      issues.push(...error.issues.map((issue) => ({ ...issue, index: issue.index + from })));
    }
  }
  if (issues.length > 0) throw new InvalidMessagesError(issues, source);
}
