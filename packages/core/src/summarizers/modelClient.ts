/**
 * The model client an {@link LlmSummarizer} asks for summaries: one prompt in, one text out, with the
 * tokens the API reported and the model that answered. A client is all a vendor adds (the OpenAI-compatible
 * and Anthropic clients here, the AI SDK's and LangChain's in their adapter packages); the summarizer
 * around it owns the failure ladder. A client reports a failure the ladder must tell apart by throwing a
 * {@link ModelCallError} (errors of the `openai` SDK, socket errors, aborts and timeouts are recognised as
 * they are; see failures.ts).
 */

import type { ModelInfo } from "../engine/types.js";
import type { SummaryConversation } from "./types.js";

/** What one model call is asked. */
export interface ModelCallInput {
  /** The whole prompt, sent as one user message. */
  prompt: string;
  /**
   * The most the answer may take, in tokens: for an API that requires a cap (Anthropic's Messages API).
   * The summary's budget is a target stated in the prompt, so a client whose API needs no cap sends none
   * and a model's own output limit never cuts a summary short.
   */
  maxOutputTokens: number;
  /** Aborts the call: the caller's cancellation and the summarizer's deadline (`timeoutMs`) together. */
  signal: AbortSignal;
}

/** What one model call answered. */
export interface ModelCallResult {
  /** The answer's text (empty when the model wrote none). */
  text: string;
  /** The model that answered, as it is priced and reported (default: the client's `model`). */
  model?: string | undefined;
  /** Tokens the API reported for the call (`inputTokens`: all of them, cache reads and writes included); absent when it reported none. */
  usage?: { inputTokens?: number | undefined; outputTokens?: number | undefined; cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined } | undefined;
}

/** What one suffix call is asked: the conversation as the agent sends it, then one instruction. */
export interface SuffixCallInput {
  conversation: SummaryConversation;
  /** The final user message: which range to summarize, into which template, under which rules (suffixRequest.ts). */
  instruction: string;
  /** As {@link ModelCallInput.maxOutputTokens}. */
  maxOutputTokens: number;
  signal: AbortSignal;
}

/**
 * A client that can ask for a summary as the conversation's suffix (`compression.summary_request: suffix`;
 * docs/BEHAVIOUR.md, "A summary that reads the cache"): the agent's messages and tool definitions sent
 * as the agent sends them, and the instruction after them, so the provider reads the conversation from
 * its prompt cache. What caches where is the vendor's knowledge, so the client says when a suffix would
 * read nothing.
 */
export interface ConversationSuffixClient {
  /**
   * Why a suffix call would not read the cache of a conversation with `model` (another model, endpoint or
   * provider; a provider without prompt caching), in words for the compaction report; undefined when it would.
   */
  obstacle(model: ModelInfo): string | undefined;
  /**
   * Sends the conversation's messages (with its tool definitions, and no parameter the agent's requests
   * do not send, such as a `tool_choice`: Anthropic invalidates the messages' cache on one) and the
   * instruction; rejects like {@link SummaryModelClient.complete}, with an `invalid` failure when the
   * model answered with a tool call instead of text.
   */
  complete(input: SuffixCallInput): Promise<ModelCallResult>;
}

/** A model a summarizer can send one prompt to. */
export interface SummaryModelClient {
  /** The model's id: the summarizer's name (`<provider>:<model>`) and the price looked up for its calls. */
  readonly model: string;
  /** Who serves it, for the summarizer's name ("openai", "anthropic", "ai-sdk", "langchain"). */
  readonly provider: string;
  /** Sends `input.prompt` and resolves with the answer; rejects with a {@link ModelCallError} (or an error failures.ts recognises). */
  complete(input: ModelCallInput): Promise<ModelCallResult>;
  /** Present when the client can send a summary request as the conversation's suffix. */
  readonly suffix?: ConversationSuffixClient | undefined;
}

/**
 * How a failed call is handled (docs/BEHAVIOUR.md, "The compression algorithm"): `auth`, `quota`,
 * `rate_limit` and `network` abort the compaction (the conversation is kept as it was, the summarizer
 * cools down); `timeout`, `server`, `invalid`, `malformed` and `other` fall back to the offline summary.
 * A `rate_limit` or a 503 `server` failure whose `retryAfterMs` is short is retried once first.
 */
export type ModelCallErrorKind = "auth" | "quota" | "rate_limit" | "network" | "timeout" | "server" | "invalid" | "malformed" | "other";

/** What a {@link ModelCallError} carries besides its message. */
export interface ModelCallErrorInfo {
  kind: ModelCallErrorKind;
  /** The HTTP status, when the API answered with one. */
  status?: number | undefined;
  /** How long the API asked to wait before another call (its `Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** The error the client caught. */
  cause?: unknown;
}

/** A model call's failure, classified by the client that made it, for the summarizer's failure ladder. */
export class ModelCallError extends Error {
  readonly kind: ModelCallErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, info: ModelCallErrorInfo) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.name = "ModelCallError";
    this.kind = info.kind;
    this.status = info.status;
    this.retryAfterMs = info.retryAfterMs;
  }
}

/**
 * The kind of an HTTP API's error status: 401/403 `auth`, 429 `rate_limit` (`quota` when its text says
 * the quota or credit is spent), 5xx `server` (529, Anthropic's overloaded, included), else `other`.
 */
export function httpErrorKind(status: number, text = ""): ModelCallErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (QUOTA_TEXT.test(text)) return "quota";
  if (status === 429) return "rate_limit";
  return status >= 500 ? "server" : "other";
}

/** Words of an error body that mean the quota or the credit is spent (waiting does not help). */
export const QUOTA_TEXT = /insufficient_quota|quota|billing|credit balance|out of credits/i;
