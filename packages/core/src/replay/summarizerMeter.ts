/**
 * What summaries cost and what the summary model is shown: a summarizer wrapper that records, for every
 * summary it returns, the prompts an LLM summarizer sends for that request (the template and the
 * serialized turns, as an `LlmSummarizer` builds them: several for a range longer than the model's
 * input, summarizers/summaryCalls.ts) and the tokens of each call, those the API reported when a live LLM
 * summarizer made it. The replay prices these calls at the summary model's price; wrapped around the offline summarizer, they are what an LLM would have
 * been sent, and the fidelity eval scores the prompts (`promptRecall`) without calling a model.
 */
import { ExtractiveSummarizer } from "../summarizers/extractive.js";
import { chunkedRequests, digestCall, DEFAULT_OVERSIZED_RANGE, summaryPromptFor, type OversizedRangeMode } from "../summarizers/summaryCalls.js";
import type { Summarizer, SummaryModelCall, SummaryRequest } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";

/** One model call an LLM summarizer makes for a summary. */
export interface SummarizerCall {
  /** Tokens of the prompt sent for it. */
  inputTokens: number;
  /** Tokens of the summary it returns. */
  outputTokens: number;
}

/** Stands in a chunk's prompt for the summary the call before returned, which only a model could write. */
export const PREVIOUS_CALL_SUMMARY = "[the summary the previous call returned]";

/** Options of {@link MeteredSummarizer}. */
export interface MeteredSummarizerOptions {
  /**
   * How an LLM summarizer reads a range longer than its input (default: the wrapped LLM summarizer's own
   * setting, else `chunks`, the default of `auxiliary.compression.oversized_range`).
   */
  oversizedRange?: OversizedRangeMode;
  /** The input cap of one call, in characters (default `MAX_SERIALIZED_CHARS`). */
  maxInputChars?: number;
  /** Keep the prompts' text in {@link MeteredSummarizer.prompts} (default false: only their tokens). */
  keepPrompts?: boolean;
}

/**
 * Wraps `inner` and records one {@link SummarizerCall} per model call an LLM summarizer makes for each
 * summary `inner` returns (a call that fails is not recorded): the tokens the model's API reported when
 * `inner` reports its calls (`onModelCall`: a live LLM summarizer), else those of the prompts it would send. Its `name` is the inner summarizer's, so
 * engines that treat the offline summarizer apart (lcm offers `lcm_expand_query` only with an LLM) see
 * the same summarizer.
 */
export class MeteredSummarizer implements Summarizer {
  /** Every model call so far, oldest first. */
  readonly calls: SummarizerCall[] = [];
  /** With `keepPrompts`: per summary returned, oldest first, the prompts of its calls. */
  readonly prompts: string[][] = [];
  /** The summarizer it wraps. */
  readonly inner: Summarizer;
  /** How a range longer than the input cap is read. */
  readonly oversizedRange: OversizedRangeMode;
  readonly #counter: TokenCounter;
  readonly #maxInputChars: number | undefined;
  readonly #keepPrompts: boolean;

  constructor(inner: Summarizer, counter: TokenCounter, options: MeteredSummarizerOptions = {}) {
    this.inner = inner;
    this.#counter = counter;
    const own = (inner as { oversizedRange?: unknown }).oversizedRange;
    this.oversizedRange = options.oversizedRange ?? (own === "digest" || own === "chunks" ? own : DEFAULT_OVERSIZED_RANGE);
    this.#maxInputChars = options.maxInputChars;
    this.#keepPrompts = options.keepPrompts ?? false;
  }

  /** The wrapped summarizer's name. */
  get name(): string | undefined {
    return this.inner.name;
  }

  /** The inner summarizer's summary, recorded with the prompts an LLM summarizer sends for it and their token counts. */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    const reported: SummaryModelCall[] = [];
    const onModelCall = (call: SummaryModelCall): void => {
      reported.push(call);
      request.onModelCall?.(call);
    };
    const summary = await this.inner.summarize({ ...request, onModelCall }, signal);
    const prompts = await this.promptsFor(request);
    const outputTokens = this.#counter.count(summary);
    if (reported.some((call) => call.inputTokens !== undefined || call.outputTokens !== undefined)) {
      for (const call of reported) this.calls.push({ inputTokens: call.inputTokens ?? 0, outputTokens: call.outputTokens ?? 0 });
    } else {
      // a chunk after the first also reads the summary the call before wrote: priced at this summary's size
      prompts.forEach((prompt, i) => this.calls.push({ inputTokens: this.#counter.count(prompt) + (i > 0 ? outputTokens : 0), outputTokens }));
    }
    if (this.#keepPrompts) this.prompts.push(prompts);
    return summary;
  }

  /** The prompts an LLM summarizer sends for `request`, in order. */
  private async promptsFor(request: SummaryRequest): Promise<string[]> {
    const maxChars = this.#maxInputChars;
    if (this.oversizedRange === "digest") {
      const digested = await digestCall(request, new ExtractiveSummarizer(), maxChars);
      return [summaryPromptFor(digested.request, digested.turns)];
    }
    return chunkedRequests(request, maxChars).map((chunk, i) => summaryPromptFor(i === 0 ? chunk.request : { ...chunk.request, previousSummary: PREVIOUS_CALL_SUMMARY }, chunk.turns));
  }
}
