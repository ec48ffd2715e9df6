/**
 * Inline reasoning blocks (`<think>…</think>`, `<thinking>`, `<reasoning>`, `<thought>`) that models
 * write into their content. They are scratch work: kept out of what a summarizer reads and out of the
 * summaries it writes (a stored trace would be fed back into every later summary update).
 */

const TAGS = "think|thinking|reasoning|thought";
/** A closed block anywhere, its tags included. */
const CLOSED_BLOCK = new RegExp(`<(${TAGS})\\b[^>]*>[\\s\\S]*?</\\1\\s*>`, "gi");
/** A block opened at the very start and never closed (an answer cut off while reasoning). */
const UNCLOSED_LEADING_BLOCK = new RegExp(`^\\s*<(?:${TAGS})\\b[^>]*>[\\s\\S]*$`, "i");
/** Cheap pre-check: does the text mention any of the tags at all? */
const ANY_TAG = new RegExp(`</?(?:${TAGS})\\b`, "i");

/**
 * `text` without its reasoning blocks: every closed block, and a block opened at the start that never
 * closes. Text without such tags is returned unchanged; otherwise blank runs left behind are collapsed
 * and the result trimmed.
 */
export function stripReasoningBlocks(text: string): string {
  if (!ANY_TAG.test(text)) return text;
  const stripped = text.replace(CLOSED_BLOCK, "").replace(UNCLOSED_LEADING_BLOCK, "");
  return stripped.replace(/\n{3,}/g, "\n\n").trim();
}
