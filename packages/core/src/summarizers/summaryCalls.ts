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
import { capSerializedInput, MAX_SERIALIZED_CHARS, serializeEach, serializeTurns } from "./serialize.js";
import type { Summarizer, SummaryRequest } from "./types.js";

/** How a range longer than the summary model's input cap is read: see the module comment. */
export type OversizedRangeMode = "chunks" | "digest";
/** The default {@link OversizedRangeMode}. */
export const DEFAULT_OVERSIZED_RANGE: OversizedRangeMode = "chunks";

/** Between two serialized messages in the transcript. */
const SEPARATOR_CHARS = 2;

/** One model call of a summary: its request and the serialized turns its prompt shows. */
export interface SummaryCall {
  request: SummaryRequest;
  /** `request.messages` as the summary model reads them (results labelled with calls anywhere in the range). */
  turns: string;
}

/** `messages` serialized once, split in order into runs whose text fits `maxChars` each (see {@link chunkTurns}). */
function serializedChunks(messages: readonly ChatMessage[], maxChars: number): Array<{ messages: ChatMessage[]; turns: string }> {
  const serialized = serializeEach(messages);
  const chunks: Array<{ messages: ChatMessage[]; turns: string[] }> = [];
  let current: { messages: ChatMessage[]; turns: string[] } = { messages: [], turns: [] };
  let size = 0;
  for (const [i, message] of messages.entries()) {
    const text = serialized[i]!;
    if (current.messages.length > 0 && size + SEPARATOR_CHARS + text.length > maxChars) {
      chunks.push(current);
      current = { messages: [], turns: [] };
      size = 0;
    }
    size += (current.messages.length > 0 ? SEPARATOR_CHARS : 0) + text.length;
    current.messages.push(message);
    current.turns.push(text);
  }
  if (current.messages.length > 0 || chunks.length === 0) chunks.push(current);
  // a run of one message too long for the cap is cut as a whole transcript is
  return chunks.map((chunk) => ({ messages: chunk.messages, turns: capSerializedInput(chunk.turns.join("\n\n"), maxChars) }));
}

/**
 * `messages` split, in order, into runs whose serialized transcript fits `maxChars` each (a message
 * too long for a run of its own is a run of its own; its body is truncated when serialized). One run
 * when the whole transcript fits.
 */
export function chunkTurns(messages: readonly ChatMessage[], maxChars = MAX_SERIALIZED_CHARS): ChatMessage[][] {
  return serializedChunks(messages, maxChars).map((chunk) => chunk.messages);
}

/**
 * The calls of the `chunks` mode, in order: the first is `request` with its first run of turns; each
 * later one updates the previous call's summary with the next run (its `previousSummary` is that
 * summary, filled in when the call before has answered; {@link summarizeInCalls} does it). The range is
 * serialized once.
 */
export function chunkedRequests(request: SummaryRequest, maxChars = MAX_SERIALIZED_CHARS): SummaryCall[] {
  return serializedChunks(request.messages, maxChars).map(({ messages, turns }, i) => {
    if (i === 0) return { request: { ...request, messages }, turns };
    const { goalContext: _goal, precedingSummary: _preceding, ...rest } = request;
    return { request: { ...rest, messages, previousSummary: "" }, turns };
  });
}

/** The one call of the `digest` mode: see {@link digestRequest}. */
export async function digestCall(request: SummaryRequest, digester: Summarizer, maxChars = MAX_SERIALIZED_CHARS, signal?: AbortSignal): Promise<SummaryCall> {
  const chunks = serializedChunks(request.messages, maxChars);
  const newest = chunks.at(-1)!;
  if (chunks.length <= 1) return { request, turns: newest.turns };
  const older = request.messages.slice(0, request.messages.length - newest.messages.length);
  const digest = await digester.summarize({ ...request, messages: older }, signal);
  return { request: { ...request, messages: newest.messages, previousSummary: digest }, turns: newest.turns };
}

/**
 * The one request of the `digest` mode: the newest turns that fit `maxChars`, and the older ones folded
 * into `digester`'s summary of them (updating the request's own previous summary, if any), given as the
 * previous summary to update. `request` itself when its turns fit.
 */
export async function digestRequest(request: SummaryRequest, digester: Summarizer, maxChars = MAX_SERIALIZED_CHARS, signal?: AbortSignal): Promise<SummaryRequest> {
  return (await digestCall(request, digester, maxChars, signal)).request;
}

/** The prompt a summary model reads for `request`: the template prompt over its serialized turns (`turns`, else serialized here), secrets redacted. */
export function summaryPromptFor(request: SummaryRequest, turns: string = serializeTurns(request.messages)): string {
  return redactSecrets(buildSummaryPrompt(request, turns));
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
  if (options.mode === "digest") {
    const digested = await digestCall(request, options.digester, maxChars, options.signal);
    return call(summaryPromptFor(digested.request, digested.turns));
  }
  let summary = "";
  for (const [i, chunk] of chunkedRequests(request, maxChars).entries()) {
    options.signal?.throwIfAborted();
    summary = await call(summaryPromptFor(i === 0 ? chunk.request : { ...chunk.request, previousSummary: summary }, chunk.turns));
  }
  return summary;
}
