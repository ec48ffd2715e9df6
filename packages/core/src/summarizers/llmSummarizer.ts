/**
 * A summarizer over any model client (modelClient.ts): the prompts of summaryCalls.ts (a range longer than
 * the model's input read in chunks, or digested), each call bounded by a deadline, one retry after a short
 * `Retry-After`, one try of a fallback model, every call reported with its tokens (`onModelCall`), and the
 * answer's reasoning blocks stripped and its template normalized. A request that offers its conversation
 * (`compression.summary_request: suffix`) is one call of the client's `suffix` where it reads the
 * provider's cache (summarizers/suffixRequest.ts). The compressor's failure ladder
 * (compressor/summaryLadder.ts: cooldowns, the offline fallback, the verbatim guard, the budget) runs
 * around it like around any summarizer.
 */
import { normalizeSummary } from "./prompt.js";
import { stripReasoningBlocks } from "./reasoning.js";
import { ExtractiveSummarizer } from "./extractive.js";
import { DEFAULT_OVERSIZED_RANGE, summarizeInCalls, type OversizedRangeMode } from "./summaryCalls.js";
import { EmptySummaryError, classifySummaryFailure, isModelCallError, isQuotaExhausted, retryAfterMs, type SummaryFailure } from "./failures.js";
import { ModelCallError, type ConversationSuffixClient, type ModelCallInput, type ModelCallResult, type SummaryModelClient } from "./modelClient.js";
import { suffixInstruction } from "./suffixRequest.js";
import type { SummaryConversation, SummaryModelCall, SummaryRequest, Summarizer } from "./types.js";

/** Default request timeout: 120 s (the `auxiliary.compression.timeout` default). */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 120_000;
/** The longest `Retry-After` the summarizer waits for before retrying (longer ones fail at once). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
/** The cap on a summary call's output sent to an API that requires one: the summary budget's double, at most this. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;
/** HTTP statuses whose `Retry-After` means "try again then": rate limited, service unavailable. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/**
 * Failures of a suffix call after which the range is sent as a separate prompt instead: the answer was
 * empty or a tool call, or the request was refused as such (the conversation a provider would not take
 * back, say). Unreachable endpoints, refused keys, limits and timeouts go down the ladder as they are.
 */
const SEPARATE_AFTER_SUFFIX = new Set<SummaryFailure["kind"]>(["empty", "invalid", "malformed", "other"]);

/** What a call is bounded by: its output cap and its signal (the caller's and the deadline). */
type CallLimits = Pick<ModelCallInput, "maxOutputTokens" | "signal">;
/** Sends one call within `limits`. */
type Send = (limits: CallLimits) => Promise<ModelCallResult>;

/** The tokens an answer's usage reports, as a call reports them (fields the API left out stay out). */
function reportedTokens(usage: ModelCallResult["usage"]): Omit<SummaryModelCall, "model"> {
  const out: Omit<SummaryModelCall, "model"> = {};
  for (const key of ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"] as const) {
    const value = usage?.[key];
    if (typeof value === "number") out[key] = value;
  }
  return out;
}

/** How {@link LlmSummarizer} calls its model. */
export interface LlmSummarizerOptions {
  /** The summary model. */
  client: SummaryModelClient;
  /**
   * Tried once when `client` fails (anything but a cancellation), e.g. the main model behind a separate
   * summary model. Not after a network failure when `fallbackSharesEndpoint` (the same server would be asked).
   */
  fallback?: SummaryModelClient | undefined;
  /** The fallback is served by the same endpoint with the same key as `client` (default false). */
  fallbackSharesEndpoint?: boolean | undefined;
  /** The summarizer's name in reports (default `<client.provider>:<client.model>`). */
  name?: string | undefined;
  /** Per-call timeout in milliseconds, the whole answer included (default 120,000). */
  timeoutMs?: number | undefined;
  /**
   * The longest `Retry-After` (on a 429 rate limit or a 503) waited for before one retry of the same
   * model, in milliseconds (default 30,000). A longer one fails at once; the compressor's cooldown honours it.
   */
  maxRetryAfterMs?: number | undefined;
  /** How a `Retry-After` wait is slept (default: a timer the signal cancels). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /**
   * How a range longer than the model's input cap is read (`auxiliary.compression.oversized_range`):
   * `chunks` (default), one call per run of turns, each updating the summary before; `digest`, one call,
   * the oldest turns folded into an offline digest (summaryCalls.ts).
   */
  oversizedRange?: OversizedRangeMode | undefined;
  /** The cap of one call's serialized turns, in characters (default `MAX_SERIALIZED_CHARS`, 160,000). */
  maxInputChars?: number | undefined;
  /** The most output tokens a call may take where the API requires a cap (default: twice the summary budget, at most 8,192). */
  maxOutputTokens?: number | undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
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
 * Summarizes through a {@link SummaryModelClient}: one call per prompt (several, in order, for a range
 * longer than the input cap), falling back once to `fallback`, each answer normalized to the template.
 */
export class LlmSummarizer implements Summarizer {
  readonly name: string;
  /** The summary model's id (what its calls are priced at). */
  readonly model: string;
  /** The fallback model's id, when there is one. */
  readonly fallbackModel: string | undefined;
  /** The bound on each call, the whole answer included, in ms. */
  readonly timeoutMs: number;
  /** How a range longer than the input cap is read. */
  readonly oversizedRange: OversizedRangeMode;
  /** The model client. */
  readonly client: SummaryModelClient;
  private readonly fallback: SummaryModelClient | undefined;
  private readonly fallbackSharesEndpoint: boolean;
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly maxInputChars: number | undefined;
  private readonly maxOutputTokens: number | undefined;

  constructor(options: LlmSummarizerOptions) {
    this.client = options.client;
    this.model = options.client.model;
    this.fallback = options.fallback;
    this.fallbackModel = options.fallback?.model;
    this.fallbackSharesEndpoint = options.fallbackSharesEndpoint ?? false;
    this.name = options.name ?? `${options.client.provider}:${options.client.model}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.sleep = options.sleep ?? sleepFor;
    this.oversizedRange = options.oversizedRange ?? DEFAULT_OVERSIZED_RANGE;
    this.maxInputChars = options.maxInputChars;
    this.maxOutputTokens = options.maxOutputTokens;
  }

  /**
   * Builds the prompt (several, in order, for a range longer than the input cap), asks the model
   * (falling back once to the fallback model), and normalizes the answer. A request that offers its
   * conversation (`request.conversation`) is asked as the conversation's suffix in one call when the
   * client can send one that reads the provider's cache (summarizeAsSuffix); otherwise, or when that call
   * fails in a way a separate prompt may not, its calls are separate prompts reported with the reason.
   */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    let separateReason: string | undefined;
    const { conversation } = request;
    if (conversation !== undefined) {
      const suffix = this.client.suffix;
      separateReason = suffix === undefined ? `the ${this.client.provider} model client sends no conversation suffix` : suffix.obstacle(conversation.model);
      if (suffix !== undefined && separateReason === undefined) {
        try {
          return await this.summarizeAsSuffix(suffix, request, conversation, signal);
        } catch (error) {
          const failure = classifySummaryFailure(error);
          if (signal?.aborted || !SEPARATE_AFTER_SUFFIX.has(failure.kind)) throw error;
          separateReason = `the suffix request failed: ${failure.reason}`;
        }
      }
    }
    const reason = separateReason;
    const separate: SummaryRequest = reason === undefined ? request : { ...request, onModelCall: (call) => request.onModelCall?.({ ...call, request: "separate", separateReason: reason }) };
    const call = async (prompt: string): Promise<string> => {
      const send = (client: SummaryModelClient) => (limits: CallLimits) => client.complete({ prompt, ...limits });
      try {
        return await this.completeWithRetry(this.client.model, send(this.client), signal, separate);
      } catch (error) {
        if (!this.triesFallbackAfter(error, signal)) throw error;
        return await this.completeWithRetry(this.fallback!.model, send(this.fallback!), signal, separate);
      }
    };
    const digester = new ExtractiveSummarizer();
    return summarizeInCalls(separate, call, { mode: this.oversizedRange, digester, signal, ...(this.maxInputChars !== undefined ? { maxChars: this.maxInputChars } : {}) });
  }

  /** One call: the conversation as the agent sends it, then the instruction (suffixRequest.ts); reported as a `suffix` call with its cache reads. */
  private summarizeAsSuffix(suffix: ConversationSuffixClient, request: SummaryRequest, conversation: SummaryConversation, signal: AbortSignal | undefined): Promise<string> {
    const instruction = suffixInstruction(request, conversation);
    return this.completeWithRetry(this.client.model, (limits) => suffix.complete({ conversation, instruction, ...limits }), signal, request, "suffix");
  }

  /**
   * True when the fallback model is worth one try after `error`: there is one and it differs, and the
   * failure was not a cancellation, nor a network failure of the endpoint it would be tried on too.
   * Auth and quota failures qualify: a separate summary model (or its key) may be what was refused.
   */
  private triesFallbackAfter(error: unknown, signal: AbortSignal | undefined): boolean {
    const fallback = this.fallback;
    if (fallback === undefined || signal?.aborted) return false;
    if (fallback.model === this.model && this.fallbackSharesEndpoint) return false;
    const failure = classifySummaryFailure(error);
    if (failure.kind === "aborted") return false;
    return !(failure.kind === "network" && this.fallbackSharesEndpoint);
  }

  /** One call (`send` to `model`), plus one retry after a 429/503 whose `Retry-After` is within the bound. */
  private async completeWithRetry(model: string, send: Send, signal: AbortSignal | undefined, request: SummaryRequest, kind?: "suffix"): Promise<string> {
    try {
      return await this.complete(model, send, signal, request, kind);
    } catch (error) {
      const waitMs = this.retryWaitMs(error);
      if (waitMs === undefined || signal?.aborted) throw error;
      await this.sleep(waitMs, signal);
      return await this.complete(model, send, signal, request, kind);
    }
  }

  /** The `Retry-After` wait worth honouring after `error`, if any (a passing rate limit or a 503, within the bound). */
  private retryWaitMs(error: unknown): number | undefined {
    const status = (error as { status?: unknown }).status;
    const rateLimited = isModelCallError(error) && error.kind === "rate_limit";
    if (!(rateLimited || (typeof status === "number" && RETRY_AFTER_STATUSES.has(status))) || isQuotaExhausted(error)) return undefined;
    const waitMs = retryAfterMs(error);
    return waitMs !== undefined && waitMs <= this.maxRetryAfterMs ? waitMs : undefined;
  }

  /**
   * One call, bounded as a whole by `timeoutMs`: a deadline aborts the call, answer included, and fails
   * as a timeout (a caller's abort stays an abort). The call is reported with its tokens (a suffix call
   * with its cache reads and writes), then its text is checked: an empty answer is an {@link EmptySummaryError}.
   */
  private async complete(model: string, send: Send, signal: AbortSignal | undefined, request: SummaryRequest, kind?: "suffix"): Promise<string> {
    signal?.throwIfAborted();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    const budget = Math.max(1, Math.ceil(request.maxTokens * 2));
    let answer;
    try {
      answer = await send({
        maxOutputTokens: Math.min(budget, this.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS),
        signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      });
    } catch (error) {
      if (!deadline.signal.aborted || signal?.aborted) throw error;
      throw new ModelCallError(`summary request (model ${model}) timed out after ${this.timeoutMs} ms (the whole request, response body included; auxiliary.compression.timeout)`, { kind: "timeout" });
    } finally {
      clearTimeout(timer);
    }
    const answered = answer.model ?? model;
    request.onModelCall?.({ model: answered, ...reportedTokens(answer.usage), ...(kind === "suffix" ? { request: kind } : {}) });
    const text = typeof answer.text === "string" ? stripReasoningBlocks(answer.text) : "";
    if (text.trim() === "") throw new EmptySummaryError(`summarizer returned an empty summary (model ${answered})`);
    return normalizeSummary(text);
  }
}
