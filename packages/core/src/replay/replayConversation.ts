/**
 * The replay: a recorded conversation sent again request by request, as an agent sends it. Each
 * assistant message is the response to one request, and the request is the current context up to it.
 * Before a request the two layers run (docs/BEHAVIOUR.md, "Two layers"): gateway hygiene (85 %) when a user message came in
 * since the last request, then the agent layer (`engine.shouldCompress` with the last real prompt
 * tokens, or the outgoing request's estimate past `engine.requestLimitTokens`); a compaction replaces the context, and later transcript messages are appended to the
 * compacted list. Each request gets its cache breakpoints, its usage is fed back to the engine in the
 * provider's shape, and the prefix-cache model prices it, with the summaries written for it when they
 * were metered (a summary asked as the conversation's suffix on the same cache, just before the request).
 * The same requests without compaction are priced too, for comparison.
 */
import type { ChatMessage } from "../messages/schema.js";
import type { ContextEngine } from "../engine/ContextEngine.js";
import type { UsageReport } from "../engine/types.js";
import { InvalidEngineOutputError, invalidEngineOutput, type InvalidOutput } from "../engine/invalidOutput.js";
import { applyAnthropicCacheControl, stripCacheControl } from "../caching/anthropicCacheControl.js";
import { simulatePrefixCache } from "../caching/prefixCacheModel.js";
import type { CacheRequest, PrefixCacheOptions, RequestCacheAccounting } from "../caching/prefixCacheModel.js";
import { cachingProvider, isClaudeModel, promptCachingStatus } from "../caching/status.js";
import type { PromptCachingStatus } from "../caching/status.js";
import { CACHE_LOOKBACK_BLOCKS, MAX_CACHE_BREAKPOINTS } from "../providers/anthropicFacts.js";
import { lookupModelPrice } from "../providers/prices.js";
import { gatewayHygiene, hygieneAfterMessage, hygieneCalibration, hygieneThresholdTokens } from "../gateway/hygiene.js";
import { engineHygieneSettings } from "../gateway/engineHygiene.js";
import { estimateRequestTokens, requestLimitTokens } from "../engine/requestFit.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import { messageCounter, type TokenCounter } from "../tokens/types.js";
import { buildReplayReport, type LoopRecord } from "./summarize.js";
import { suffixCacheRequest, summariesSince } from "./meteredSummaries.js";
import { DEFAULT_REPLAY_START_MS, DEFAULT_REQUEST_CADENCE_MS, requestTimestamps } from "./timestamps.js";
import { replayClock } from "./replayClock.js";
import type { CompactionLayer, ReplayOptions, ReplayReport, ReplaySwitch } from "./types.js";

/**
 * Earlier requests the online cache accounting (the usage fed back during the replay) looks at. Each
 * request adds at least one message, so entries older than this lie beyond the provider's lookback from
 * every breakpoint; the system prompt's entry is re-marked by every request. The report itself is
 * computed over all requests at once.
 */
export const ONLINE_CACHE_WINDOW = CACHE_LOOKBACK_BLOCKS + MAX_CACHE_BREAKPOINTS + 8;

/** The account requests are billed to when none is given. */
export const DEFAULT_REPLAY_ACCOUNT = "default";

/** Transcript indexes of the assistant messages that answer a request (an assistant message with something before it). */
export function responseIndexes(transcript: readonly ChatMessage[]): number[] {
  const out: number[] = [];
  transcript.forEach((m, i) => {
    if (m.role === "assistant" && i > 0) out.push(i);
  });
  return out;
}

function checkSwitches(switches: readonly ReplaySwitch[], requests: number): ReplaySwitch[] {
  return [...switches]
    .map((s, i) => {
      if (!Number.isInteger(s.atRequest) || s.atRequest < 0) throw new Error(`replayConversation: switches[${i}].atRequest must be a request number ≥ 0, got ${String(s.atRequest)}`);
      if (s.model === undefined && s.account === undefined) throw new Error(`replayConversation: switches[${i}] changes neither model nor account`);
      if (s.atRequest >= requests) throw new Error(`replayConversation: switches[${i}].atRequest is ${s.atRequest} but the transcript has ${requests} requests`);
      return s;
    })
    .sort((a, b) => a.atRequest - b.atRequest);
}

/** The model and account of each request after applying the switches. */
function keysPerRequest(count: number, model: string, account: string, switches: readonly ReplaySwitch[]): Array<{ model: string; account: string }> {
  const keys: Array<{ model: string; account: string }> = [];
  let current = { model, account };
  let next = 0;
  for (let k = 0; k < count; k += 1) {
    while (next < switches.length && (switches[next] as ReplaySwitch).atRequest <= k) {
      const s = switches[next] as ReplaySwitch;
      current = { model: s.model ?? current.model, account: s.account ?? current.account };
      next += 1;
    }
    keys.push(current);
  }
  return keys;
}

/**
 * The usage object the provider would return: Anthropic's (with cache fields) for Claude models, else
 * OpenAI chat's. Through OpenRouter a Claude model answers in OpenAI chat's shape, the cache split in
 * `prompt_tokens_details` (`cached_tokens`, `cache_write_tokens`).
 */
export function providerUsage(
  model: string,
  accounting: Pick<RequestCacheAccounting, "inputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "uncachedTokens" | "outputTokens">,
  provider?: string,
): UsageReport {
  const viaOpenRouter = provider !== undefined && cachingProvider(provider) === "OpenRouter";
  if (isClaudeModel(model) && !viaOpenRouter) {
    return {
      input_tokens: accounting.uncachedTokens,
      cache_creation_input_tokens: accounting.cacheWriteTokens,
      cache_read_input_tokens: accounting.cacheReadTokens,
      output_tokens: accounting.outputTokens,
    };
  }
  const usage: UsageReport = { prompt_tokens: accounting.inputTokens, completion_tokens: accounting.outputTokens, total_tokens: accounting.inputTokens + accounting.outputTokens };
  if (viaOpenRouter && isClaudeModel(model)) usage.prompt_tokens_details = { cached_tokens: accounting.cacheReadTokens, cache_write_tokens: accounting.cacheWriteTokens };
  else if (accounting.cacheReadTokens > 0) usage.prompt_tokens_details = { cached_tokens: accounting.cacheReadTokens };
  return usage;
}

/** The engine's overflow line; for an engine built on another copy of core without one, the line of its window. */
function requestLimitOf(engine: ContextEngine): number {
  return typeof engine.requestLimitTokens === "number" && engine.requestLimitTokens > 0 ? engine.requestLimitTokens : requestLimitTokens(engine.model ?? { contextLength: engine.contextLength });
}

function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a === b || (a.length === b.length && a.every((m, i) => m === b[i]));
}

function abortReasonOf(engine: ContextEngine): string | undefined {
  const report = (engine as unknown as { lastCompression?: { aborted?: boolean; abortReason?: unknown } }).lastCompression;
  return report?.aborted && typeof report.abortReason === "string" ? report.abortReason : undefined;
}

/** Puts the breakpoints on a copy of `messages` when caching is on; otherwise a copy without any marker. */
function withBreakpoints(messages: readonly ChatMessage[], status: PromptCachingStatus): ChatMessage[] {
  return status.enabled ? applyAnthropicCacheControl(messages, { ttl: status.ttl, nativeAnthropic: status.nativeAnthropic }) : stripCacheControl(messages);
}

/**
 * Replays `transcript` (OpenAI-format messages) through `options.engine` and prices every request with
 * the prefix-cache model. The engine is used (its counters and compaction state change). See
 * {@link ReplayReport} for what is reported.
 */
export async function replayConversation(transcript: readonly ChatMessage[], options: ReplayOptions): Promise<ReplayReport> {
  const { engine, model, provider } = options;
  const ttl = options.ttl ?? "5m";
  const counter: TokenCounter = options.tokenCounter ?? defaultTokenCounter();
  const countOne = messageCounter(counter);
  const responses = responseIndexes(transcript);
  const switches = checkSwitches(options.switches ?? [], responses.length);
  const keys = keysPerRequest(responses.length, model, options.account ?? DEFAULT_REPLAY_ACCOUNT, switches);
  const timing = requestTimestamps(transcript, responses, options.now ?? DEFAULT_REPLAY_START_MS, options.cadenceMs ?? DEFAULT_REQUEST_CADENCE_MS);
  const setClock = replayClock(engine, timing.times[0] ?? options.now ?? DEFAULT_REPLAY_START_MS);
  const statuses = new Map<string, PromptCachingStatus>();
  const statusOf = (m: string): PromptCachingStatus => {
    let s = statuses.get(m);
    if (s === undefined) statuses.set(m, (s = promptCachingStatus(m, provider, ttl)));
    return s;
  };
  const engineSettings = engineHygieneSettings(engine);
  const requestLimit = requestLimitOf(engine);
  const hygieneEnabled = options.hygiene?.enabled ?? engineSettings.enabled ?? true;
  const hardMessageLimit = options.hygiene?.hardMessageLimit ?? engineSettings.hardMessageLimit;
  const cacheOptions: PrefixCacheOptions = {
    ...(options.prices ? { prices: options.prices } : {}),
    ...(options.minimumCacheableTokens ? { minimumCacheableTokens: options.minimumCacheableTokens } : {}),
  };

  let context: ChatMessage[] = [];
  let cursor = 0;
  let userArrived = false;
  /** Messages of `context` the last reported usage covered (undefined once a compaction rewrote it). */
  let reportedMessages: number | undefined;
  /** Real/rough ratio of the last reported prompt, for hygiene's estimate when no usage is known. */
  let calibration: number | undefined;
  const tokensOf = (messages: readonly ChatMessage[]): number => messages.reduce((s, m) => s + countOne(m), 0);
  const cacheRequests: CacheRequest[] = [];
  const records: LoopRecord[] = [];
  /** Summarizer calls already attributed to a request. */
  let summariesSeen = 0;

  for (let k = 0; k < responses.length; k += 1) {
    const responseAt = responses[k] as number;
    for (; cursor < responseAt; cursor += 1) {
      const message = transcript[cursor] as ChatMessage;
      context.push(message);
      if (message.role === "user") userArrived = true;
    }
    const record: LoopRecord = { responseMessage: responseAt, timestampMs: timing.times[k] as number, messages: 0 };
    setClock(record.timestampMs);

    const compact = async (layer: CompactionLayer, currentTokens: number): Promise<void> => {
      const before = context;
      const beforeTokens = tokensOf(before);
      let after: ChatMessage[] = before;
      let failure: string | undefined;
      let invalid: InvalidOutput | undefined;
      try {
        after = await engine.compress(before, { currentTokens });
        // every output is checked as the host checks it (docs/BEHAVIOUR.md, "Invalid output"): one that breaks
        // provider rules is counted and the context kept, whether or not the engine checked it itself
        invalid = invalidEngineOutput(engine.name, before, after);
      } catch (error) {
        if (error instanceof InvalidEngineOutputError) invalid = { problems: error.problems, text: error.message };
        else failure = `the engine threw: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
      }
      if (invalid !== undefined) {
        failure = invalid.text;
        record.invalidOutputs = (record.invalidOutputs ?? 0) + 1;
        record.invalidOutput ??= { request: k, layer, text: invalid.text, ...(invalid.problems[0] ? { problem: invalid.problems[0] } : {}) };
      }
      const unchanged = failure !== undefined || sameMessages(after, before);
      const afterTokens = unchanged ? beforeTokens : tokensOf(after);
      const reason = failure ?? abortReasonOf(engine) ?? "the engine returned the conversation unchanged";
      if (layer === "gateway") {
        const notices = hygieneAfterMessage({
          contextLength: engine.contextLength,
          aborted: unchanged,
          abortReason: reason,
          messagesBefore: before.length,
          messagesAfter: unchanged ? before.length : after.length,
          tokensBefore: beforeTokens,
          tokensAfter: afterTokens,
        });
        if (notices.length > 0) record.notices = notices;
      }
      if (unchanged) {
        record.compactionAborted = { layer, reason };
        return;
      }
      context = [...after];
      reportedMessages = undefined;
      record.compacted = { layer, before: beforeTokens, after: afterTokens, messagesBefore: before.length, messagesAfter: after.length };
      await options.onCompaction?.({ request: k, layer, before, after: context.slice() });
    };

    let attempted = false;
    if (userArrived) {
      const decision = gatewayHygiene(context, {
        contextLength: engine.contextLength,
        lastPromptTokens: engine.lastPromptTokens,
        enabled: hygieneEnabled,
        hardMessageLimit,
        reportedMessages,
        calibration,
      });
      if (decision.compress) {
        attempted = true;
        await compact("gateway", decision.tokens);
      }
    }
    // The agent layer at its trigger (the last reported usage), and before any request whose estimate
    // would cross the overflow line, whatever the trigger or the timing says (docs/BEHAVIOUR.md, "No request over the window").
    // (counted as the host's engine counts: the replay's counter, which also makes the reported usage)
    const outgoing = () => estimateRequestTokens(context, { lastPromptTokens: engine.lastPromptTokens, reportedMessages }, tokensOf).tokens;
    if (!attempted && engine.shouldCompress(engine.lastPromptTokens)) {
      const estimate = outgoing();
      await compact("agent", estimate > requestLimit ? estimate : engine.lastPromptTokens);
    } else if (outgoing() > requestLimit) await compact("agent", outgoing());
    userArrived = false;

    const key = keys[k] as { model: string; account: string };
    const calls = options.summaries?.calls ?? [];
    if (calls.length > summariesSeen) {
      const fresh = calls.slice(summariesSeen);
      summariesSeen = calls.length;
      // a summary asked as the conversation's suffix went out before this request, on the cache the requests before left
      const at = { timestampMs: record.timestampMs, ...key };
      const breakpoints = (messages: readonly ChatMessage[]) => withBreakpoints(messages, statusOf(key.model));
      record.summaries = summariesSince(fresh, (call) => simulatePrefixCache([...cacheRequests.slice(-ONLINE_CACHE_WINDOW), suffixCacheRequest(call, at, breakpoints, countOne)], cacheOptions).requests.at(-1) as RequestCacheAccounting);
    }
    const response = transcript[responseAt] as ChatMessage;
    const request: CacheRequest = {
      timestampMs: record.timestampMs,
      model: key.model,
      account: key.account,
      messages: withBreakpoints(context, statusOf(key.model)),
      tokensPerMessage: context.map(countOne),
      outputTokens: countOne(response),
    };
    cacheRequests.push(request);
    record.messages = context.length;
    records.push(record);
    const online = simulatePrefixCache(cacheRequests.slice(-ONLINE_CACHE_WINDOW), cacheOptions).requests.at(-1) as RequestCacheAccounting;
    engine.updateFromResponse(providerUsage(key.model, online, provider));
    reportedMessages = context.length;
    calibration = hygieneCalibration(context, engine.lastPromptTokens) ?? calibration;
    options.onProgress?.({ done: k + 1, total: responses.length });
  }
  for (; cursor < transcript.length; cursor += 1) context.push(transcript[cursor] as ChatMessage);

  const replay = simulatePrefixCache(cacheRequests, cacheOptions);
  const plainRequests = responses.map((responseAt, k): CacheRequest => {
    const prefix = transcript.slice(0, responseAt);
    const main = cacheRequests[k] as CacheRequest;
    return { ...main, messages: withBreakpoints(prefix, statusOf(main.model)), tokensPerMessage: prefix.map(countOne) };
  });
  const noCompaction = simulatePrefixCache(plainRequests, cacheOptions);

  return buildReplayReport({
    engine: engine.name,
    model,
    provider,
    ttl,
    caching: statusOf(model),
    contextLength: engine.contextLength,
    requestLimitTokens: requestLimit,
    thresholdTokens: engine.thresholdTokens,
    thresholdRule: engine.thresholdRule,
    hygieneThresholdTokens: hygieneThresholdTokens(engine.contextLength),
    timing: timing.source,
    records,
    replay,
    noCompaction,
    finalContextTokens: tokensOf(context),
    noCompactionFinalContextTokens: tokensOf(transcript),
    ...(options.summaries ? { summaryModel: { model: options.summaries.model, price: lookupModelPrice(options.summaries.model, options.prices) } } : {}),
  });
}
