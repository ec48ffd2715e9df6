/**
 * `compression.summary_request: suffix` on the compressor's side
 * (docs/BEHAVIOUR.md, "A summary that reads the cache"): whether a compaction offers its conversation
 * to the summarizer — only while the provider has reported prompt caching, the cache is warm and the
 * conversation leaves room for the summary in the window — the conversation a prepared range offers,
 * and what the report says of the request that wrote the summary. Whether the summary model can read that cache is the summarizer's
 * call (summarizers/llmSummarizer.ts). Pure.
 */
import type { ModelInfo, ToolSchema } from "../engine/types.js";
import type { SummaryConversation } from "../summarizers/types.js";
import type { CacheState } from "./cacheAwareTiming.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import type { SummaryLadderOutcome } from "./summaryLadder.js";

/** Room a suffix request keeps in the window beside the conversation for its instruction (about 1,000 tokens) and some margin. */
export const SUFFIX_INSTRUCTION_TOKENS = 2_000;
/** The summary's own room: its budget's double, as the summarizer caps a call's output, at most this. */
const MAX_SUMMARY_OUTPUT_TOKENS = 8_192;

/** What a compaction offers the summarizer with `summary_request: suffix`. */
export interface ConversationOffer {
  /** The conversation's model (the engine's). */
  model: ModelInfo;
  /** The agent's tool definitions (`CompressOptions.tools`). */
  tools?: readonly ToolSchema[] | undefined;
  /** Why the conversation is not offered (its cache is cold, the window is full); undefined when it is. */
  obstacle?: string | undefined;
}

/** The facts {@link conversationOffer} decides from. */
export interface OfferInput {
  model: ModelInfo;
  tools?: readonly ToolSchema[] | undefined;
  /** The session's prompt cache as the responses reported it (cacheTimingTracker.ts), and its TTL. */
  cache: CacheState;
  ttl: string;
  /** Tokens of the conversation now, and the summary budget. */
  conversationTokens: number;
  maxSummaryTokens: number;
}

/**
 * The offer of a compaction: the conversation is offered while the cache is warm (a response reported a
 * cache read or write, and came less than the TTL ago: a cold cache would be written again at more than
 * the input price, where a separate request sends the range alone) and while the conversation, the
 * instruction and the summary fit the window.
 */
export function conversationOffer(input: OfferInput): ConversationOffer {
  const { model, tools } = input;
  const room = input.conversationTokens + SUFFIX_INSTRUCTION_TOKENS + Math.min(2 * input.maxSummaryTokens, MAX_SUMMARY_OUTPUT_TOKENS);
  const obstacle =
    input.cache === "none"
      ? "no response reported a prompt-cache read or write yet (updateFromResponse), so there is no cache known to read"
      : input.cache === "expired"
        ? `the prompt cache has expired (no response for longer than the ${input.ttl} TTL): a suffix would write the conversation again`
        : room > model.contextLength
          ? `the conversation (${input.conversationTokens.toLocaleString("en-US")} tokens), the instruction and the summary do not fit the ${model.contextLength.toLocaleString("en-US")}-token window`
          : undefined;
  return { model, ...(tools === undefined ? {} : { tools }), ...(obstacle === undefined ? {} : { obstacle }) };
}

/** What of an engine {@link engineOffer} reads: its `summary_request`, its model and budget, its cache tracker. */
export interface OfferingEngine {
  readonly compression: { summary_request: "separate" | "suffix" };
  readonly model: ModelInfo;
  readonly maxSummaryTokens: number;
  readonly cacheTracker: { cacheState(sessionId: string): CacheState; readonly ttl: string } | undefined;
}

/** What a compaction of `engine`'s session `sessionId` offers its summarizer: undefined with `summary_request: separate`. */
export function engineOffer(engine: OfferingEngine, sessionId: string, tools: readonly ToolSchema[] | undefined, conversationTokens: number): ConversationOffer | undefined {
  const tracker = engine.cacheTracker;
  if (engine.compression.summary_request !== "suffix" || tracker === undefined) return undefined;
  return conversationOffer({ model: engine.model, tools, cache: tracker.cacheState(sessionId), ttl: tracker.ttl, conversationTokens, maxSummaryTokens: engine.maxSummaryTokens });
}

/** The conversation `prepared` offers under `offer`: the messages it was planned on and its range; undefined when none is offered. */
export function offeredConversation(prepared: PreparedCompaction, offer: ConversationOffer | undefined): SummaryConversation | undefined {
  if (offer === undefined || offer.obstacle !== undefined) return undefined;
  const start = prepared.middleFrom ?? prepared.plan.headEnd;
  const end = prepared.plan.tailStart;
  if (end <= start) return undefined;
  return { messages: prepared.conversation, ...(offer.tools === undefined ? {} : { tools: offer.tools }), model: offer.model, start, end };
}

/** How a summary was asked for, in `lastCompression.summaryRequest`: as the conversation's suffix, or separately and why. */
export interface SummaryRequestNote {
  mode: "suffix" | "separate";
  /** Why not as the suffix (when `separate`). */
  reason?: string;
}

/**
 * What the report says of the request behind `outcome` under `offer` (undefined with `summary_request:
 * separate`): `suffix` when a suffix call wrote the summary (a summary prepared in the background too),
 * else `separate` and why.
 */
export function summaryRequestNote(offer: ConversationOffer | undefined, outcome: SummaryLadderOutcome & { ok: true }): SummaryRequestNote | undefined {
  if (offer === undefined) return undefined;
  const last = outcome.modelCalls.at(-1);
  if (!outcome.fallbackUsed && last?.request === "suffix") return { mode: "suffix" };
  const separate = (reason: string): SummaryRequestNote => ({ mode: "separate", reason });
  if (offer.obstacle !== undefined) return separate(offer.obstacle);
  if (outcome.fallbackUsed) return separate(`the ${outcome.summarizer} summary was used${outcome.failure ? ` after: ${outcome.failure.reason}` : ""}`);
  if (last === undefined) return separate(`the summarizer ${outcome.summarizer} calls no model`);
  return separate(last.separateReason ?? `the summarizer ${outcome.summarizer} sends no conversation suffix`);
}
