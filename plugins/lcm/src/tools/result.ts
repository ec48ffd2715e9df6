/** Tool results: JSON strings, errors as `{error, code}`. */

/** Error codes the tools report. */
export type ToolErrorCode = "invalid_arguments" | "invalid_pattern" | "not_found" | "not_expandable" | "unavailable" | "internal" | "no_scope";

/** A tool failure that becomes `{error, code}`. */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

/** Serializes a tool result. */
export function toolResult(value: unknown): string {
  return JSON.stringify(value);
}

/** Serializes a tool error. */
export function toolErrorResult(code: ToolErrorCode, error: string): string {
  return JSON.stringify({ error, code });
}

/** Epoch ms of an ISO string or epoch-ms number; throws a ToolError naming `field` when unreadable. */
export function parseTime(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new ToolError("invalid_arguments", `${field}: ${JSON.stringify(value)} is not an ISO 8601 time or epoch milliseconds`);
  return ms;
}
