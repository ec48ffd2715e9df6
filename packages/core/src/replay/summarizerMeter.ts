/**
 * What summaries cost: a summarizer wrapper that records, for every summary it returns, the tokens of
 * the prompt an LLM summarizer sends for that request (the template and the serialized turns, as
 * `OpenAICompatibleSummarizer` builds it) and of the summary. The replay prices these calls at the
 * summary model's price; wrapped around the offline summarizer, they are what an LLM would have been sent.
 */
import { buildSummaryPrompt } from "../summarizers/prompt.js";
import { serializeTurns } from "../summarizers/serialize.js";
import type { Summarizer, SummaryRequest } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";

/** One summary a metered summarizer returned. */
export interface SummarizerCall {
  /** Tokens of the prompt sent for it. */
  inputTokens: number;
  /** Tokens of the summary. */
  outputTokens: number;
}

/**
 * Wraps `inner` and records one {@link SummarizerCall} per summary it returns (a call that fails is not
 * recorded). Its `name` is the inner summarizer's, so engines that treat the offline summarizer apart
 * (lcm offers `lcm_expand_query` only with an LLM) see the same summarizer.
 */
export class MeteredSummarizer implements Summarizer {
  /** Every summary returned so far, oldest first. */
  readonly calls: SummarizerCall[] = [];
  /** The summarizer it wraps. */
  readonly inner: Summarizer;
  readonly #counter: TokenCounter;

  constructor(inner: Summarizer, counter: TokenCounter) {
    this.inner = inner;
    this.#counter = counter;
  }

  /** The wrapped summarizer's name. */
  get name(): string | undefined {
    return this.inner.name;
  }

  /** The inner summarizer's summary, recorded with its prompt's and its own token counts. */
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    const summary = await this.inner.summarize(request, signal);
    const prompt = buildSummaryPrompt(request, serializeTurns(request.messages));
    this.calls.push({ inputTokens: this.#counter.count(prompt), outputTokens: this.#counter.count(summary) });
    return summary;
  }
}
