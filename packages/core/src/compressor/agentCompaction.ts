/**
 * The built-in compressor's side of `compact_context` and `getStatus().lastCompaction` (docs/BEHAVIOUR.md,
 * "Compaction the agent can ask for, and see"): when there is nothing to compact, and what a compaction's
 * report says of it. Pure.
 */
import type { LastCompaction } from "../engine/lastCompaction.js";
import type { CompressionReport } from "./report.js";

/**
 * Why `compact_context` has nothing to compact: the last reported prompt (`promptTokens`, > 0) already fits
 * in the protected tail (`tailTokens`), so a compaction could not free room. Undefined when it may have
 * something (or no usage was reported yet: the boundary's compaction then says).
 */
export function nothingToCompactReason(promptTokens: number, tailTokens: number): string | undefined {
  if (promptTokens <= 0 || promptTokens > tailTokens) return undefined;
  return `the conversation (${promptTokens} tokens at the last response) fits in the turns a compaction keeps (${tailTokens} tokens), so there is nothing to compact yet`;
}

/** What `getStatus()` reports of the compaction `report` describes (one that changed the conversation). */
export function lastCompactionOf(report: CompressionReport, finishedAt: number, focus: string | undefined, recoveryTool: string | undefined): LastCompaction {
  return {
    at: new Date(finishedAt).toISOString(),
    messagesBefore: report.messagesBefore,
    messagesAfter: report.messagesAfter,
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    fallbackUsed: report.fallbackUsed,
    inventedFactsRemoved: report.verbatim?.removed ?? 0,
    ...(focus === undefined ? {} : { focus }),
    ...(recoveryTool === undefined ? {} : { recoveryTool }),
  };
}
