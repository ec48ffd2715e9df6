/**
 * A summarizer backed by Anthropic's Messages API (`auxiliary.compression.provider: anthropic`), through
 * `@anthropic-ai/sdk`, imported on the first request. The client is one {@link SummaryModelClient}: it
 * sends the prompt as one user message with the `max_tokens` the API requires and maps the SDK's errors
 * to {@link ModelCallError}s; the failure ladder is {@link LlmSummarizer}'s. Its `suffix` sends a summary as
 * the conversation's suffix (`compression.summary_request: suffix`).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { lazyAsync } from "../lazy.js";
import { InvalidSummaryResponseError, headersRetryAfterMs, type ResponseHeaders } from "./failures.js";
import { DEFAULT_SUMMARY_TIMEOUT_MS, LlmSummarizer, type LlmSummarizerOptions } from "./llmSummarizer.js";
import { httpErrorKind, ModelCallError, type ConversationSuffixClient, type ModelCallInput, type ModelCallResult, type SuffixCallInput, type SummaryModelClient } from "./modelClient.js";
import type { ModelInfo } from "../engine/types.js";
import { applyAnthropicCacheControl } from "../caching/anthropicCacheControl.js";
import { cachingProvider } from "../caching/status.js";
import { toAnthropicMessages } from "../providers/anthropicAdapter.js";
import type { CacheTtl } from "../providers/anthropicFacts.js";

/** Anthropic's API root; the SDK posts to `<root>/v1/messages`. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** How to reach the Messages API, and the ladder's settings. */
export interface AnthropicSummarizerOptions extends Omit<LlmSummarizerOptions, "client" | "fallback" | "fallbackSharesEndpoint" | "name"> {
  apiKey: string;
  /** The API root (default https://api.anthropic.com; a trailing `/v1` is accepted). */
  baseUrl?: string | undefined;
  /** The summary model, e.g. "claude-haiku-4-5". */
  model: string;
  /** Tried once on the same endpoint when `model` fails (anything but a cancellation), if it differs. */
  fallbackModel?: string | undefined;
  /** SDK retries per request (default 0: the failure ladder decides). */
  maxRetries?: number | undefined;
  /** A custom fetch implementation. */
  fetch?: typeof globalThis.fetch | undefined;
  /** The lifetime of the cache markers a suffix request places, as the agent's requests place them (`prompt_caching.cache_ttl`; default "5m"). */
  cacheTtl?: CacheTtl | undefined;
}

/** The SDK module, imported on first use and shared. */
const loadSdk = lazyAsync(() => import("@anthropic-ai/sdk"));

/** `baseUrl` as the SDK's root: without a trailing slash or `/v1`. */
function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** The first socket error code in `error`'s cause chain, if any. */
function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** A Messages API answer as a call's result: its text blocks, the model, and the tokens (cache reads and writes, when any, apart and in the input). */
function answerOf(response: Anthropic.Message, model: string): ModelCallResult {
  if (!Array.isArray(response?.content)) throw new InvalidSummaryResponseError(`Messages API returned no content (model ${model})`);
  const text = response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  const usage = response.usage;
  const read = usage?.cache_read_input_tokens ?? 0;
  const written = usage?.cache_creation_input_tokens ?? 0;
  const input = usage ? (usage.input_tokens ?? 0) + written + read : undefined;
  const cache = { ...(read > 0 ? { cacheReadTokens: read } : {}), ...(written > 0 ? { cacheWriteTokens: written } : {}) };
  return { text, model: typeof response.model === "string" ? response.model : model, usage: { inputTokens: input, outputTokens: usage?.output_tokens, ...cache } };
}

/** A Messages API call per prompt: one user message, `max_tokens` from the call, no system prompt, no tools. */
class AnthropicClient implements SummaryModelClient {
  readonly provider = "anthropic";
  readonly suffix: ConversationSuffixClient;

  constructor(
    readonly model: string,
    private readonly sdk: () => Promise<Anthropic>,
    baseUrl: string,
    cacheTtl: CacheTtl,
  ) {
    this.suffix = new AnthropicSuffix(model, sdk, baseUrl, cacheTtl);
  }

  async complete({ prompt, maxOutputTokens, signal }: ModelCallInput): Promise<ModelCallResult> {
    const client = await this.sdk();
    let response: Anthropic.Message;
    try {
      response = await client.messages.create({ model: this.model, max_tokens: maxOutputTokens, messages: [{ role: "user", content: prompt }] }, { signal });
    } catch (error) {
      throw await modelCallError(error, this.model);
    }
    return answerOf(response, this.model);
  }
}

/**
 * The conversation's suffix on the Messages API: the agent's messages with the cache markers its requests
 * carry (system_and_3, caching/anthropicCacheControl.ts), its tool definitions, and no `tool_choice` (a
 * changed one invalidates the cached messages; the instruction forbids tool calls instead), then the
 * instruction. A Claude model caches on the Messages API, so only the model and the endpoint must match.
 */
class AnthropicSuffix implements ConversationSuffixClient {
  constructor(
    private readonly model: string,
    private readonly sdk: () => Promise<Anthropic>,
    private readonly baseUrl: string,
    private readonly cacheTtl: CacheTtl,
  ) {}

  obstacle(conversation: ModelInfo): string | undefined {
    if (conversation.model !== this.model) return `the summary model ${this.model} is not the conversation's model ${conversation.model}`;
    const root = conversation.baseUrl ?? (conversation.provider !== undefined && cachingProvider(conversation.provider) === "Anthropic" ? ANTHROPIC_BASE_URL : undefined);
    if (root === undefined) return `the conversation's provider is ${conversation.provider ?? "not set (model.provider)"}, not Anthropic's Messages API`;
    if (apiRoot(root) !== apiRoot(this.baseUrl)) return `the conversation is served at ${root}, the summary model at ${this.baseUrl}: their prompt caches are apart`;
    return undefined;
  }

  async complete({ conversation, instruction, maxOutputTokens, signal }: SuffixCallInput): Promise<ModelCallResult> {
    const marked = applyAnthropicCacheControl(conversation.messages, { ttl: this.cacheTtl, nativeAnthropic: true });
    const tools = conversation.tools === undefined || conversation.tools.length === 0 ? {} : { tools: [...conversation.tools] };
    const params = toAnthropicMessages([...marked, { role: "user", content: instruction }], { model: this.model, maxTokens: maxOutputTokens, ...tools });
    const client = await this.sdk();
    let response: Anthropic.Message;
    try {
      response = await client.messages.create(params, { signal });
    } catch (error) {
      throw await modelCallError(error, this.model);
    }
    const answer = answerOf(response, this.model);
    const called = response.content.flatMap((block) => (block.type === "tool_use" ? [block.name] : []));
    if (answer.text.trim() === "" && called.length > 0) throw new InvalidSummaryResponseError(`the model answered the suffix request with a tool call (${called.join(", ")}) instead of the summary (model ${this.model})`);
    return answer;
  }
}

/**
 * The SDK's error as the ladder reads it: an API status or a connection failure as a {@link ModelCallError},
 * the caller's abort as an `AbortError`, anything else (a body that is not JSON) as it is.
 */
async function modelCallError(error: unknown, model: string): Promise<unknown> {
  const sdk = await loadSdk();
  if (error instanceof sdk.APIUserAbortError) return new DOMException(`Messages API call (model ${model}) aborted`, "AbortError");
  if (!(error instanceof sdk.APIError)) return error;
  const message = `Messages API (model ${model}): ${error.message}`;
  if (error instanceof sdk.APIConnectionTimeoutError) return new ModelCallError(message, { kind: "timeout", cause: error });
  if (error instanceof sdk.APIConnectionError) {
    const code = causeCode(error.cause);
    return new ModelCallError(code ? `${message} (${code})` : message, { kind: "network", cause: error });
  }
  const status = error.status ?? 0;
  const kind = httpErrorKind(status, [error.type, error.errorCode, error.apiMessage, error.message].filter(Boolean).join(" "));
  return new ModelCallError(message, { kind, status, retryAfterMs: headersRetryAfterMs(error.headers as ResponseHeaders | undefined), cause: error });
}

/** An `@anthropic-ai/sdk` client for the endpoint, built on first use. */
function sdkFor(options: AnthropicSummarizerOptions): () => Promise<Anthropic> {
  return lazyAsync(async () => {
    const { default: AnthropicSdk } = await loadSdk();
    return new AnthropicSdk({
      apiKey: options.apiKey,
      baseURL: apiRoot(options.baseUrl ?? ANTHROPIC_BASE_URL),
      timeout: options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  });
}

/** A model client for Anthropic's Messages API (what {@link AnthropicSummarizer} calls). */
export function anthropicClient(options: AnthropicSummarizerOptions): SummaryModelClient {
  return new AnthropicClient(options.model, sdkFor(options), options.baseUrl ?? ANTHROPIC_BASE_URL, options.cacheTtl ?? "5m");
}

/** Summarizes with one Messages API call per prompt, through the LLM summarizer's failure ladder. */
export class AnthropicSummarizer extends LlmSummarizer {
  constructor(options: AnthropicSummarizerOptions) {
    const { apiKey: _key, baseUrl = ANTHROPIC_BASE_URL, model, fallbackModel, maxRetries: _retries, fetch: _fetch, cacheTtl = "5m", ...ladder } = options;
    const sdk = sdkFor(options);
    const client = (id: string) => new AnthropicClient(id, sdk, baseUrl, cacheTtl);
    super({ ...ladder, client: client(model), fallback: fallbackModel === undefined ? undefined : client(fallbackModel), fallbackSharesEndpoint: true });
  }
}
