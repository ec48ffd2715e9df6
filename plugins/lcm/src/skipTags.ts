/**
 * Blocks that memory plugins inject into user turns (`<hindsight_memories>`, `<relevant_memories>`,
 * `<system-reminder>`, …) are recalled context, not what the user said: the summarizer does not read
 * them, so a summary neither restates old memories as new facts nor grows with them. The stored turn
 * stays verbatim (lcm_expand and lcm_grep see the blocks).
 */
/** The blocks left out of the summarizer's input by default (lcm.summary_skip_tags). */
export const DEFAULT_SUMMARY_SKIP_TAGS: readonly string[] = ["hindsight_memories", "relevant_memories", "recalled_memories", "memory_context", "system-reminder"];

/** A tag name a skip list may hold: a letter, then letters, digits, `_`, `-`, `.` or `:`. */
export const SKIP_TAG_NAME = /^[A-Za-z][\w.:-]*$/;

/**
 * The expression matching a whole `<tag …>…</tag>` block of any of `tags` (case-insensitive, attributes
 * allowed, the shortest block), or undefined for an empty list. An unclosed tag matches nothing.
 */
export function skipBlocksPattern(tags: readonly string[]): RegExp | undefined {
  if (tags.length === 0) return undefined;
  const names = tags.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return new RegExp(`<(${names})(?:\\s[^>]*)?>[\\s\\S]*?</\\1\\s*>`, "gi");
}

/** `text` without the blocks `pattern` matches; the blank lines they leave are closed up. */
export function withoutBlocks(text: string, pattern: RegExp): string {
  const out = text.replace(pattern, "");
  return out === text ? text : out.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, "\n\n").trim();
}
