/**
 * Recognizing the `openai` SDK's error classes without importing the SDK: the package root stays free of
 * it until an OpenAI-compatible summarizer makes its first request. An error is of SDK class `name` when
 * its prototype chain holds a class of that name below the SDK's `OpenAIError` (true for the ESM and the
 * CommonJS copy of the SDK alike, where `instanceof` would see only one).
 */

/** The `openai` SDK error classes the failure rules tell apart. */
export type OpenAIErrorClass =
  | "APIError"
  | "APIUserAbortError"
  | "APIConnectionError"
  | "APIConnectionTimeoutError"
  | "AuthenticationError"
  | "PermissionDeniedError"
  | "RateLimitError";

/** The class names on `error`'s prototype chain, nearest first. */
function classNames(error: object): string[] {
  const names: string[] = [];
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Object.prototype && names.length < 16; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string") names.push(name);
  }
  return names;
}

/** True when `error` is an instance of the `openai` SDK's class `name` (or of a subclass of it). */
export function isOpenAIError(error: unknown, name: OpenAIErrorClass): boolean {
  if (typeof error !== "object" || error === null) return false;
  const names = classNames(error);
  return names.includes("OpenAIError") && names.includes(name);
}

/** The fields of the SDK's `APIError` the failure rules read. */
export interface OpenAIApiErrorFields {
  status: number | undefined;
  headers: unknown;
  code: unknown;
  type: unknown;
  message: string;
}

/** `error` as an SDK `APIError` (its fields), or undefined when it is not one. */
export function openAIApiError(error: unknown): OpenAIApiErrorFields | undefined {
  return isOpenAIError(error, "APIError") ? (error as OpenAIApiErrorFields) : undefined;
}
