/** Small helpers for AI SDK message parts seen as plain records. */

/** An AI SDK message or part as a plain record. */
export type Part = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Part {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `record` without `key` (a shallow copy). */
export function without(record: Part, key: string): Part {
  const { [key]: _left, ...rest } = record;
  return rest;
}

/** True when `value` comes back from its JSON text as an equal value (no -0, NaN, undefined, class instances). */
export function jsonFaithful(value: unknown): boolean {
  if (value === null || typeof value === "boolean" || typeof value === "string") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(jsonFaithful);
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every((v) => v !== undefined && jsonFaithful(v));
  return false;
}
