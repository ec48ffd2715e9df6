/**
 * One compaction of the built-in compressor (the step compress() runs once the calls in flight are set
 * aside): a summary prepared in the background is applied, else the summarizer is asked; the result is
 * assembled, checked, counted in the engine and the session's state, and described in the engine's
 * `lastCompression` report. It keeps nothing itself: ContextCompressor hands it what it holds.
 */
import { AWAITING_REAL_USAGE } from "../engine/ContextEngine.js";
import type { CompressOptions } from "../engine/types.js";
import type { CompressionConfig } from "../config/schema.js";
import type { ChatMessage } from "../messages/schema.js";
import { sanitizeToolPairs } from "../messages/toolPairs.js";
import type { Summarizer } from "../summarizers/types.js";
import type { TokenCounter } from "../tokens/types.js";
import { assembleCompressed } from "./assemble.js";
import { fitToLine } from "./fitToLine.js";
import type { BackgroundSummaries } from "./backgroundSummaries.js";
import type { ConversationIndex } from "./conversationIndex.js";
import { countedMessageTokens, tokensBeforeForComparison, type MessageTokens } from "./messageTokens.js";
import { onlyNewTurns } from "./preparedRange.js";
import type { PreparedCompaction } from "./prepareCompaction.js";
import { emptyReport, fillCompactionReport, markUnchanged, type CompressionReport } from "./report.js";
import {
  countIneffective,
  liftPause,
  recordCompactionInSession,
  recordSummaryFailure,
  recordSummaryOutcome,
  type CompressorSessions,
  type CompressorSessionState,
  type ResolvedSession,
} from "./sessionState.js";
import { summarizePrepared, type SummarizeOptions } from "./summarize.js";
import { summaryRequestNote, type ConversationOffer } from "./summaryConversation.js";
import { repairedToolPairs, validOutput, withRepairedToolPairs } from "./validOutput.js";

/** What of the engine (a ContextCompressor) a compaction reads, and the counters it updates. */
export interface CompactingEngine {
  readonly compression: Pick<CompressionConfig, "abort_on_summary_failure">;
  readonly summarizer: Summarizer;
  readonly fallbackSummarizer: Summarizer;
  readonly tokenCounter: TokenCounter;
  readonly maxSummaryTokens: number;
  readonly thresholdTokens: number;
  /** The overflow line (the window less the output reserve): no compacted result is left past it while tool outputs can be cleared. */
  readonly requestLimitTokens: number;
  compressionCount: number;
  lastPromptTokens: number;
  /** Set to the report of each compaction. */
  lastCompression: CompressionReport | undefined;
}

/** The engine and the parts it keeps to itself that a compaction works with. */
export interface CompactionParts {
  engine: CompactingEngine;
  /** The engine's clock, in ms since the epoch. */
  now: () => number;
  /** Summaries prepared in the background, per session. */
  background: BackgroundSummaries;
  /** Summary, cooldown and streaks per session. */
  sessions: CompressorSessions;
  /** Boundaries and pruning for `messages` of session `sessionId`, keeping how its conversation was pruned. */
  prepare: (messages: ChatMessage[], index: ConversationIndex, tokens: MessageTokens, sessionId: string) => PreparedCompaction;
  /** `snapshot` of session `sessionId` planned as a background preparation plans it (with the prompt tokens it had; `index`: its scan, when at hand). */
  replan: (snapshot: readonly ChatMessage[], currentTokens: number | undefined, sessionId: string, index?: ConversationIndex) => PreparedCompaction;
  /** What a compaction of session `sessionId` offers its summarizer with `summary_request: suffix` (undefined with `separate`). */
  offer: (sessionId: string, tools: CompressOptions["tools"], conversationTokens: number) => ConversationOffer | undefined;
}

/**
 * How `engine` asks for a summary in `session` (whose state is `state`), under `options`, skipping the
 * primary for `skipPrimary`, offering the conversation as `conversation` says.
 */
export function summaryOptionsOf(
  engine: CompactingEngine,
  session: ResolvedSession,
  state: CompressorSessionState,
  options: CompressOptions,
  skipPrimary: SummarizeOptions["skipPrimary"],
  conversation?: ConversationOffer,
): SummarizeOptions {
  return {
    conversation,
    primary: engine.summarizer,
    fallback: engine.fallbackSummarizer,
    sessionSummary: session.identified ? state.previousSummary : undefined,
    // only ranks what the previous summary holds (the extractive summarizer checks it is this task's)
    sessionStart: state.firstSummary,
    focusTopic: options.focusTopic,
    maxSummaryTokens: engine.maxSummaryTokens,
    signal: options.signal,
    abortOnFailure: engine.compression.abort_on_summary_failure,
    skipPrimary,
    countTokens: (text) => engine.tokenCounter.count(text),
  };
}

/**
 * Compacts the settled conversation (no calls in flight) with the session's state. The state's own
 * summary is handed over only for an identified session: a list without a summary in the default
 * session may be another conversation.
 */
export async function compactInSession(
  parts: CompactionParts,
  messages: ChatMessage[],
  index: ConversationIndex,
  options: CompressOptions,
  session: ResolvedSession,
  state: CompressorSessionState,
): Promise<ChatMessage[]> {
  const { engine, now } = parts;
  const startedMs = performance.now();
  const startedAt = now();
  const force = options.force === true;
  if (force) {
    liftPause(state);
    state.cooldownUntil = 0;
  }
  const tokens = countedMessageTokens(engine.tokenCounter, messages, options.currentTokens);
  const countList = (list: ChatMessage[]): number => engine.tokenCounter.countMessages(list);
  const inCooldown = !force && state.cooldownUntil > now();
  const lastFailure = state.lastFailure;
  const offer = parts.offer(session.id, options.tools, options.currentTokens ?? tokens.estimateSum(0, messages.length));
  const summaryOptions = summaryOptionsOf(engine, session, state, options, inCooldown && lastFailure ? { ...lastFailure, reason: `cooldown after: ${lastFailure.reason}` } : undefined, offer);
  const summarize = (prepared: PreparedCompaction) => summarizePrepared(prepared, summaryOptions);
  // a summary prepared in the background for this range is applied at once (docs/BEHAVIOUR.md, "Background compaction")
  const taken = options.focusTopic !== undefined || options.signal?.aborted ? undefined : await parts.background.take({
    ...{ sessionId: session.id, messages, tokens, maxSummaryTokens: engine.maxSummaryTokens, thresholdTokens: engine.thresholdTokens, signal: options.signal, summarize },
    countTokens: (text) => engine.tokenCounter.count(text),
    narrow: (prepared, summary) => onlyNewTurns(parts.prepare(messages, index, tokens, session.id), index, prepared, summary),
    replan: (snapshot, currentTokens) => parts.replan(snapshot, currentTokens, session.id),
  });
  const background = taken?.used;
  if (background) parts.sessions.rememberPruning(session.id, background.pruneMemo);
  const prepared = background?.prepared ?? parts.prepare(messages, index, tokens, session.id);
  // Reported usage when the caller has it; else exact where counted (planning counted head and tail), the calibrated estimate elsewhere.
  const tokensBefore = options.currentTokens ?? tokens.estimateSum(0, messages.length);
  const report = emptyReport(startedAt, force, messages.length, tokensBefore, engine.compressionCount);
  if (taken?.note) report.preparation = taken.note;
  const finish = (result: ChatMessage[]): ChatMessage[] => {
    if (result !== messages) report.repairedToolPairs = repairedToolPairs(messages, result);
    report.durationMs = performance.now() - startedMs;
    engine.lastCompression = report;
    parts.sessions.rememberReport(session.id, report);
    return result;
  };
  // Nothing compacted: the input as it is, but never with an orphan tool call or result.
  const unchanged = (kind: NonNullable<CompressionReport["failureKind"]>, reason: string): ChatMessage[] => {
    markUnchanged(report, kind, reason);
    const repaired = withRepairedToolPairs(messages);
    if (repaired !== messages) Object.assign(report, { messagesAfter: repaired.length, tokensAfter: engine.tokenCounter.countMessages(repaired) });
    return finish(repaired);
  };

  if (options.signal?.aborted) return unchanged("aborted", "compaction cancelled before it started");
  const { plan } = prepared;
  report.headMessages = plan.headEnd;
  report.tailMessages = messages.length - plan.tailStart;
  if (!prepared.hasContent) {
    // Nothing to summarize, but the tail alone was too big: clearing its old outputs is the progress —
    // and, past the overflow line, the newest group's outputs too (fitToLine.ts).
    const cleared = prepared.tailToolOutputsCleared > 0 ? validOutput(messages, sanitizeToolPairs(prepared.pruned)) : messages;
    const fitted = cleared === undefined ? undefined : fitToLine(cleared, engine.requestLimitTokens, countList);
    if (fitted !== undefined && fitted.messages !== messages) {
      const output = fitted.messages;
      recordCompaction(parts, session, state, undefined, fitted.tokens);
      fillCompactionReport(report, { output, tokensAfter: fitted.tokens, prepared, compressionNumber: engine.compressionCount, thresholdTokens: engine.thresholdTokens });
      report.clearedToFitLine = fitted.cleared;
      return finish(output);
    }
    countIneffective(state);
    return unchanged("nothing_to_compress", "nothing between the protected head and tail to compress");
  }

  if (background === undefined && inCooldown && lastFailure?.action === "abort") {
    report.cooldownSeconds = Math.ceil((state.cooldownUntil - now()) / 1000);
    return unchanged("cooldown", `summarizer cooling down after: ${lastFailure.reason}`);
  }
  const outcome = background?.outcome ?? (await summarize(prepared));
  report.summarizer = outcome.summarizer;
  if (!outcome.ok) {
    report.cooldownSeconds = recordSummaryFailure(state, outcome.failure, now());
    return unchanged(outcome.failure.kind, outcome.failure.reason);
  }

  const assembled = assembleCompressed({ head: prepared.head, summary: outcome.summary, tail: prepared.tail, isFirstCompaction: prepared.isFirstCompaction });
  const valid = validOutput(messages, assembled.messages);
  if (valid === undefined) return unchanged("invalid_output", "the compacted conversation broke provider rules; kept the original");
  // a result still past the overflow line loses the tail's tool outputs too (fitToLine.ts)
  const { messages: output, tokens: tokensAfter, cleared: clearedToFitLine } = fitToLine(valid, engine.requestLimitTokens, countList);
  if (tokensAfter >= tokensBeforeForComparison(tokens, tokensAfter)) {
    countIneffective(state);
    return unchanged("nothing_to_compress", "the summary would not make the conversation smaller; kept the original");
  }

  const cooldownSeconds = recordSummaryOutcome(state, outcome, inCooldown, now());
  if (cooldownSeconds !== undefined) report.cooldownSeconds = cooldownSeconds;
  recordCompaction(parts, session, state, outcome.summary, tokensAfter);
  const summary = { summaryTokens: engine.tokenCounter.count(outcome.summary), cappedFromTokens: outcome.cappedFromTokens, fallbackUsed: outcome.fallbackUsed, verbatim: outcome.verbatim, modelCalls: outcome.modelCalls, ...assembled };
  if (outcome.fallbackUsed && outcome.failure) report.fallbackReason = outcome.failure.reason;
  const requestNote = summaryRequestNote(offer, outcome);
  if (requestNote !== undefined) report.summaryRequest = requestNote;
  fillCompactionReport(report, { output, tokensAfter, prepared, compressionNumber: engine.compressionCount, thresholdTokens: engine.thresholdTokens, summary });
  report.clearedToFitLine = clearedToFitLine;
  return finish(output);
}

/** Counters after a compaction that changed the conversation: the engine's count and "awaiting real usage", then the session's (see recordCompactionInSession). */
function recordCompaction(parts: CompactionParts, session: ResolvedSession, state: CompressorSessionState, summary: string | undefined, tokensAfter: number): void {
  parts.engine.compressionCount++;
  parts.engine.lastPromptTokens = AWAITING_REAL_USAGE;
  if (session.identified) parts.sessions.usage.compacted(session.id);
  // the conversation changed: a summary still prepared for its old range is of no use
  parts.background.drop(session.id);
  recordCompactionInSession(state, summary, tokensAfter >= parts.engine.thresholdTokens);
}
