/**
 * Summaries written by any LangChain chat model (the app's own: ChatOpenAI, ChatAnthropic, a fake model in
 * tests): a model client of `@context-engine/core/summarizers` that `invoke`s the model with each summary
 * prompt, so the compressor's prompts and failure ladder (timeout, one Retry-After retry, fallback model,
 * cooldowns, the offline fallback, the verbatim guard) apply as to the built-in LLM summarizer, and each
 * call is reported with the model's `usage_metadata`. A provider's error is classified by its HTTP status
 * (`status`, with its `Retry-After`) or LangChain's `lc_error_code`.
 */
import { headersRetryAfterMs, httpErrorKind, LlmSummarizer, ModelCallError, type LlmSummarizerOptions, type ModelCallErrorKind, type ModelCallInput, type ModelCallResult, type ResponseHeaders, type SummaryModelClient } from "@context-engine/core/summarizers";

/** A LangChain chat model (`BaseChatModel`, or any runnable over one) as the summarizer calls it. */
export interface LangChainChatModel {
  invoke(input: Array<{ role: "user"; content: string }>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Options of {@link langchainSummarizer}: the ladder's settings, the model's id, and a model to try once when it fails. */
export interface LangChainSummarizerOptions extends Omit<LlmSummarizerOptions, "client" | "fallback" | "fallbackSharesEndpoint"> {
  /** The model's id, as its calls are reported and priced (default: the chat model's `model`, else its `modelName`, else its type). */
  model?: string | undefined;
  /** Tried once when the summary model fails (anything but a cancellation), e.g. the agent's main model. */
  fallbackModel?: LangChainChatModel | undefined;
}

/** LangChain's error codes (`lc_error_code`) the ladder tells apart. */
const LC_ERROR_KINDS: Record<string, ModelCallErrorKind> = { MODEL_AUTHENTICATION: "auth", MODEL_RATE_LIMIT: "rate_limit" };

/** The id a chat model goes by: `model`, `modelName`, else its LangChain type (`fake-list`). */
function modelIdOf(chatModel: LangChainChatModel): string {
  const fields = chatModel as { model?: unknown; modelName?: unknown; _llmType?: () => unknown };
  for (const id of [fields.model, fields.modelName, typeof fields._llmType === "function" ? fields._llmType() : undefined]) {
    if (typeof id === "string" && id !== "") return id;
  }
  return "langchain-chat-model";
}

/**
 * A provider's error as the ladder reads it: one with an HTTP `status` (the OpenAI and Anthropic SDKs'
 * errors LangChain passes on) or an `lc_error_code` as a {@link ModelCallError} of its kind; anything else
 * (an abort, a timeout, a socket error) as it is.
 */
export function langChainCallError(error: unknown, model: string): unknown {
  if (typeof error !== "object" || error === null) return error;
  const fields = error as { status?: unknown; headers?: unknown; lc_error_code?: unknown; message?: unknown; type?: unknown; code?: unknown };
  const message = `LangChain model ${model}: ${typeof fields.message === "string" ? fields.message : String(error)}`;
  if (typeof fields.status === "number") {
    const text = [fields.type, fields.code, fields.message].filter((part) => typeof part === "string").join(" ");
    return new ModelCallError(message, { kind: httpErrorKind(fields.status, text), status: fields.status, retryAfterMs: headersRetryAfterMs(fields.headers as ResponseHeaders | undefined), cause: error });
  }
  const kind = typeof fields.lc_error_code === "string" ? LC_ERROR_KINDS[fields.lc_error_code] : undefined;
  return kind === undefined ? error : new ModelCallError(message, { kind, cause: error });
}

/** The text of a chat model's answer: its `content` as a string, or its text blocks joined. */
function answerText(message: { content?: unknown }): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (typeof block === "string" ? block : (block as { type?: unknown; text?: unknown }).type === "text" && typeof (block as { text?: unknown }).text === "string" ? (block as { text: string }).text : "")).join("");
}

/** One `invoke` per prompt: a single user message, the call's abort signal. */
class LangChainClient implements SummaryModelClient {
  readonly provider = "langchain";

  constructor(
    private readonly chatModel: LangChainChatModel,
    readonly model: string,
  ) {}

  async complete({ prompt, signal }: ModelCallInput): Promise<ModelCallResult> {
    let answer: { content?: unknown; usage_metadata?: { input_tokens?: number; output_tokens?: number }; response_metadata?: { model_name?: unknown; model?: unknown } };
    try {
      answer = (await this.chatModel.invoke([{ role: "user", content: prompt }], { signal })) as typeof answer;
    } catch (error) {
      throw langChainCallError(error, this.model);
    }
    const served = answer?.response_metadata?.model_name ?? answer?.response_metadata?.model;
    const usage = answer?.usage_metadata;
    return { text: answerText(answer ?? {}), model: typeof served === "string" && served !== "" ? served : this.model, usage: usage ? { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } : undefined };
  }
}

/**
 * A summarizer over a LangChain chat model: `createContextHost({ summarizer: langchainSummarizer(chatModel) })`
 * has the built-in compressor (and any engine that takes the host's summarizer) write its summaries with
 * the model, through the same prompts and failure ladder as the built-in LLM summarizer. Build the model
 * with `maxRetries: 0` so the ladder decides about retries (LangChain retries a failed call six times by
 * default; the summarizer's timeout bounds them either way).
 */
export function langchainSummarizer(chatModel: LangChainChatModel, options: LangChainSummarizerOptions = {}): LlmSummarizer {
  const { model, fallbackModel, ...ladder } = options;
  return new LlmSummarizer({
    ...ladder,
    client: new LangChainClient(chatModel, model ?? modelIdOf(chatModel)),
    fallback: fallbackModel === undefined ? undefined : new LangChainClient(fallbackModel, modelIdOf(fallbackModel)),
  });
}
