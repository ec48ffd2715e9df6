/** Summary failure classification: which failures abort a compaction and which fall back offline. */
import { isOpenAIError, openAIApiError, type OpenAIApiErrorFields } from "./openaiErrors.js";
import { ModelCallError, QUOTA_TEXT, type ModelCallErrorKind } from "./modelClient.js";

/** What the compressor does after a summarizer failure. */
export interface SummaryFailure {
  /** `abort`: return the conversation unchanged. `fallback`: use the offline ExtractiveSummarizer. */
  action: "abort" | "fallback";
  /** auth | quota | network | timeout | server | empty | invalid | malformed (a body that is not JSON) | aborted | other */
  kind: "auth" | "quota" | "network" | "timeout" | "server" | "empty" | "invalid" | "malformed" | "aborted" | "other";
  /** One readable line for the report. */
  reason: string;
  /** Seconds the endpoint asked to wait (`Retry-After`), when it said; the cooldown honours it, bounded. */
  retryAfterSeconds?: number;
}

/** Thrown by a summarizer that produced an empty or whitespace-only summary. */
export class EmptySummaryError extends Error {
  constructor(message = "summarizer returned an empty summary") {
    super(message);
    this.name = "EmptySummaryError";
  }
}

/** Thrown by a summarizer whose endpoint answered with something that is not a chat completion. */
export class InvalidSummaryResponseError extends Error {
  constructor(message = "summarizer endpoint returned an invalid response") {
    super(message);
    this.name = "InvalidSummaryResponseError";
  }
}

/** Socket error codes that mean the endpoint could not be reached at all. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT",
]);

const TIMEOUT_CODES = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);


/** Every error in the `cause` chain, the error itself first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function errorName(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const name = (error as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function failure(action: SummaryFailure["action"], kind: SummaryFailure["kind"], reason: string): SummaryFailure {
  return { action, kind, reason: oneLine(reason) };
}

/** The text an API error carries in its body (`error.code`, `error.type`, `error.message`). */
function apiErrorText(error: OpenAIApiErrorFields): string {
  return [error.code, error.type, error.message].filter((part) => typeof part === "string").join(" ");
}

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds (`"120"`, `"1.5"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, relative to `now`). Undefined when unreadable; a date in the past
 * reads as 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The headers of an HTTP answer: a `Headers` object or a plain record (header names lowercase). */
export type ResponseHeaders = { get(name: string): string | null } | Readonly<Record<string, string | undefined>>;

/** The wait `headers` ask for (`retry-after-ms`, else `retry-after`), in milliseconds; undefined when they ask none. */
export function headersRetryAfterMs(headers: ResponseHeaders | null | undefined, now: number = Date.now()): number | undefined {
  if (headers === null || typeof headers !== "object") return undefined;
  const get = (name: string): string | null => (typeof headers.get === "function" ? (headers as { get(name: string): string | null }).get(name) : ((headers as Record<string, string | undefined>)[name] ?? null));
  const ms = get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  return parseRetryAfter(get("retry-after"), now);
}

/** The wait an error asks for: a {@link ModelCallError}'s `retryAfterMs`, an `openai` SDK error's headers; undefined when it asks none. */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  if (isModelCallError(error)) return error.retryAfterMs;
  const apiError = openAIApiError(error);
  return apiError?.headers ? headersRetryAfterMs(apiError.headers as ResponseHeaders, now) : undefined;
}

/** True for a quota or billing exhaustion (as opposed to a rate limit that passes): waiting does not help. */
export function isQuotaExhausted(error: unknown): boolean {
  if (isModelCallError(error)) return error.kind === "quota";
  const apiError = openAIApiError(error);
  return apiError !== undefined && QUOTA_TEXT.test(apiErrorText(apiError));
}

/** Classifies an error thrown by a summarizer (openai SDK errors, fetch errors, AbortError, …), with the wait it asked for. */
export function classifySummaryFailure(error: unknown): SummaryFailure {
  const classified = classifyKind(error);
  const waitMs = retryAfterMs(error);
  return waitMs === undefined ? classified : { ...classified, retryAfterSeconds: Math.ceil(waitMs / 1000) };
}

function classifyKind(error: unknown): SummaryFailure {
  const chain = causeChain(error);
  const message = messageOf(error);
  const apiError = openAIApiError(error);

  if (isOpenAIError(error, "APIUserAbortError") || chain.some((e) => errorName(e) === "AbortError")) {
    return failure("abort", "aborted", `summary request aborted: ${message}`);
  }
  if (isModelCallError(error)) return modelCallFailure(error, message);
  if (error instanceof EmptySummaryError) return failure("fallback", "empty", message);
  if (error instanceof SyntaxError) return failure("fallback", "malformed", `summary endpoint answered with a body that is not JSON: ${message}`);
  if (error instanceof InvalidSummaryResponseError) return failure("fallback", "invalid", `invalid summary response: ${message}`);
  if (isOpenAIError(error, "APIConnectionTimeoutError") || chain.some((e) => errorName(e) === "TimeoutError" || TIMEOUT_CODES.has(errorCode(e) ?? ""))) {
    return failure("fallback", "timeout", `summary request timed out: ${message}`);
  }
  if (apiError !== undefined && (isOpenAIError(error, "AuthenticationError") || isOpenAIError(error, "PermissionDeniedError"))) {
    return failure("abort", "auth", `summary endpoint refused the credentials (${apiError.status}): ${message}`);
  }
  if (apiError !== undefined && (isOpenAIError(error, "RateLimitError") || QUOTA_TEXT.test(apiErrorText(apiError)))) {
    return failure("abort", "quota", `summary endpoint rate limit or quota (${apiError.status ?? "no status"}): ${message}`);
  }
  const networkCode = chain.map(errorCode).find((code) => code !== undefined && NETWORK_CODES.has(code));
  if (isOpenAIError(error, "APIConnectionError") || networkCode !== undefined) {
    const detail = networkCode ?? chain.map(messageOf).slice(1).join(": ");
    return failure("abort", "network", `summary endpoint unreachable${detail ? ` (${detail})` : ""}: ${message}`);
  }
  if (apiError !== undefined && typeof apiError.status === "number") {
    if (apiError.status >= 500) return failure("fallback", "server", `summary endpoint server error: ${message}`);
    return failure("fallback", "other", `summary endpoint error: ${message}`);
  }
  return failure("fallback", "other", `summarizer failed: ${message}`);
}

/** True for a {@link ModelCallError}, also one of another copy of this package (recognised by its name and kind). */
export function isModelCallError(error: unknown): error is ModelCallError {
  if (error instanceof ModelCallError) return true;
  return error instanceof Error && error.name === "ModelCallError" && typeof (error as { kind?: unknown }).kind === "string";
}

/** What the ladder does after a failure a model client classified (see ModelCallErrorKind). */
const MODEL_CALL_FAILURES: Record<ModelCallErrorKind, [SummaryFailure["action"], SummaryFailure["kind"], (status: string) => string]> = {
  auth: ["abort", "auth", (status) => `summary endpoint refused the credentials (${status})`],
  quota: ["abort", "quota", (status) => `summary endpoint rate limit or quota (${status})`],
  rate_limit: ["abort", "quota", (status) => `summary endpoint rate limit or quota (${status})`],
  network: ["abort", "network", () => "summary endpoint unreachable"],
  timeout: ["fallback", "timeout", () => "summary request timed out"],
  server: ["fallback", "server", () => "summary endpoint server error"],
  invalid: ["fallback", "invalid", () => "invalid summary response"],
  malformed: ["fallback", "malformed", () => "summary endpoint answered with a body that is not JSON"],
  other: ["fallback", "other", () => "summary endpoint error"],
};

function modelCallFailure(error: ModelCallError, message: string): SummaryFailure {
  const [action, kind, reason] = MODEL_CALL_FAILURES[error.kind] ?? MODEL_CALL_FAILURES.other;
  return failure(action, kind, `${reason(String(error.status ?? "no status"))}: ${message}`);
}

/** Cooldowns after consecutive timeouts, in seconds: 60, then 300, then 900. */
export const TIMEOUT_COOLDOWNS_SECONDS = [60, 300, 900] as const;
/** Cooldown after any other failure, in seconds. */
export const DEFAULT_COOLDOWN_SECONDS = 60;
/** Cooldown after a body that is not JSON (a proxy's HTML error page), in seconds: such faults pass quickly. */
export const MALFORMED_BODY_COOLDOWN_SECONDS = 30;
/** The longest cooldown a `Retry-After` can ask for, in seconds (the longest timeout cooldown). */
export const MAX_RETRY_AFTER_COOLDOWN_SECONDS = 900;

/**
 * Seconds to wait before the next summary attempt after `failure`. Timeouts escalate with
 * `consecutiveTimeouts` (this one included): 1 → 60 s, 2 → 300 s, 3 or more → 900 s. A body that is
 * not JSON: 30 s. Others: 60 s. A longer `Retry-After` the endpoint sent wins, up to 900 s.
 */
export function cooldownSeconds(failure: SummaryFailure, consecutiveTimeouts: number): number {
  let seconds: number = failure.kind === "malformed" ? MALFORMED_BODY_COOLDOWN_SECONDS : DEFAULT_COOLDOWN_SECONDS;
  if (failure.kind === "timeout") {
    const index = Math.min(Math.max(Math.floor(consecutiveTimeouts), 1), TIMEOUT_COOLDOWNS_SECONDS.length) - 1;
    seconds = TIMEOUT_COOLDOWNS_SECONDS[index]!;
  }
  if (failure.retryAfterSeconds !== undefined) seconds = Math.max(seconds, Math.min(failure.retryAfterSeconds, MAX_RETRY_AFTER_COOLDOWN_SECONDS));
  return seconds;
}
