/**
 * The built-in engine (`context.engine: compressor`): a thin stateful shell around the pure phases.
 * It owns the counters, cooldowns and pauses; the algorithm lives in prepareCompaction (phases 1–2),
 * summaryLadder (phase 3) and phase4Assemble.
 */
import { z } from "zod";
import { AWAITING_REAL_USAGE, ContextEngine, DEFAULT_MODEL, sameModelInfo } from "../engine/ContextEngine.js";
import type { CompressOptions, ModelInfo, NormalizedUsage, UsageReport } from "../engine/types.js";
import { CompressionSectionSchema, type CompressionConfig } from "../config/schema.js";
import type { ChatMessage } from "../messages/schema.js";
import { pendingToolCallsStart, sanitizeToolPairs } from "../messages/toolPairs.js";
import { validateConversation, type ConversationProblem } from "../messages/validate.js";
import { ExtractiveSummarizer } from "../summarizers/extractive.js";
import { cooldownSeconds, type SummaryFailure } from "../summarizers/failures.js";
import type { Summarizer } from "../summarizers/types.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import { messageCounter, type TokenCounter } from "../tokens/types.js";
import { assembleCompressed } from "./phase4Assemble.js";
import { lazyMessageTokens, type MessageTokens } from "./messageTokens.js";
import { prepareCompaction } from "./prepareCompaction.js";
import { emptyReport, fillCompactionReport, includeInFlightGroup, type CompressionReport } from "./report.js";
import { buildSummaryRequest } from "./summaryMessage.js";
import { runSummaryLadder } from "./summaryLadder.js";
import { codexThresholdPlan } from "../codex/autoraise.js";

/** Options of the built-in compressor. */
export interface ContextCompressorOptions {
  /** The `compression:` config section (defaults filled in by its schema). */
  compression?: Partial<CompressionConfig>;
  /** Writes the summary (default: the offline ExtractiveSummarizer). */
  summarizer?: Summarizer;
  /** Used when the summarizer fails with a non-abort failure (default: ExtractiveSummarizer). */
  fallbackSummarizer?: Summarizer;
  tokenCounter?: TokenCounter;
  model?: ModelInfo;
  /** Clock in ms since the epoch (cooldowns); default `Date.now`. */
  now?: () => number;
}

/**
 * Why `shouldCompress` says what it says. `awaiting_usage`: a compaction just ran and an estimate is
 * not trusted until the provider reports the real prompt tokens of the compacted conversation.
 */
export type ShouldCompressReason = "ok" | "disabled" | "below_threshold" | "awaiting_usage" | "cooldown" | "ineffective";

/** The answer of {@link ContextCompressor.shouldCompressInfo}. */
export interface ShouldCompressInfo {
  should: boolean;
  reason: ShouldCompressReason;
  promptTokens: number;
  thresholdTokens: number;
  /** Milliseconds left of a summary-failure cooldown (0 when none). */
  cooldownRemainingMs: number;
  /** What paused automatic compaction: 2 ineffective compactions or 2 fallback summaries in a row. */
  pausedBy: "ineffective" | "fallback" | null;
}

/** Consecutive ineffective compactions (or fallback summaries) after which automatic compaction pauses. */
export const PAUSE_AFTER_STREAK = 2;

function parseCompression(input: Partial<CompressionConfig> | undefined): CompressionConfig {
  const parsed = CompressionSectionSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(`Invalid compression options:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Counts the problems of each code (to tell problems we introduced from ones the input already had). */
function problemCounts(problems: ConversationProblem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
  return counts;
}

/** The built-in, lossy, summarizing context engine (SPEC §4). */
export class ContextCompressor extends ContextEngine {
  readonly name = "compressor";
  readonly compression: CompressionConfig;
  summarizer: Summarizer;
  fallbackSummarizer: Summarizer;
  readonly tokenCounter: TokenCounter;
  /** The one-time Codex autoraise notice for the host/CLI to print (see `takeAutoraiseNotice`), if raised. */
  autoraiseNotice: string | undefined;
  /** The marker-file state of {@link autoraiseNotice} (`"gpt-5.5:50:85"`). */
  autoraiseNoticeState: string | undefined;
  /** Tokens the protected tail may hold (threshold × target_ratio). */
  tailTokenBudget = 0;
  /** Summary ceiling: min(context × 0.05, 12,000). */
  maxSummaryTokens = 0;
  /** The last summary written; handed to the summarizer to update on the next compaction. */
  previousSummary: string | undefined;
  /** What the last `compress()` call did. */
  lastCompression: CompressionReport | undefined;
  /** Compactions in a row whose next real usage was still at or above the threshold. */
  ineffectiveStreak = 0;
  /** Compactions in a row that used the fallback summarizer. */
  fallbackStreak = 0;
  private pausedBy: "ineffective" | "fallback" | null = null;
  private cooldownUntil = 0;
  private lastFailure: SummaryFailure | undefined;
  private consecutiveTimeouts = 0;
  private awaitingUsageAfterCompaction = false;
  private readonly now: () => number;

  constructor(options: ContextCompressorOptions = {}) {
    const compression = parseCompression(options.compression);
    super({
      thresholds: {
        threshold: compression.threshold,
        modelThresholds: compression.model_thresholds,
        thresholdTokensCap: compression.threshold_tokens,
        targetRatio: compression.target_ratio,
      },
      model: options.model ?? DEFAULT_MODEL,
    });
    this.compression = compression;
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
    this.fallbackSummarizer = options.fallbackSummarizer ?? new ExtractiveSummarizer();
    this.tokenCounter = options.tokenCounter ?? defaultTokenCounter();
    this.now = options.now ?? Date.now;
    // Field initializers ran after the base constructor's updateModel(); size the budgets again.
    this.updateModel(options.model ?? DEFAULT_MODEL);
  }

  /** Re-resolves thresholds and budgets for `model`; a model change also lifts the automatic-compaction pause. */
  override updateModel(model: ModelInfo): void {
    // A new model's first response is the real usage worth waiting for, not the old model's.
    if (!sameModelInfo(this.model, model)) this.awaitingUsageAfterCompaction = false;
    super.updateModel(model);
    // Codex OAuth 272k windows raise the trigger to 85 % (SPEC §3.3–3.4); `compression` is unset during super().
    const codex = codexThresholdPlan(model, this.thresholdSettings, this.compression);
    this.thresholdPercent = codex.plan.thresholdPercent;
    this.thresholdTokens = codex.plan.thresholdTokens;
    this.thresholdRule = codex.plan.rule;
    this.autoraiseNotice = codex.notice?.text;
    this.autoraiseNoticeState = codex.notice?.state;
    const plan = codex.plan;
    this.tailTokenBudget = plan.tailTokenBudget;
    this.maxSummaryTokens = plan.maxSummaryTokens;
    this.pausedBy = null;
    this.ineffectiveStreak = 0;
    this.fallbackStreak = 0;
  }

  /** Why automatic compaction would or would not run at `promptTokens` (default: the last real prompt tokens). */
  shouldCompressInfo(promptTokens: number = this.lastPromptTokens): ShouldCompressInfo {
    const cooldownRemainingMs = Math.max(0, this.cooldownUntil - this.now());
    const info = (should: boolean, reason: ShouldCompressReason): ShouldCompressInfo => ({
      should,
      reason,
      promptTokens,
      thresholdTokens: this.thresholdTokens,
      cooldownRemainingMs,
      pausedBy: this.pausedBy,
    });
    if (!this.compression.enabled) return info(false, "disabled");
    if (promptTokens < this.thresholdTokens) return info(false, "below_threshold");
    if (this.pausedBy !== null) return info(false, "ineffective");
    if (cooldownRemainingMs > 0) return info(false, "cooldown");
    if (this.shouldDeferPreflightToRealUsage(promptTokens)) return info(false, "awaiting_usage");
    return info(true, "ok");
  }

  /**
   * True when a preflight estimate at or above the threshold should wait for real usage: a compaction
   * just ran and the provider has not yet reported the compacted conversation's prompt tokens (the
   * estimate overcounts, e.g. tool schemas, and would compact twice in a row). An estimate past the
   * whole window is never deferred. The next `updateFromResponse` (or a model change) ends the wait.
   */
  shouldDeferPreflightToRealUsage(estimatedTokens: number): boolean {
    return this.awaitingUsageAfterCompaction && estimatedTokens >= this.thresholdTokens && estimatedTokens < this.contextLength;
  }

  /** True when `promptTokens` (default: the last real prompt tokens) reached the threshold and nothing holds compaction back. */
  shouldCompress(promptTokens?: number): boolean {
    return this.shouldCompressInfo(promptTokens).should;
  }

  /**
   * Records usage; the first real usage after a compaction tells whether it was effective. A usage
   * without prompt tokens (read as 0) proves nothing: it ends the wait but judges nothing.
   */
  override updateFromResponse(usage: UsageReport): NormalizedUsage {
    const normalized = this.recordUsage(usage);
    if (normalized.promptTokens <= 0) {
      this.awaitingUsageAfterCompaction = false;
      return normalized;
    }
    const above = normalized.promptTokens >= this.thresholdTokens;
    if (this.awaitingUsageAfterCompaction) {
      this.awaitingUsageAfterCompaction = false;
      this.ineffectiveStreak = above ? this.ineffectiveStreak + 1 : 0;
      if (this.ineffectiveStreak >= PAUSE_AFTER_STREAK) this.pausedBy = "ineffective";
    }
    if (!above) {
      // Real progress: the streak starts over and an ineffective pause is lifted.
      this.ineffectiveStreak = 0;
      if (this.pausedBy === "ineffective") this.pausedBy = null;
    }
    return normalized;
  }

  /** `/new` or `/reset`: counters, summary, cooldowns and pauses start over. */
  override onSessionReset(): void {
    super.onSessionReset();
    this.previousSummary = undefined;
    this.lastCompression = undefined;
    this.ineffectiveStreak = 0;
    this.fallbackStreak = 0;
    this.pausedBy = null;
    this.cooldownUntil = 0;
    this.lastFailure = undefined;
    this.consecutiveTimeouts = 0;
    this.awaitingUsageAfterCompaction = false;
  }

  /** Counts of `messages` for one compaction: exact on demand (tail walk, head, output), estimated elsewhere (calibrated against `reportedTotal` when the caller has usage). */
  private tokensPerMessage(messages: readonly ChatMessage[], reportedTotal?: number): MessageTokens {
    const counter = this.tokenCounter as TokenCounter & { exceeds?: (message: ChatMessage, limit: number) => boolean };
    const exceeds = typeof counter.exceeds === "function" ? (m: ChatMessage, limit: number) => counter.exceeds!(m, limit) : undefined;
    return lazyMessageTokens(messages, messageCounter(counter), exceeds, reportedTotal);
  }

  private prepare(messages: readonly ChatMessage[], tokens: MessageTokens) {
    return prepareCompaction(messages, tokens, {
      protectFirstN: this.compression.protect_first_n,
      protectLastN: this.compression.protect_last_n,
      minTailUserMessages: this.compression.min_tail_user_messages,
      tailTokenBudget: this.tailTokenBudget,
      maxSummaryTokens: this.maxSummaryTokens,
      thresholdTokens: this.thresholdTokens,
    });
  }

  /** Phase 1 alone: old tool outputs cleared outside the tail compress() would protect; nothing summarized. */
  pruneToolResultsOnly(messages: ChatMessage[]): ChatMessage[] {
    return this.prepare(messages, this.tokensPerMessage(messages)).pruned;
  }

  /** True when compress() would find turns between the protected head and tail to summarize. */
  hasContentToCompress(messages: ChatMessage[]): boolean {
    return this.prepare(messages, this.tokensPerMessage(messages)).hasContent;
  }

  private recordFailure(failure: SummaryFailure): number {
    if (failure.kind === "aborted") return 0;
    this.consecutiveTimeouts = failure.kind === "timeout" ? this.consecutiveTimeouts + 1 : 0;
    const seconds = cooldownSeconds(failure, this.consecutiveTimeouts);
    this.cooldownUntil = this.now() + seconds * 1000;
    this.lastFailure = failure;
    return seconds;
  }

  /**
   * Compacts `messages` (phase 1 → 2 → 3 → 4). On a summary failure that must not lose turns the input
   * is returned unchanged and `lastCompression` says why. The output always passes validateConversation.
   */
  async compress(messages: ChatMessage[], options: CompressOptions = {}): Promise<ChatMessage[]> {
    // Tool calls still running at the end stay out of compaction and come back unchanged (no stub results).
    const pending = pendingToolCallsStart(messages);
    if (pending > 0) {
      const settled = messages.slice(0, pending);
      const compressed = await this.compressSettled(settled, options);
      const inFlight = messages.slice(pending);
      if (this.lastCompression) includeInFlightGroup(this.lastCompression, inFlight.length, this.tokenCounter.countMessages(inFlight), options.currentTokens !== undefined);
      return compressed === settled ? messages : [...compressed, ...inFlight];
    }
    return this.compressSettled(messages, options);
  }

  private async compressSettled(messages: ChatMessage[], options: CompressOptions): Promise<ChatMessage[]> {
    const startedMs = performance.now();
    const force = options.force === true;
    if (force) {
      this.cooldownUntil = 0;
      this.pausedBy = null;
      this.ineffectiveStreak = 0;
      this.fallbackStreak = 0;
    }
    const tokens = this.tokensPerMessage(messages, options.currentTokens);
    const prepared = this.prepare(messages, tokens);
    // Reported usage when the caller has it; else exact where counted, the calibrated estimate elsewhere.
    const tokensBefore = options.currentTokens ?? tokens.estimateSum(0, messages.length);
    const report = emptyReport(this.now(), force, messages.length, tokensBefore, this.compressionCount);
    const finish = (result: ChatMessage[]): ChatMessage[] => {
      report.durationMs = performance.now() - startedMs;
      this.lastCompression = report;
      return result;
    };
    const unchanged = (kind: NonNullable<CompressionReport["failureKind"]>, reason: string): ChatMessage[] => {
      report.aborted = true;
      report.failureKind = kind;
      report.abortReason = reason;
      return finish(messages);
    };

    if (options.signal?.aborted) return unchanged("aborted", "compaction cancelled before it started");
    const { plan } = prepared;
    report.headMessages = plan.headEnd;
    report.tailMessages = messages.length - plan.tailStart;
    if (!prepared.hasContent) {
      if (prepared.tailToolOutputsCleared > 0) {
        // Nothing to summarize, but the tail alone was too big: clearing its old outputs is the progress.
        const output = this.ensureValid(messages, sanitizeToolPairs(prepared.pruned));
        if (output !== undefined) {
          const tokensAfter = this.tokenCounter.countMessages(output);
          this.recordCompaction(undefined, tokensAfter);
          fillCompactionReport(report, { output, tokensAfter, prepared, compressionNumber: this.compressionCount, thresholdTokens: this.thresholdTokens });
          return finish(output);
        }
      }
      this.countIneffective();
      return unchanged("nothing_to_compress", "nothing between the protected head and tail to compress");
    }

    const inCooldown = !force && this.cooldownUntil > this.now();
    if (inCooldown && this.lastFailure?.action === "abort") {
      report.cooldownSeconds = Math.ceil((this.cooldownUntil - this.now()) / 1000);
      return unchanged("cooldown", `summarizer cooling down after: ${this.lastFailure.reason}`);
    }
    const request = buildSummaryRequest({
      middle: prepared.pruned.slice(plan.headEnd, plan.tailStart),
      contentTokens: prepared.contentTokens,
      maxSummaryTokens: this.maxSummaryTokens,
      previousSummary: prepared.previousSummaryInMessages ?? this.previousSummary,
      focusTopic: options.focusTopic,
      head: prepared.head,
      tail: prepared.tail,
    });
    const outcome = await runSummaryLadder({
      primary: this.summarizer,
      fallback: this.fallbackSummarizer,
      request,
      signal: options.signal,
      abortOnFailure: this.compression.abort_on_summary_failure,
      skipPrimary: inCooldown && this.lastFailure ? { ...this.lastFailure, reason: `cooldown after: ${this.lastFailure.reason}` } : undefined,
      countTokens: (text) => this.tokenCounter.count(text),
    });
    report.summarizer = outcome.summarizer;
    if (!outcome.ok) {
      report.cooldownSeconds = this.recordFailure(outcome.failure);
      return unchanged(outcome.failure.kind, outcome.failure.reason);
    }

    const assembled = assembleCompressed({
      head: prepared.head,
      summary: outcome.summary,
      tail: prepared.tail,
      isFirstCompaction: prepared.isFirstCompaction,
    });
    const output = this.ensureValid(messages, assembled.messages);
    if (output === undefined) return unchanged("invalid_output", "the compacted conversation broke provider rules; kept the original");
    const tokensAfter = this.tokenCounter.countMessages(output);
    if (tokensAfter >= tokensBeforeForComparison(tokens, tokensAfter)) {
      this.countIneffective();
      return unchanged("nothing_to_compress", "the summary would not make the conversation smaller; kept the original");
    }

    if (outcome.fallbackUsed && outcome.failure) {
      if (!inCooldown) report.cooldownSeconds = this.recordFailure(outcome.failure);
      this.fallbackStreak++;
      if (this.fallbackStreak >= PAUSE_AFTER_STREAK) this.pausedBy = "fallback";
      report.fallbackReason = outcome.failure.reason;
    } else {
      this.fallbackStreak = 0;
      this.consecutiveTimeouts = 0;
      this.cooldownUntil = 0;
      this.lastFailure = undefined;
    }
    this.recordCompaction(outcome.summary, tokensAfter);
    fillCompactionReport(report, {
      output,
      tokensAfter,
      prepared,
      compressionNumber: this.compressionCount,
      thresholdTokens: this.thresholdTokens,
      summary: { summaryTokens: this.tokenCounter.count(outcome.summary), cappedFromTokens: outcome.cappedFromTokens, fallbackUsed: outcome.fallbackUsed, ...assembled },
    });
    return finish(output);
  }

  /** A compaction that could not shrink anything counts as ineffective, so a caller looping on shouldCompress() cannot spin. */
  private countIneffective(): void {
    this.ineffectiveStreak++;
    if (this.ineffectiveStreak >= PAUSE_AFTER_STREAK) this.pausedBy = "ineffective";
  }

  /**
   * Counters after a successful compaction: count, summary, and "awaiting real usage". A result whose
   * own estimate is still at or above the threshold is ineffective at once (a host re-checking estimates
   * cannot loop); the real usage then only lifts the pause, it does not count the compaction again.
   */
  private recordCompaction(summary: string | undefined, tokensAfter: number): void {
    this.compressionCount++;
    if (summary !== undefined) this.previousSummary = summary;
    this.lastPromptTokens = AWAITING_REAL_USAGE;
    const stillAbove = tokensAfter >= this.thresholdTokens;
    if (stillAbove) this.countIneffective();
    this.awaitingUsageAfterCompaction = !stillAbove;
  }

  /**
   * The provider-rule check every output passes: sanitize again if needed; undefined when the output
   * would still have problems the input did not have.
   */
  private ensureValid(input: ChatMessage[], output: ChatMessage[]): ChatMessage[] | undefined {
    if (validateConversation(output).length === 0) return output;
    const repaired = sanitizeToolPairs(output);
    const problems = validateConversation(repaired);
    if (problems.length === 0) return repaired;
    const before = problemCounts(validateConversation(input));
    for (const [code, count] of problemCounts(problems)) if (count > (before.get(code) ?? 0)) return undefined;
    return repaired;
  }
}

export type { CompressionReport } from "./report.js";

/**
 * The size before compaction to judge `tokensAfter` against: the estimate when the result is clearly
 * smaller (under half of it), else the exact count, so a close call is never decided by an estimate.
 */
function tokensBeforeForComparison(tokens: MessageTokens, tokensAfter: number): number {
  const estimate = tokens.estimateSum(0, tokens.length);
  return tokensAfter * 2 < estimate ? estimate : tokens.exactSum(0, tokens.length);
}
