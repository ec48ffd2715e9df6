/**
 * A summarizer backed by any OpenAI-compatible chat-completions endpoint, through the `openai` SDK, which
 * is imported on the first request (importing the package or building a host does not load it). The
 * client is one {@link SummaryModelClient}; the failure ladder is {@link LlmSummarizer}'s. The SDK's
 * errors are recognised by failures.ts as they are.
 */
import type OpenAI from "openai";
import { lazyAsync } from "../lazy.js";
import { InvalidSummaryResponseError } from "./failures.js";
import { DEFAULT_SUMMARY_TIMEOUT_MS, LlmSummarizer } from "./llmSummarizer.js";
import type { ModelCallInput, ModelCallResult, SummaryModelClient } from "./modelClient.js";
import type { OversizedRangeMode } from "./summaryCalls.js";


/** How to reach the endpoint. */
export interface OpenAICompatibleSummarizerOptions {
  /** e.g. "https://openrouter.ai/api/v1" or "http://127.0.0.1:8080/v1". */
  baseUrl: string;
  apiKey: string;
  /** The summary model. */
  model: string;
  /** The main model: tried once when `model` fails (anything but a cancellation), if it differs. */
  fallbackModel?: string;
  /** Where the main model is served, when not at `baseUrl` (default: `baseUrl`). */
  fallbackBaseUrl?: string;
  /** The main model's key, when it differs from `apiKey` (default: `apiKey`). */
  fallbackApiKey?: string;
  /** Per-request timeout in milliseconds, response body included (default 120,000). */
  timeoutMs?: number;
  /** SDK retries per request (default 0: the failure ladder decides). */
  maxRetries?: number;
  /**
   * The longest `Retry-After` (on a 429 rate limit or a 503) waited for before one retry of the same
   * model, in milliseconds (default 30,000). A longer one fails at once; the compressor's cooldown honours it.
   */
  maxRetryAfterMs?: number;
  /** How a `Retry-After` wait is slept (default: a timer the signal cancels). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A custom fetch implementation. */
  fetch?: typeof globalThis.fetch;
  /**
   * How a range longer than the model's input cap is read (`auxiliary.compression.oversized_range`):
   * `chunks` (default), one call per run of turns, each updating the summary before; `digest`, one call,
   * the oldest turns folded into an offline digest (summaryCalls.ts).
   */
  oversizedRange?: OversizedRangeMode;
  /** The cap of one call's serialized turns, in characters (default `MAX_SERIALIZED_CHARS`, 160,000). */
  maxInputChars?: number;
}

/** The `openai` SDK, imported on first use and shared. */
const loadSdk = lazyAsync(() => import("openai"));

/** Where and how an OpenAI-compatible client calls. */
export interface OpenAICompatibleEndpoint {
  baseUrl: string;
  apiKey: string;
  /** The SDK's own timeout, in ms (the summarizer's deadline bounds the whole call besides). */
  timeoutMs: number;
  /** SDK retries per request (default 0: the failure ladder decides). */
  maxRetries?: number | undefined;
  fetch?: typeof globalThis.fetch | undefined;
}

/** An `openai` SDK client for `endpoint`, built on first use and shared. */
function sdkFor(endpoint: OpenAICompatibleEndpoint): () => Promise<OpenAI> {
  return lazyAsync(async () => {
    const { default: OpenAISdk } = await loadSdk();
    return new OpenAISdk({
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      timeout: endpoint.timeoutMs,
      maxRetries: endpoint.maxRetries ?? 0,
      ...(endpoint.fetch ? { fetch: endpoint.fetch } : {}),
    });
  });
}

/**
 * One chat-completions call per prompt: a single user message, no tools, no temperature and no
 * `max_tokens` (the budget is guidance in the prompt; a cap would cut summaries off).
 */
class OpenAICompatibleClient implements SummaryModelClient {
  readonly provider = "openai";

  constructor(
    readonly model: string,
    private readonly sdk: () => Promise<OpenAI>,
  ) {}

  async complete({ prompt, signal }: ModelCallInput): Promise<ModelCallResult> {
    const client = await this.sdk();
    const response: unknown = await client.chat.completions.create({ model: this.model, messages: [{ role: "user", content: prompt }] }, { signal });
    const choices = typeof response === "object" && response !== null ? (response as { choices?: unknown }).choices : undefined;
    if (!Array.isArray(choices)) throw new InvalidSummaryResponseError(`summary endpoint returned no choices (model ${this.model})`);
    const content: unknown = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content;
    if (content !== null && content !== undefined && typeof content !== "string") {
      throw new InvalidSummaryResponseError(`summary endpoint returned non-text content (model ${this.model})`);
    }
    return { text: typeof content === "string" ? content : "", usage: reportedUsage(response) };
  }
}

/** The prompt and completion tokens a chat-completions response reports, when it reports them. */
function reportedUsage(response: unknown): { inputTokens?: number; outputTokens?: number } {
  const usage = typeof response === "object" && response !== null ? (response as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage : undefined;
  const input = usage?.prompt_tokens;
  const output = usage?.completion_tokens;
  return { ...(typeof input === "number" ? { inputTokens: input } : {}), ...(typeof output === "number" ? { outputTokens: output } : {}) };
}

/** A model client for an OpenAI-compatible chat-completions endpoint (what {@link OpenAICompatibleSummarizer} calls). */
export function openAICompatibleClient(model: string, endpoint: OpenAICompatibleEndpoint): SummaryModelClient {
  return new OpenAICompatibleClient(model, sdkFor(endpoint));
}

/**
 * Summarizes with one chat-completions call per prompt: a single user message holding the prompt, no
 * tools, no temperature and no `max_tokens`. Reasoning blocks the model writes are stripped from its answer.
 */
export class OpenAICompatibleSummarizer extends LlmSummarizer {
  constructor(options: OpenAICompatibleSummarizerOptions) {
    const endpoint = { baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS, maxRetries: options.maxRetries, fetch: options.fetch };
    const sdk = sdkFor(endpoint);
    const fallbackBaseUrl = options.fallbackBaseUrl ?? options.baseUrl;
    const fallbackApiKey = options.fallbackApiKey ?? options.apiKey;
    const sharesEndpoint = fallbackBaseUrl === options.baseUrl && fallbackApiKey === options.apiKey;
    const fallbackSdk = sharesEndpoint ? sdk : sdkFor({ ...endpoint, baseUrl: fallbackBaseUrl, apiKey: fallbackApiKey });
    super({
      client: new OpenAICompatibleClient(options.model, sdk),
      fallback: options.fallbackModel === undefined ? undefined : new OpenAICompatibleClient(options.fallbackModel, fallbackSdk),
      fallbackSharesEndpoint: sharesEndpoint,
      timeoutMs: options.timeoutMs,
      maxRetryAfterMs: options.maxRetryAfterMs,
      sleep: options.sleep,
      oversizedRange: options.oversizedRange,
      maxInputChars: options.maxInputChars,
    });
  }
}
