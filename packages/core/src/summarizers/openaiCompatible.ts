/**
 * A summarizer backed by any OpenAI-compatible chat-completions endpoint, through the `openai` SDK, which
 * is imported on the first request (importing the package or building a host does not load it). The
 * client is one {@link SummaryModelClient}; the failure ladder is {@link LlmSummarizer}'s. The SDK's
 * errors are recognised by failures.ts as they are. Its `suffix` sends a summary as the conversation's
 * suffix (`compression.summary_request: suffix`) where the endpoint caches prompts.
 */
import type OpenAI from "openai";
import { lazyAsync } from "../lazy.js";
import { InvalidSummaryResponseError } from "./failures.js";
import { DEFAULT_SUMMARY_TIMEOUT_MS, LlmSummarizer } from "./llmSummarizer.js";
import type { ConversationSuffixClient, ModelCallInput, ModelCallResult, SuffixCallInput, SummaryModelClient } from "./modelClient.js";
import type { OversizedRangeMode } from "./summaryCalls.js";
import type { ModelInfo } from "../engine/types.js";
import { applyAnthropicCacheControl } from "../caching/anthropicCacheControl.js";
import { isClaudeModel } from "../caching/status.js";
import { toOpenAIChatMessages } from "../providers/openaiChat.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";
import { knownToCachePrompts, OPENROUTER_BASE_URL, providerEndpoint, sameEndpoint } from "./endpoints.js";


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
  /** Whether the endpoint caches prompts by their prefix (default: known for OpenAI and OpenRouter); a suffix request is sent only where it does. */
  promptCaching?: boolean;
  /** The lifetime of the cache markers a suffix request to a Claude model on OpenRouter places (`prompt_caching.cache_ttl`; default "5m"). */
  cacheTtl?: CacheTtl;
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
  /** Whether the endpoint caches prompts by their prefix (default: {@link knownToCachePrompts}). */
  promptCaching?: boolean | undefined;
  /** The lifetime of the cache markers a suffix request to a Claude model on OpenRouter places (default "5m"). */
  cacheTtl?: CacheTtl | undefined;
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

/** A chat completion as a call's result: the first choice's text and the tokens (cache reads and OpenRouter's cache writes among them). */
function answerOf(response: unknown, model: string): ModelCallResult & { toolCalls: string[] } {
  const choices = typeof response === "object" && response !== null ? (response as { choices?: unknown }).choices : undefined;
  if (!Array.isArray(choices)) throw new InvalidSummaryResponseError(`summary endpoint returned no choices (model ${model})`);
  const message = (choices[0] as { message?: { content?: unknown; tool_calls?: unknown } } | undefined)?.message;
  const content: unknown = message?.content;
  if (content !== null && content !== undefined && typeof content !== "string") {
    throw new InvalidSummaryResponseError(`summary endpoint returned non-text content (model ${model})`);
  }
  const toolCalls = Array.isArray(message?.tool_calls) ? message.tool_calls.map((call: { function?: { name?: unknown } }) => String(call.function?.name ?? "?")) : [];
  return { text: typeof content === "string" ? content : "", usage: reportedUsage(response), toolCalls };
}

/**
 * One chat-completions call per prompt: a single user message, no tools, no temperature and no
 * `max_tokens` (the budget is guidance in the prompt; a cap would cut summaries off).
 */
class OpenAICompatibleClient implements SummaryModelClient {
  readonly provider = "openai";
  readonly suffix: ConversationSuffixClient;

  constructor(
    readonly model: string,
    private readonly sdk: () => Promise<OpenAI>,
    endpoint: OpenAICompatibleEndpoint,
  ) {
    this.suffix = new OpenAICompatibleSuffix(model, sdk, endpoint);
  }

  async complete({ prompt, signal }: ModelCallInput): Promise<ModelCallResult> {
    const client = await this.sdk();
    const response: unknown = await client.chat.completions.create({ model: this.model, messages: [{ role: "user", content: prompt }] }, { signal });
    const { toolCalls: _calls, ...answer } = answerOf(response, this.model);
    return answer;
  }
}

/**
 * The conversation's suffix on a chat-completions endpoint that caches prompts by their prefix: the
 * agent's messages as the API takes them (a Claude model on OpenRouter with the `cache_control` markers
 * the agent's requests carry), its tool definitions, no `tool_choice` the agent does not send, then the
 * instruction as a final user message.
 */
class OpenAICompatibleSuffix implements ConversationSuffixClient {
  constructor(
    private readonly model: string,
    private readonly sdk: () => Promise<OpenAI>,
    private readonly endpoint: OpenAICompatibleEndpoint,
  ) {}

  obstacle(conversation: ModelInfo): string | undefined {
    if (conversation.model !== this.model) return `the summary model ${this.model} is not the conversation's model ${conversation.model}`;
    const served = conversation.baseUrl ?? providerEndpoint(conversation.provider);
    if (served === undefined) return `the conversation's endpoint is not known (model.base_url, or model.provider openai or openrouter)`;
    if (!sameEndpoint(served, this.endpoint.baseUrl)) return `the conversation is served at ${served}, the summary model at ${this.endpoint.baseUrl}: their prompt caches are apart`;
    if (!(this.endpoint.promptCaching ?? knownToCachePrompts(this.endpoint.baseUrl))) return `${this.endpoint.baseUrl} is not known to cache prompts`;
    return undefined;
  }

  async complete({ conversation, instruction, signal }: SuffixCallInput): Promise<ModelCallResult> {
    const marked = sameEndpoint(this.endpoint.baseUrl, OPENROUTER_BASE_URL) && isClaudeModel(this.model) ? applyAnthropicCacheControl(conversation.messages, { ttl: this.endpoint.cacheTtl ?? "5m", nativeAnthropic: false }) : conversation.messages;
    const tools = conversation.tools === undefined || conversation.tools.length === 0 ? {} : { tools: [...conversation.tools] };
    const body = { model: this.model, messages: [...toOpenAIChatMessages(marked), { role: "user", content: instruction }], ...tools };
    const client = await this.sdk();
    const response: unknown = await client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal });
    const { toolCalls, ...answer } = answerOf(response, this.model);
    if (answer.text.trim() === "" && toolCalls.length > 0) throw new InvalidSummaryResponseError(`the model answered the suffix request with a tool call (${toolCalls.join(", ")}) instead of the summary (model ${this.model})`);
    return answer;
  }
}

/** The prompt and completion tokens a chat-completions response reports, when it reports them, and its cache reads and writes. */
function reportedUsage(response: unknown): NonNullable<ModelCallResult["usage"]> {
  type Usage = { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } };
  const usage = typeof response === "object" && response !== null ? (response as { usage?: Usage }).usage : undefined;
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  const out: NonNullable<ModelCallResult["usage"]> = {};
  const fields = { inputTokens: number(usage?.prompt_tokens), outputTokens: number(usage?.completion_tokens), cacheReadTokens: number(usage?.prompt_tokens_details?.cached_tokens), cacheWriteTokens: number(usage?.prompt_tokens_details?.cache_write_tokens) };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key as keyof typeof fields] = value;
  return out;
}

/** A model client for an OpenAI-compatible chat-completions endpoint (what {@link OpenAICompatibleSummarizer} calls). */
export function openAICompatibleClient(model: string, endpoint: OpenAICompatibleEndpoint): SummaryModelClient {
  return new OpenAICompatibleClient(model, sdkFor(endpoint), endpoint);
}

/**
 * Summarizes with one chat-completions call per prompt: a single user message holding the prompt, no
 * tools, no temperature and no `max_tokens`. Reasoning blocks the model writes are stripped from its answer.
 */
export class OpenAICompatibleSummarizer extends LlmSummarizer {
  constructor(options: OpenAICompatibleSummarizerOptions) {
    const endpoint = { baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS, maxRetries: options.maxRetries, fetch: options.fetch, promptCaching: options.promptCaching, cacheTtl: options.cacheTtl };
    const sdk = sdkFor(endpoint);
    const fallbackBaseUrl = options.fallbackBaseUrl ?? options.baseUrl;
    const fallbackApiKey = options.fallbackApiKey ?? options.apiKey;
    const sharesEndpoint = fallbackBaseUrl === options.baseUrl && fallbackApiKey === options.apiKey;
    const fallbackEndpoint = sharesEndpoint ? endpoint : { ...endpoint, baseUrl: fallbackBaseUrl, apiKey: fallbackApiKey, promptCaching: undefined };
    const fallbackSdk = sharesEndpoint ? sdk : sdkFor(fallbackEndpoint);
    super({
      client: new OpenAICompatibleClient(options.model, sdk, endpoint),
      fallback: options.fallbackModel === undefined ? undefined : new OpenAICompatibleClient(options.fallbackModel, fallbackSdk, fallbackEndpoint),
      fallbackSharesEndpoint: sharesEndpoint,
      timeoutMs: options.timeoutMs,
      maxRetryAfterMs: options.maxRetryAfterMs,
      sleep: options.sleep,
      oversizedRange: options.oversizedRange,
      maxInputChars: options.maxInputChars,
    });
  }
}
