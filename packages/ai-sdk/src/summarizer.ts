/**
 * Summaries written by any AI SDK language model (the host app's own, on any provider): a model client of
 * `@context-engine/core/summarizers` that sends each summary prompt through `generateText`, so the
 * compressor's prompts and failure ladder (timeout, one Retry-After retry, fallback model, cooldowns, the
 * offline fallback, the verbatim guard) apply as to the built-in LLM summarizer, and each call is reported
 * with the tokens the provider counted. The AI SDK's errors are classified by name (`AI_APICallError`, …),
 * so any copy of `ai` 6 or 7 works.
 */
import { generateText } from "ai";
import { headersRetryAfterMs, httpErrorKind, LlmSummarizer, ModelCallError, type LlmSummarizerOptions, type ModelCallInput, type ModelCallResult, type SummaryModelClient } from "@context-engine/core/summarizers";

/**
 * An AI SDK language model: a provider's model of any specification version the installed `ai` takes
 * (`LanguageModelV3` with ai 6, `LanguageModelV4` with ai 7), or a gateway model id.
 */
export type AiSdkLanguageModel = string | { readonly specificationVersion: string; readonly provider: string; readonly modelId: string };

/** Options of {@link aiSdkSummarizer}: the ladder's settings, and a model to try once when `model` fails. */
export interface AiSdkSummarizerOptions extends Omit<LlmSummarizerOptions, "client" | "fallback" | "fallbackSharesEndpoint"> {
  /** Tried once when the summary model fails (anything but a cancellation), e.g. the app's main model. */
  fallbackModel?: AiSdkLanguageModel | undefined;
}

type GenerateTextModel = Parameters<typeof generateText>[0]["model"];

/** The fields of the AI SDK's `APICallError` the classification reads. */
interface ApiCallErrorFields {
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  message: string;
}

/** The AI SDK error class `error` is an instance of, by its name (`AI_APICallError`), if any. */
function aiErrorName(error: unknown): string | undefined {
  const name = error instanceof Error ? error.name : undefined;
  return name?.startsWith("AI_") ? name : undefined;
}

/**
 * `error` as the ladder reads it: an API status as a {@link ModelCallError} of its kind (with the wait its
 * `Retry-After` asks for), a missing key as `auth`, an unreadable answer as `malformed` or `invalid`;
 * anything else (an abort, a connection failure with its socket code) as it is.
 */
export function aiSdkCallError(error: unknown, model: string): unknown {
  const name = aiErrorName(error);
  if (name === "AI_RetryError") return aiSdkCallError((error as { lastError?: unknown }).lastError ?? error, model);
  const message = `AI SDK model ${model}: ${error instanceof Error ? error.message : String(error)}`;
  if (name === "AI_APICallError") {
    const { statusCode, responseHeaders, responseBody } = error as ApiCallErrorFields;
    if (statusCode === undefined) return error;
    return new ModelCallError(message, { kind: httpErrorKind(statusCode, `${responseBody ?? ""} ${message}`), status: statusCode, retryAfterMs: headersRetryAfterMs(responseHeaders), cause: error });
  }
  if (name === "AI_LoadAPIKeyError") return new ModelCallError(message, { kind: "auth", cause: error });
  if (name === "AI_JSONParseError" || name === "AI_EmptyResponseBodyError") return new ModelCallError(message, { kind: "malformed", cause: error });
  if (name === "AI_TypeValidationError" || name === "AI_InvalidResponseDataError" || name === "AI_NoContentGeneratedError") return new ModelCallError(message, { kind: "invalid", cause: error });
  return error;
}

/** One `generateText` call per prompt: no system prompt, no tools, no output cap, the AI SDK's own retries off (the ladder decides). */
class AiSdkClient implements SummaryModelClient {
  readonly provider = "ai-sdk";
  readonly model: string;

  constructor(private readonly languageModel: AiSdkLanguageModel) {
    this.model = typeof languageModel === "string" ? languageModel : languageModel.modelId;
  }

  async complete({ prompt, signal }: ModelCallInput): Promise<ModelCallResult> {
    try {
      const result = await generateText({ model: this.languageModel as GenerateTextModel, prompt, abortSignal: signal, maxRetries: 0 });
      const modelId = (result.response as { modelId?: unknown } | undefined)?.modelId;
      return { text: result.text, model: typeof modelId === "string" && modelId !== "" ? modelId : this.model, usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } };
    } catch (error) {
      throw aiSdkCallError(error, this.model);
    }
  }
}

/**
 * A summarizer over an AI SDK language model: `createContextHost({ summarizer: aiSdkSummarizer(model) })`
 * has the built-in compressor (and any engine that takes the host's summarizer) write its summaries with
 * `model`, through the same prompts and failure ladder as the built-in LLM summarizer. Its calls are
 * reported with the provider's token counts and priced at the model's id.
 */
export function aiSdkSummarizer(model: AiSdkLanguageModel, options: AiSdkSummarizerOptions = {}): LlmSummarizer {
  const { fallbackModel, ...ladder } = options;
  return new LlmSummarizer({ ...ladder, client: new AiSdkClient(model), fallback: fallbackModel === undefined ? undefined : new AiSdkClient(fallbackModel) });
}
