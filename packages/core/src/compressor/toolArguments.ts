/**
 * JSON-aware truncation of long tool-call arguments (pruning): valid JSON stays valid JSON — long string
 * values are shortened with a marker and the object is re-serialized; invalid JSON is cut as text.
 */

/** Arguments longer than this are truncated outside the protected tail. */
export const MAX_TOOL_ARGUMENT_CHARS = 2_000;
/** String values longer than this inside truncated arguments are shortened. */
const MAX_STRING_VALUE_CHARS = 400;
/** Characters of a shortened string value that are kept. */
const KEPT_STRING_CHARS = 300;

function truncationMarker(removed: number): string {
  return `...[truncated ${removed} chars]`;
}

function shortenStrings(value: unknown, limit: number): unknown {
  if (typeof value === "string") {
    return value.length > limit ? value.slice(0, Math.min(KEPT_STRING_CHARS, limit)) + truncationMarker(value.length - Math.min(KEPT_STRING_CHARS, limit)) : value;
  }
  if (Array.isArray(value)) return value.map((v) => shortenStrings(v, limit));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = shortenStrings(v, limit);
    return out;
  }
  return value;
}

/**
 * Shortens `args` when it is longer than `maxChars`: JSON arguments keep their structure (long strings
 * cut, re-serialized), anything else is cut as text. Returns `args` itself when nothing changed.
 */
export function truncateToolArguments(args: string, maxChars = MAX_TOOL_ARGUMENT_CHARS): string {
  if (args.length <= maxChars) return args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args.slice(0, maxChars) + truncationMarker(args.length - maxChars);
  }
  let limit = MAX_STRING_VALUE_CHARS;
  let out = JSON.stringify(shortenStrings(parsed, limit));
  // Many medium strings can still exceed the cap: tighten the per-string limit a few times.
  while (out.length > maxChars && limit > 40) {
    limit = Math.floor(limit / 2);
    out = JSON.stringify(shortenStrings(parsed, limit));
  }
  return out.length < args.length ? out : args;
}
