/**
 * What summaries cost and what the summary model is shown: a summarizer wrapper that records, for every
 * summary it returns, the prompts an LLM summarizer sends for that request (the template and the
 * serialized turns, as an `LlmSummarizer` builds them: several for a range longer than the model's
 * input, summarizers/summaryCalls.ts) and the tokens of each call, those the API reported when a live LLM
 * summarizer made it. The replay prices these calls at the summary model's price; wrapped around the offline summarizer, they are what an LLM would have
 * been sent, and the fidelity eval scores the prompts (`promptRecall`) without calling a model. A request
 * that offers its conversation (`compression.summary_request: suffix`) is recorded as the conversation's
 * suffix — its prompt the conversation as the agent sent it and the instruction (summarizers/suffixRequest.ts),
 * its input for the replay to price on its prompt-cache model — when the summary model would send one
 * (suffixObstacle); else as the separate prompts.
 */
import type { ChatMessage } from "../messages/schema.js";
import { promptCachingStatus } from "../caching/status.js";
import { ExtractiveSummarizer } from "../summarizers/extractive.js";
import { suffixInstruction, suffixPromptText } from "../summarizers/suffixRequest.js";
import { chunkedRequests, digestCall, DEFAULT_OVERSIZED_RANGE, summaryPromptFor, type OversizedRangeMode } from "../summarizers/summaryCalls.js";
import type { Summarizer, SummaryConversation, SummaryModelCall, SummaryRequest } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";

/** One model call an LLM summarizer makes for a summary. */
export interface SummarizerCall {
  /** Tokens of the prompt sent for it (a suffix call: the conversation and the instruction). */
  inputTokens: number;
  /** Tokens of the summary it returns. */
  outputTokens: number;
  /**
   * A call sent as the conversation's suffix: the conversation's messages as the agent sent them, and the
   * instruction after them (its tokens, framing included). The replay prices its input as its prompt-cache
   * model serves it at that moment: the conversation mostly read from the cache.
   */
  suffix?: { messages: readonly ChatMessage[]; instruction: string; instructionTokens: number };
}

/**
 * Why an LLM summarizer of `summaryModel` would not send `conversation`'s summary as its suffix in a replay,
 * undefined when it would: another model, or a model and provider the replay models no prompt cache for
 * (caching/status.ts; the prefix-cache model is Anthropic's).
 */
export function replaySuffixObstacle(conversation: SummaryConversation, summaryModel: string): string | undefined {
  const { model, provider } = conversation.model;
  if (summaryModel !== model) return `the summary model ${summaryModel} is not the conversation's model ${model}`;
  const caching = promptCachingStatus(model, provider ?? "");
  return caching.enabled ? undefined : `the replay models no prompt cache here: ${caching.reason ?? "caching is off"}`;
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
  /**
   * The model an LLM summarizer would call, for whether it sends a request that offers its conversation as
   * the conversation's suffix ({@link replaySuffixObstacle}; default: the wrapped LLM summarizer's model, else
   * the conversation's own, as `auxiliary.compression.model` defaults to the main model).
   */
  summaryModel?: string | undefined;
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
  readonly #summaryModel: string | undefined;

  constructor(inner: Summarizer, counter: TokenCounter, options: MeteredSummarizerOptions = {}) {
    this.inner = inner;
    this.#counter = counter;
    const own = (inner as { oversizedRange?: unknown }).oversizedRange;
    this.oversizedRange = options.oversizedRange ?? (own === "digest" || own === "chunks" ? own : DEFAULT_OVERSIZED_RANGE);
    this.#maxInputChars = options.maxInputChars;
    this.#keepPrompts = options.keepPrompts ?? false;
    const innerModel = (inner as { model?: unknown }).model;
    this.#summaryModel = options.summaryModel ?? (typeof innerModel === "string" ? innerModel : undefined);
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
    const outputTokens = this.#counter.count(summary);
    const live = reported.some((call) => call.inputTokens !== undefined || call.outputTokens !== undefined);
    const { conversation } = request;
    const asSuffix = conversation !== undefined && (live ? reported.at(-1)?.request === "suffix" : replaySuffixObstacle(conversation, this.#summaryModel ?? conversation.model.model) === undefined);
    if (asSuffix) {
      this.recordSuffix(request, conversation, live ? reported : undefined, outputTokens);
      return summary;
    }
    const prompts = await this.promptsFor(request);
    if (live) {
      for (const call of reported) this.calls.push({ inputTokens: call.inputTokens ?? 0, outputTokens: call.outputTokens ?? 0 });
    } else {
      // a chunk after the first also reads the summary the call before wrote: priced at this summary's size
      prompts.forEach((prompt, i) => this.calls.push({ inputTokens: this.#counter.count(prompt) + (i > 0 ? outputTokens : 0), outputTokens }));
    }
    if (this.#keepPrompts) this.prompts.push(prompts);
    return summary;
  }

  /** A summary asked as `conversation`'s suffix: its one call (or the calls a live summarizer reported, the suffix last) and its prompt. */
  private recordSuffix(request: SummaryRequest, conversation: SummaryConversation, reported: readonly SummaryModelCall[] | undefined, outputTokens: number): void {
    const instruction = suffixInstruction(request, conversation);
    const instructionTokens = this.#counter.countMessages([{ role: "user", content: instruction }]);
    const suffix = { messages: conversation.messages, instruction, instructionTokens };
    const inputTokens = this.#counter.countMessages([...conversation.messages]) + instructionTokens;
    if (reported === undefined) this.calls.push({ inputTokens, outputTokens, suffix });
    else for (const call of reported) this.calls.push({ inputTokens: call.inputTokens ?? inputTokens, outputTokens: call.outputTokens ?? 0, ...(call.request === "suffix" ? { suffix } : {}) });
    if (this.#keepPrompts) this.prompts.push([suffixPromptText(conversation, instruction)]);
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
