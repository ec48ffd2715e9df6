/** The words every engine shares for a cleared tool output. */

/** What a cleared tool output starts with (the built-in compressor's phase 1 writes it; summarizers read it). */
export const PRUNED_TOOL_PLACEHOLDER = "[Old tool output cleared to save context space]";
