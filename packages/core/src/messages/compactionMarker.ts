/**
 * How our compaction artifacts (summary messages, lcm's summary block, stub tool results) are told from
 * real turns. A visible tag alone is not enough: a user can type `[CONTEXT COMPACTION]`, and a tool can
 * print the stub text. So every artifact also carries an invisible signature in its text. Text is the
 * only place that survives every path a message takes — JSON, the session store, a host that keeps only
 * `role` and `content`, the provider wire formats — and extra fields on a message are refused by
 * providers. Summaries written before the signature existed are recognised only with their full framing.
 */

/** The visible tag every compaction summary starts with. */
export const COMPACTION_TAG = "[CONTEXT COMPACTION]";

/**
 * The invisible signature: U+2063 INVISIBLE SEPARATOR, U+2060 WORD JOINER, U+2063. Format characters, not
 * whitespace (`trim()` keeps them) and unchanged by Unicode normalization; nobody types them by accident.
 */
export const COMPACTION_SIGNATURE = "\u2063\u2060\u2063";

/** How every summary we write starts: the visible tag, then the signature. */
export const SIGNED_COMPACTION_TAG = `${COMPACTION_TAG}${COMPACTION_SIGNATURE}`;

const SUMMARY_PREFIX_TEXT =
  " Earlier turns of this conversation were compacted into the summary below. " +
  "It is background reference only, written from turns that are no longer shown; it may be incomplete. " +
  "Respond to the latest message after this summary — that is what to act on now, not the summary itself. " +
  "All tools remain available: re-read files or re-run commands when you need details the summary left out.";

/** Opens every summary message: what it is, that it is background, and what to act on instead. */
export const SUMMARY_PREFIX = `${SIGNED_COMPACTION_TAG}${SUMMARY_PREFIX_TEXT}`;

/** The prefix of summaries written before the signature (recognised only together with the end marker). */
export const LEGACY_SUMMARY_PREFIX = `${COMPACTION_TAG}${SUMMARY_PREFIX_TEXT}`;

/** Closes every summary message (and lcm's summary block), so the model does not answer the summary. */
export const SUMMARY_END_MARKER = "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

/** True when `text` starts with the signed tag: an artifact we wrote. */
export function hasCompactionSignature(text: string): boolean {
  return text.startsWith(SIGNED_COMPACTION_TAG);
}

/** True for a summary written before the signature: exactly `opening` at the start and the end marker after it. */
export function isLegacySummaryText(text: string, opening: string): boolean {
  return text.startsWith(opening) && text.includes(SUMMARY_END_MARKER, opening.length);
}

/** True when `text` is (or starts with) one of our compaction summaries, new or written by an older version. */
export function isCompactionSummaryText(text: string): boolean {
  return hasCompactionSignature(text) || isLegacySummaryText(text, LEGACY_SUMMARY_PREFIX);
}
