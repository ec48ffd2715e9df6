/**
 * The summaries a replay attributes to a request: the calls a metered summarizer recorded since the
 * request before, summed, each summary asked as the conversation's suffix (`compression.summary_request:
 * suffix`) priced as the prefix-cache model serves it at that moment — the conversation with the agent's
 * cache breakpoints, read where the agent's last request left it cached, written where it is new, and
 * the instruction after it uncached. Pure.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { CacheRequest, RequestCacheAccounting } from "../caching/prefixCacheModel.js";
import type { SummarizerCall } from "./summarizerMeter.js";

/** Summaries written since the request before: calls and tokens, and what suffix calls read from and wrote to the cache. */
export interface SummariesSince {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Calls sent as the conversation's suffix, and the input tokens they read from and wrote to the prompt cache. */
  suffixCalls: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** The cache request a suffix call makes: the conversation with `breakpoints` placed as on the agent's requests, then the instruction. */
export function suffixCacheRequest(
  call: SummarizerCall & { suffix: NonNullable<SummarizerCall["suffix"]> },
  at: { timestampMs: number; model: string; account: string },
  breakpoints: (messages: readonly ChatMessage[]) => ChatMessage[],
  countOne: (message: ChatMessage) => number,
): CacheRequest {
  const { messages, instruction, instructionTokens } = call.suffix;
  return {
    ...at,
    messages: [...breakpoints(messages), { role: "user", content: instruction }],
    tokensPerMessage: [...messages.map(countOne), instructionTokens],
    outputTokens: call.outputTokens,
  };
}

/** `fresh` summed; each suffix call's input is what `cacheOf` says its cache request read, wrote and sent. */
export function summariesSince(fresh: readonly SummarizerCall[], cacheOf: (call: SummarizerCall & { suffix: NonNullable<SummarizerCall["suffix"]> }) => RequestCacheAccounting): SummariesSince {
  const sum: SummariesSince = { calls: 0, inputTokens: 0, outputTokens: 0, suffixCalls: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  for (const call of fresh) {
    sum.calls += 1;
    sum.outputTokens += call.outputTokens;
    if (call.suffix === undefined) {
      sum.inputTokens += call.inputTokens;
      continue;
    }
    const accounting = cacheOf({ ...call, suffix: call.suffix });
    sum.suffixCalls += 1;
    sum.inputTokens += accounting.inputTokens;
    sum.cacheReadTokens += accounting.cacheReadTokens;
    sum.cacheWriteTokens += accounting.cacheWriteTokens;
  }
  return sum;
}
