/**
 * Per session, what the host holds (held.ts), kept between an engine's calls: a host's message list is
 * checked and stored against it (ingest.ts), and an assembled context handed to the host replaces it
 * (heldContext.ts).
 */
import { InvalidMessagesError, parseMessages, type ChatMessage, type TokenCounter } from "./core.js";
import { splitSystemPrompt, type AssembleOptions } from "./assemble.js";
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
    const { system, conversation } = splitSystemPrompt(messages);
    const offset = system.length;
    const validate = (trusted: readonly boolean[]) => void parseMessages(messages, source, (i) => i >= offset && trusted[i - offset] === true);
    let result: IngestResult;
    try {
      result = await ingestConversation(store, session, conversation, this.counter, () => this.heldBy(store, session), this.now(), this.held.get(session), validate);
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
