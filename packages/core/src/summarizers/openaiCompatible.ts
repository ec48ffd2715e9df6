/** A summarizer backed by any OpenAI-compatible chat-completions endpoint, through the `openai` SDK. */
import OpenAI, { APIConnectionTimeoutError } from "openai";
import { buildSummaryPrompt, normalizeSummary } from "./prompt.js";
import { redactSecrets } from "./redact.js";
import { serializeTurns } from "./serialize.js";
import { EmptySummaryError, InvalidSummaryResponseError, classifySummaryFailure } from "./failures.js";
import type { SummaryRequest, Summarizer } from "./types.js";

/** Default request timeout: 120 s (the `auxiliary.compression.timeout` default). */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 120_000;

/** How to reach the endpoint. */
export interface OpenAICompatibleSummarizerOptions {
  /** e.g. "https://openrouter.ai/api/v1" or "http://127.0.0.1:8080/v1". */
  baseUrl: string;
  apiKey: string;
  /** The summary model. */
  model: string;
  /** The main model: tried once when `model` fails with a non-abort failure (if it differs). */
  fallbackModel?: string;
  /** Per-request timeout in milliseconds, response body included (default 120,000). */
  timeoutMs?: number;
  /** SDK retries per request (default 0: the failure ladder decides). */
  maxRetries?: number;
  /** A custom fetch implementation. */
  fetch?: typeof globalThis.fetch;
}

/** Summarizes with one chat-completions call: a single user message holding the prompt, no tools, no temperature. */
export class OpenAICompatibleSummarizer implements Summarizer {
  readonly name: string;
  readonly model: string;
  readonly fallbackModel: string | undefined;
  /** The bound on each request, headers and body together, in ms. */
  readonly timeoutMs: number;
  private readonly client: OpenAI;

  constructor(options: OpenAICompatibleSummarizerOptions) {
    this.model = options.model;
    this.fallbackModel = options.fallbackModel;
    this.name = `openai:${options.model}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      timeout: this.timeoutMs,
      maxRetries: options.maxRetries ?? 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Builds the prompt, asks the model (falling back once to the main model), and normalizes the answer. */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    const prompt = redactSecrets(buildSummaryPrompt(request, serializeTurns(request.messages)));
    try {
      return await this.complete(this.model, prompt, request.maxTokens, signal);
    } catch (error) {
      const fallback = this.fallbackModel;
      if (fallback === undefined || fallback === this.model || signal?.aborted) throw error;
      if (classifySummaryFailure(error).action === "abort") throw error;
      return await this.complete(fallback, prompt, request.maxTokens, signal);
    }
  }

  /**
   * One request, bounded as a whole by `timeoutMs`: the SDK's own timeout stops waiting for the headers
   * only, so a body that drips in slowly would outlive it; an overall deadline aborts the request, body
   * included, and fails as a timeout (a caller's abort stays an abort).
   */
  private async complete(model: string, prompt: string, maxTokens: number, signal: AbortSignal | undefined): Promise<string> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    let response: unknown;
    try {
      response = await this.client.chat.completions.create(
        { model, messages: [{ role: "user", content: prompt }], max_tokens: maxTokens },
        { signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal },
      );
    } catch (error) {
      if (!deadline.signal.aborted || signal?.aborted) throw error;
      throw new APIConnectionTimeoutError({ message: `summary request (model ${model}) timed out after ${this.timeoutMs} ms (the whole request, response body included; auxiliary.compression.timeout)` });
    } finally {
      clearTimeout(timer);
    }
    const choices = typeof response === "object" && response !== null ? (response as { choices?: unknown }).choices : undefined;
    if (!Array.isArray(choices)) {
      throw new InvalidSummaryResponseError(`summary endpoint returned no choices (model ${model})`);
    }
    const content: unknown = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content;
    if (content !== null && content !== undefined && typeof content !== "string") {
      throw new InvalidSummaryResponseError(`summary endpoint returned non-text content (model ${model})`);
    }
    if (typeof content !== "string" || content.trim() === "") {
      throw new EmptySummaryError(`summarizer returned an empty summary (model ${model})`);
    }
    return normalizeSummary(content);
  }
}
