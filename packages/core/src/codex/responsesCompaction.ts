/**
 * Responses API native (server-side) compaction (docs/BEHAVIOUR.md, "Routes"): when to send
 * `context_management: [{type: "compaction", compact_threshold: N}]`, how the opaque `compaction`
 * output item rides in the assistant's replay metadata, and the per-session refusal fallback.
 * Pure functions plus the small per-session state.
 */
import type {
  ResponseCompactionItemParam,
  ResponseCreateParams,
  ResponseInputItem,
  ResponseOutputItem,
} from "openai/resources/responses/responses";
import { baseModelName, CODEX_PROVIDER } from "./models.js";
import type { CodexConfig, LegacyCodexKeys } from "../config/codexSection.js";

/** The server threshold is kept this many tokens below the local trigger, so the server compacts first. */
export const NATIVE_COMPACTION_OFFSET_TOKENS = 8_000;
/** The OpenAI API's host (API-key route). */
export const OPENAI_API_HOST = "api.openai.com";
/** The ChatGPT Codex backend (Codex subscription OAuth route). */
export const CODEX_BACKEND_URL = "https://chatgpt.com/backend-api/codex";
/** The default base URL of the direct OpenAI API. */
export const OPENAI_API_URL = "https://api.openai.com/v1";

/** The request field, shaped as the SDK's `ResponseCreateParams.context_management`. */
export interface NativeCompactionField {
  context_management: Array<ResponseCreateParams.ContextManagement & { type: "compaction"; compact_threshold: number }>;
}

/** The two routes that accept the field. */
export type NativeCompactionRoute = "openai_api" | "codex_backend";

/** True for the gpt-5.6 family (a `-900k` alias counts as its base); never gpt-5.1/5.2/5.4/5.5. */
export function isNativeCompactionModel(model: string): boolean {
  const name = baseModelName(model).toLowerCase();
  return name === "gpt-5.6" || name.startsWith("gpt-5.6-");
}

/** The base URL of a request: `baseUrl` when given, else the default of `provider` (openai / openai-codex). */
function effectiveBaseUrl(baseUrl: string | undefined, provider: string | undefined): string | undefined {
  if (baseUrl !== undefined && baseUrl.trim() !== "") return baseUrl.trim();
  const p = provider?.trim().toLowerCase();
  if (p === CODEX_PROVIDER) return CODEX_BACKEND_URL;
  if (p === "openai") return OPENAI_API_URL;
  return undefined;
}

/**
 * Which eligible route `baseUrl` (or, without one, `provider`'s default) is: https api.openai.com, or
 * https chatgpt.com/backend-api/codex, on the default port and without credentials in the URL.
 * Undefined for everything else (xAI, Copilot, OpenRouter, relays, localhost).
 */
export function nativeCompactionRoute(baseUrl: string | undefined, provider?: string): NativeCompactionRoute | undefined {
  const raw = effectiveBaseUrl(baseUrl, provider);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" || url.port !== "" || url.username !== "" || url.password !== "") return undefined;
  const host = url.hostname.toLowerCase();
  const path = url.pathname.replace(/\/+$/, "");
  if (host === OPENAI_API_HOST) return "openai_api";
  if (host === "chatgpt.com" && (path === "/backend-api/codex" || path.startsWith("/backend-api/codex/"))) return "codex_backend";
  return undefined;
}

/** What {@link nativeCompactionField} decides on, per request. */
export interface NativeCompactionRequest {
  model: string;
  baseUrl?: string | undefined;
  provider?: string | undefined;
  /** `codex.responses_native` and `codex.responses_compact_threshold` (or their old `compression.codex_*` spellings). */
  config: NativeCompactionSettings;
  /** The local compressor's trigger in tokens (it stays armed as the backstop). */
  localThresholdTokens: number;
  /** The session's state; a disabled state sends nothing. */
  state?: NativeCompactionState | undefined;
}

/** The settings native compaction reads: the `codex:` section, or the old `compression.codex_*` keys. */
export type NativeCompactionSettings =
  | Pick<CodexConfig, "responses_native" | "responses_compact_threshold">
  | Pick<LegacyCodexKeys, "codex_responses_native" | "codex_responses_compact_threshold">;

/** `settings` in the `codex:` section's spelling. */
function nativeSettings(settings: NativeCompactionSettings): Pick<CodexConfig, "responses_native" | "responses_compact_threshold"> {
  return "responses_native" in settings
    ? settings
    : { responses_native: settings.codex_responses_native, responses_compact_threshold: settings.codex_responses_compact_threshold };
}

/** The server trigger: min(configured threshold, local trigger − 8,000). */
export function nativeCompactThreshold(configured: number, localThresholdTokens: number): number {
  return Math.min(configured, localThresholdTokens - NATIVE_COMPACTION_OFFSET_TOKENS);
}

/**
 * The `context_management` field for this request, or undefined when it must not be sent: the opt-in
 * is off, the session disabled it after a refusal, the model is not gpt-5.6, the route is not OpenAI
 * direct or the Codex backend, or the offset threshold would not be positive.
 */
export function nativeCompactionField(request: NativeCompactionRequest): NativeCompactionField | undefined {
  const config = nativeSettings(request.config);
  if (!config.responses_native) return undefined;
  if (request.state?.disabled) return undefined;
  if (!isNativeCompactionModel(request.model)) return undefined;
  if (nativeCompactionRoute(request.baseUrl, request.provider) === undefined) return undefined;
  const threshold = nativeCompactThreshold(config.responses_compact_threshold, request.localThresholdTokens);
  if (!(threshold > 0)) return undefined;
  return { context_management: [{ type: "compaction", compact_threshold: Math.floor(threshold) }] };
}

/** Replay items an assistant message carries, with the endpoint that issued them. */
export interface AssistantReplayMetadata {
  /** The issuing endpoint, as {@link replayIssuer} normalizes it. */
  issuer: string;
  /** Items sent back on later turns (encrypted reasoning, compaction…), in order. */
  items: ResponseInputItem[];
}

/** A base URL normalized for issuer comparison: lowercase origin plus path, without trailing slashes. */
export function replayIssuer(endpoint: string): string {
  try {
    const url = new URL(endpoint.trim());
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return endpoint.trim().replace(/\/+$/, "").toLowerCase();
  }
}

/** True for a compaction item (output or input shape). */
export function isCompactionItem(item: { type?: unknown }): item is ResponseCompactionItemParam {
  return item.type === "compaction";
}

/**
 * `metadata` with the `compaction` items of a response's output appended as input params (opaque
 * `encrypted_content` and `id` kept; duplicates skipped). Never mutates its arguments.
 */
export function foldCompactionItems(metadata: AssistantReplayMetadata, outputItems: readonly ResponseOutputItem[]): AssistantReplayMetadata {
  const items = [...metadata.items];
  const seen = new Set(items.filter(isCompactionItem).map((i) => i.encrypted_content));
  for (const output of outputItems) {
    if (output.type !== "compaction" || seen.has(output.encrypted_content)) continue;
    seen.add(output.encrypted_content);
    items.push({ type: "compaction", encrypted_content: output.encrypted_content, id: output.id });
  }
  return { issuer: metadata.issuer, items };
}

/**
 * The items to replay to `endpoint`: all of them when it issued them; without the compaction items when
 * the endpoint changed (another issuer cannot decrypt them). Missing metadata replays nothing.
 */
export function replayItemsFor(endpoint: string, metadata: AssistantReplayMetadata | undefined): ResponseInputItem[] {
  if (metadata === undefined) return [];
  if (replayIssuer(endpoint) === replayIssuer(metadata.issuer)) return [...metadata.items];
  return metadata.items.filter((item) => !isCompactionItem(item));
}

/** The fields of an error (the SDK's `APIError` or a plain JSON error body) that name a refused parameter. */
function errorFields(error: unknown): { status: number | undefined; param: string; message: string } {
  if (typeof error !== "object" || error === null) return { status: undefined, param: "", message: String(error ?? "") };
  const e = error as Record<string, unknown>;
  const body = typeof e.error === "object" && e.error !== null ? (e.error as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    status: typeof e.status === "number" ? e.status : undefined,
    param: `${text(e.param)} ${text(body.param)}`,
    message: `${text(e.message)} ${text(body.message)}`,
  };
}

/**
 * True when `error` is a structured refusal of the field: a 4xx OpenAI error whose `param` or message
 * names `context_management`. Server errors and stalls are not (they are why the model gate exists).
 */
export function isNativeCompactionRefusal(error: unknown): boolean {
  const { status, param, message } = errorFields(error);
  if (status === undefined || status < 400 || status >= 500) return false;
  return param.includes("context_management") || message.includes("context_management");
}

/** Per-session native-compaction state: disabled for the rest of the session after a structured refusal. */
export class NativeCompactionState {
  /** True once the provider refused the field. */
  disabled = false;
  /** The refusal's message, for status lines. */
  disabledReason: string | undefined;

  /**
   * For a failed request that carried the field: true (and the session's native compaction disabled)
   * when `error` is a structured refusal, so the caller retries without the field; false otherwise.
   */
  shouldRetryWithoutField(error: unknown): boolean {
    if (this.disabled || !isNativeCompactionRefusal(error)) return false;
    this.disabled = true;
    this.disabledReason = errorFields(error).message.trim() || "context_management refused";
    return true;
  }
}

/**
 * Sends `params` with the native-compaction field when {@link nativeCompactionField} allows it; on a
 * structured refusal disables it in `request.state` and sends once more without it. Other errors propagate.
 */
export async function sendWithNativeCompaction<P extends object, R>(
  params: P,
  request: NativeCompactionRequest & { state: NativeCompactionState },
  send: (params: P | (P & NativeCompactionField)) => Promise<R>,
): Promise<R> {
  const field = nativeCompactionField(request);
  if (field === undefined) return send(params);
  try {
    return await send({ ...params, ...field });
  } catch (error) {
    if (!request.state.shouldRetryWithoutField(error)) throw error;
    return send(params);
  }
}
