/**
 * lcm's side of `compact_context` and `getStatus().lastCompaction`
 * (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see"): when a session has nothing to compact (every raw message in context is in the
 * fresh tail), and what a compaction's outcome says of it. The compacted turns are read back with lcm_expand.
 */
import type { LastCompaction } from "./core.js";
import type { CompactionOutcome } from "./compaction.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";

/** The lcm tool that reads compacted turns back, verbatim. */
export const LCM_RECOVERY_TOOL = "lcm_expand";

/**
 * Why `session` has nothing to compact: the last reported prompt (`promptTokens`, > 0) is within the target
 * lcm compacts to (`targetTokens`), or its raw messages in context all sit in the fresh tail; undefined
 * when there may be something.
 */
export async function nothingToCompactInSession(store: LcmStoreAsync, session: string, limits: { freshTail: number; promptTokens: number; targetTokens: number }): Promise<string | undefined> {
  if (limits.promptTokens > 0 && limits.promptTokens <= limits.targetTokens) {
    return `the context (${limits.promptTokens} tokens at the last response) is within the target lcm compacts to (${limits.targetTokens} tokens), so there is nothing to compact yet`;
  }
  const raw = (await store.contextItems(session)).filter((item) => item.type === "message").length;
  if (raw > limits.freshTail) return undefined;
  return `the ${raw} message(s) not yet summarized are all in the fresh tail lcm keeps raw (lcm.fresh_tail: ${limits.freshTail}), so there is nothing to compact yet`;
}

/** What `getStatus()` reports of a compaction that ran `outcome.passes` > 0 passes over `messagesBefore` messages, leaving `messagesAfter`. */
export function lcmLastCompaction(outcome: CompactionOutcome, at: number, messagesBefore: number, messagesAfter: number, focus: string | undefined): LastCompaction {
  return {
    at: new Date(at).toISOString(),
    messagesBefore,
    messagesAfter,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    fallbackUsed: outcome.fallbacks > 0,
    // lcm's summaries point back to their sources: no verbatim guard removes anything
    inventedFactsRemoved: null,
    ...(focus === undefined ? {} : { focus }),
    recoveryTool: LCM_RECOVERY_TOOL,
  };
}
