/**
 * A summarizer backed by any OpenAI-compatible chat-completions endpoint, through the `openai` SDK, which
 * is imported on the first request (importing the package or building a host does not load it).
 */
import type OpenAI from "openai";
import { normalizeSummary } from "./prompt.js";
import { stripReasoningBlocks } from "./reasoning.js";
import { ExtractiveSummarizer } from "./extractive.js";
import { DEFAULT_OVERSIZED_RANGE, summarizeInCalls, type OversizedRangeMode } from "./summaryCalls.js";
import { EmptySummaryError, InvalidSummaryResponseError, classifySummaryFailure, isQuotaExhausted, retryAfterMs } from "./failures.js";
import type { SummaryRequest, Summarizer } from "./types.js";

/** Default request timeout: 120 s (the `auxiliary.compression.timeout` default). */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 120_000;
/** The longest `Retry-After` the summarizer waits for before retrying (longer ones fail at once). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
/** HTTP statuses whose `Retry-After` means "try again then": rate limited, service unavailable. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

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
const loadSdk = once(() => import("openai"));

/** `make`'s promise, made on the first call and returned by every later one (made again after a failure). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Summarizes with one chat-completions call: a single user message holding the prompt, no tools, no
 * temperature and no `max_tokens` (the budget is guidance in the prompt; a cap would cut summaries off).
 * Reasoning blocks the model writes are stripped from its answer.
 */
export class OpenAICompatibleSummarizer implements Summarizer {
  readonly name: string;
  readonly model: string;
  readonly fallbackModel: string | undefined;
  /** The bound on each request, headers and body together, in ms. */
  readonly timeoutMs: number;
  private readonly client: () => Promise<OpenAI>;
  private readonly fallbackClient: () => Promise<OpenAI>;
  private readonly fallbackOnSameEndpoint: boolean;
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How a range longer than the input cap is read. */
  readonly oversizedRange: OversizedRangeMode;
  private readonly maxInputChars: number | undefined;

  constructor(options: OpenAICompatibleSummarizerOptions) {
    this.model = options.model;
    this.fallbackModel = options.fallbackModel;
    this.name = `openai:${options.model}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
    const clientFor = (baseURL: string, apiKey: string) =>
      once(async () => {
        const { default: OpenAISdk } = await loadSdk();
        return new OpenAISdk({
          baseURL,
          apiKey,
          timeout: this.timeoutMs,
          maxRetries: options.maxRetries ?? 0,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
      });
    this.client = clientFor(options.baseUrl, options.apiKey);
    const fallbackBaseUrl = options.fallbackBaseUrl ?? options.baseUrl;
    const fallbackApiKey = options.fallbackApiKey ?? options.apiKey;
    this.fallbackOnSameEndpoint = fallbackBaseUrl === options.baseUrl && fallbackApiKey === options.apiKey;
    this.fallbackClient = this.fallbackOnSameEndpoint ? this.client : clientFor(fallbackBaseUrl, fallbackApiKey);
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.sleep = options.sleep ?? sleepFor;
    this.oversizedRange = options.oversizedRange ?? DEFAULT_OVERSIZED_RANGE;
    this.maxInputChars = options.maxInputChars;
  }

  /**
   * Builds the prompt (several, in order, for a range longer than the input cap), asks the model
   * (falling back once to the main model), and normalizes the answer.
   */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    const call = async (prompt: string): Promise<string> => {
      try {
        return await this.completeWithRetry(this.client, this.model, prompt, signal, request);
      } catch (error) {
        if (!this.triesFallbackAfter(error, signal)) throw error;
        return await this.completeWithRetry(this.fallbackClient, this.fallbackModel!, prompt, signal, request);
      }
    };
    const digester = new ExtractiveSummarizer();
    return summarizeInCalls(request, call, { mode: this.oversizedRange, digester, signal, ...(this.maxInputChars !== undefined ? { maxChars: this.maxInputChars } : {}) });
  }

  /**
   * True when the main model is worth one try after `error`: it is configured and differs, and the
   * failure was not a cancellation, nor a network failure of the endpoint it would be tried on too.
   * Auth and quota failures qualify: a separate summary model (or its key) may be what was refused.
   */
  private triesFallbackAfter(error: unknown, signal: AbortSignal | undefined): boolean {
    const fallback = this.fallbackModel;
    if (fallback === undefined || signal?.aborted) return false;
    if (fallback === this.model && this.fallbackOnSameEndpoint) return false;
    const failure = classifySummaryFailure(error);
    if (failure.kind === "aborted") return false;
    return !(failure.kind === "network" && this.fallbackOnSameEndpoint);
  }

  /** One call, plus one retry of the same model after a 429/503 whose `Retry-After` is within the bound. */
  private async completeWithRetry(client: () => Promise<OpenAI>, model: string, prompt: string, signal: AbortSignal | undefined, request: SummaryRequest): Promise<string> {
    try {
      return await this.complete(client, model, prompt, signal, request);
    } catch (error) {
      const waitMs = this.retryWaitMs(error);
      if (waitMs === undefined || signal?.aborted) throw error;
      await this.sleep(waitMs, signal);
      return await this.complete(client, model, prompt, signal, request);
    }
  }

  /** The `Retry-After` wait worth honouring after `error`, if any (a passing rate limit or a 503, within the bound). */
  private retryWaitMs(error: unknown): number | undefined {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== "number" || !RETRY_AFTER_STATUSES.has(status) || isQuotaExhausted(error)) return undefined;
    const waitMs = retryAfterMs(error);
    return waitMs !== undefined && waitMs <= this.maxRetryAfterMs ? waitMs : undefined;
  }

  /**
   * One request, bounded as a whole by `timeoutMs`: the SDK's own timeout stops waiting for the headers
   * only, so a body that drips in slowly would outlive it; an overall deadline aborts the request, body
   * included, and fails as a timeout (a caller's abort stays an abort).
   */
  private async complete(clientOf: () => Promise<OpenAI>, model: string, prompt: string, signal: AbortSignal | undefined, request: SummaryRequest): Promise<string> {
    const client = await clientOf();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    let response: unknown;
    try {
      response = await client.chat.completions.create(
        { model, messages: [{ role: "user", content: prompt }] },
        { signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal },
      );
    } catch (error) {
      if (!deadline.signal.aborted || signal?.aborted) throw error;
      const { APIConnectionTimeoutError } = await loadSdk();
      throw new APIConnectionTimeoutError({ message: `summary request (model ${model}) timed out after ${this.timeoutMs} ms (the whole request, response body included; auxiliary.compression.timeout)` });
    } finally {
      clearTimeout(timer);
    }
    request.onModelCall?.({ model, ...reportedUsage(response) });
    const choices = typeof response === "object" && response !== null ? (response as { choices?: unknown }).choices : undefined;
    if (!Array.isArray(choices)) {
      throw new InvalidSummaryResponseError(`summary endpoint returned no choices (model ${model})`);
    }
    const content: unknown = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content;
    if (content !== null && content !== undefined && typeof content !== "string") {
      throw new InvalidSummaryResponseError(`summary endpoint returned non-text content (model ${model})`);
    }
    const text = typeof content === "string" ? stripReasoningBlocks(content) : "";
    if (text.trim() === "") {
      throw new EmptySummaryError(`summarizer returned an empty summary (model ${model})`);
    }
    return normalizeSummary(text);
  }
}

/** The prompt and completion tokens a chat-completions response reports, when it reports them. */
function reportedUsage(response: unknown): { inputTokens?: number; outputTokens?: number } {
  const usage = typeof response === "object" && response !== null ? (response as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage : undefined;
  const input = usage?.prompt_tokens;
  const output = usage?.completion_tokens;
  return { ...(typeof input === "number" ? { inputTokens: input } : {}), ...(typeof output === "number" ? { outputTokens: output } : {}) };
}
