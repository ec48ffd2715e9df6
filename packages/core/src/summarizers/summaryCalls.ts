/**
 * The model calls an LLM summarizer makes for one request. The turns a summary model reads are capped
 * (`MAX_SERIALIZED_CHARS`); a range whose transcript is longer is never cut in the middle:
 * - `chunks` (the default): the range is summarized in order, chunk by chunk, each call an iterative
 *   update of the summary the call before returned (the template's own update prompt), so every turn is
 *   read once; calls grow with the range.
 * - `digest`: one call; the oldest turns that do not fit are folded into an extractive digest (the
 *   offline summarizer's summary of them), handed to the model as the previous summary to update.
 * docs/BEHAVIOUR.md ("The summary model's input") has the figures behind the default. Pure but for the
 * digest, which runs the summarizer it is given.
 */
import type { ChatMessage } from "../messages/schema.js";
import { buildSummaryPrompt } from "./prompt.js";
import { redactSecrets } from "./redact.js";
import { MAX_SERIALIZED_CHARS, serializeEach, serializeTurns } from "./serialize.js";
import type { Summarizer, SummaryRequest } from "./types.js";

/** How a range longer than the summary model's input cap is read: see the module comment. */
export type OversizedRangeMode = "chunks" | "digest";
/** The default {@link OversizedRangeMode}. */
export const DEFAULT_OVERSIZED_RANGE: OversizedRangeMode = "chunks";

/** Between two serialized messages in the transcript. */
const SEPARATOR_CHARS = 2;

/**
 * `messages` split, in order, into runs whose serialized transcript fits `maxChars` each (a message
 * too long for a run of its own is a run of its own; its body is truncated when serialized). One run
 * when the whole transcript fits.
 */
export function chunkTurns(messages: readonly ChatMessage[], maxChars = MAX_SERIALIZED_CHARS): ChatMessage[][] {
  const chunks: ChatMessage[][] = [];
  let current: ChatMessage[] = [];
  let size = 0;
  const serialized = serializeEach(messages);
  for (const [i, message] of messages.entries()) {
    const chars = serialized[i]!.length;
    if (current.length > 0 && size + SEPARATOR_CHARS + chars > maxChars) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    size += (current.length > 0 ? SEPARATOR_CHARS : 0) + chars;
    current.push(message);
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}

/**
 * The requests of the `chunks` mode, in order: the first is `request` with its first run of turns; each
 * later one updates the previous call's summary with the next run (its `previousSummary` is that
 * summary, filled in when the call before has answered; {@link summarizeInCalls} does it).
 */
export function chunkedRequests(request: SummaryRequest, maxChars = MAX_SERIALIZED_CHARS): SummaryRequest[] {
  return chunkTurns(request.messages, maxChars).map((messages, i) => {
    if (i === 0) return { ...request, messages };
    const { goalContext: _goal, precedingSummary: _preceding, ...rest } = request;
    return { ...rest, messages, previousSummary: "" };
  });
}

/**
 * The one request of the `digest` mode: the newest turns that fit `maxChars`, and the older ones folded
 * into `digester`'s summary of them (updating the request's own previous summary, if any), given as the
 * previous summary to update. `request` itself when its turns fit.
 */
export async function digestRequest(request: SummaryRequest, digester: Summarizer, maxChars = MAX_SERIALIZED_CHARS, signal?: AbortSignal): Promise<SummaryRequest> {
  const chunks = chunkTurns(request.messages, maxChars);
  if (chunks.length <= 1) return request;
  const newest = chunks.at(-1)!;
  const older = request.messages.slice(0, request.messages.length - newest.length);
  const digest = await digester.summarize({ ...request, messages: older }, signal);
  return { ...request, messages: newest, previousSummary: digest };
}

/** The prompt a summary model reads for `request`: the template prompt over its serialized turns, secrets redacted. */
export function summaryPromptFor(request: SummaryRequest): string {
  return redactSecrets(buildSummaryPrompt(request, serializeTurns(request.messages)));
}

/** How {@link summarizeInCalls} reads a range. */
export interface SummaryCallOptions {
  mode: OversizedRangeMode;
  /** The cap of one call's serialized turns (default `MAX_SERIALIZED_CHARS`). */
  maxChars?: number;
  /** Writes the digest of the `digest` mode (the offline summarizer). */
  digester: Summarizer;
  signal?: AbortSignal | undefined;
}

/**
 * The summary of `request` through `call` (one model call per prompt): one call when its turns fit,
 * else per `options.mode`. Returns the last call's summary.
 */
export async function summarizeInCalls(request: SummaryRequest, call: (prompt: string) => Promise<string>, options: SummaryCallOptions): Promise<string> {
  const maxChars = options.maxChars ?? MAX_SERIALIZED_CHARS;
  if (options.mode === "digest") return call(summaryPromptFor(await digestRequest(request, options.digester, maxChars, options.signal)));
  let summary = "";
  for (const [i, chunk] of chunkedRequests(request, maxChars).entries()) {
    options.signal?.throwIfAborted();
    summary = await call(summaryPromptFor(i === 0 ? chunk : { ...chunk, previousSummary: summary }));
  }
  return summary;
}
