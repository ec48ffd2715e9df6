/** The assembled context of a session together with what the host holds once it has it (held.ts). */
import type { ChatMessage, TokenCounter } from "./core.js";
import { isLcmArtifact, type AssembleOptions } from "./assemble.js";
import { assembleWithin } from "./fitContext.js";
import { loadContext } from "./compaction.js";
import { heldSequence, type HeldSequence } from "./held.js";
import { messageIdentity } from "./messageText.js";
import type { StoredMessage } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/**
 * The context of `session` assembled after `system`, and what the host holds once it has it: the stored
 * identities and token counts of its messages (nothing hashed again), reaching the last stored seq.
 */
export async function assembleHeldContext(
  store: LcmStoreAsync,
  system: ChatMessage[],
  session: string,
  counter: TokenCounter,
  options: AssembleOptions,
): Promise<{ output: ChatMessage[]; held: HeldSequence }> {
  const items = await loadContext(store, session, counter);
  // past the overflow line more tool outputs are kept out of the context, stored whole (fitContext.ts)
  const output = assembleWithin(system, items, options, options.limitTokens, (message) => counter.countMessages([message]));
  const stored = new Map<ChatMessage, StoredMessage>();
  for (const item of items) if (item.type === "message") stored.set(item.stored.message, item.stored);
  const conversation = output.slice(system.length);
  const artifacts = conversation.filter((m) => isLcmArtifact(m));
  const messages = conversation.filter((m) => !isLcmArtifact(m));
  const ids = messages.map((m) => stored.get(m)?.identity ?? messageIdentity(m));
  const tokens = messages.map((m) => stored.get(m)?.tokens ?? counter.countMessages([m]));
  let lastSeq = 0;
  // summaries carried over from an earlier session count that session's messages
  for (const item of items) lastSeq = Math.max(lastSeq, item.type === "message" ? item.stored.seq : item.summary.session === session ? item.summary.seqEnd : 0);
  return { output, held: heldSequence(conversation, artifacts, messages, ids, tokens, true, lastSeq) };
}
