/**
 * The built-in engine (`context.engine: compressor`): a thin stateful shell around the pure steps, which
 * compress() runs in this order: scan (conversationIndex.ts), plan boundaries (planCompaction.ts,
 * planBoundaries.ts) and prune (pruneToolOutputs.ts) — the two together are prepareCompaction.ts —,
 * summarize (summarize.ts: summaryRequest.ts, summaryLadder.ts), assemble (assemble.ts); one compaction
 * runs them in compactionRun.ts, and the options are compressorOptions.ts. The shell owns the counters,
 * cooldowns and pauses.
 */
import { ContextEngine, DEFAULT_MODEL, sameModelInfo } from "../engine/ContextEngine.js";
import { DEFAULT_SESSION_SCOPE, type CompressOptions, type EngineStatus, type ModelInfo, type NormalizedUsage, type SessionInfo, type ToolCallContext, type ToolSchema, type ToolTraits, type UsageReport } from "../engine/types.js";
import { AgentCompactionRequests, type AgentCompactionRequest } from "../engine/compactContextTool.js";
import type { LastCompaction } from "../engine/lastCompaction.js";
import { lastCompactionOf } from "./agentCompaction.js";
import type { CompressionConfig } from "../config/schema.js";
import type { ChatMessage } from "../messages/schema.js";
import { ExtractiveSummarizer } from "../summarizers/extractive.js";
import type { Summarizer } from "../summarizers/types.js";
import { canSearchSessions } from "../tools/sessionSearch.js";
import { CompressorTools } from "./compressorTools.js";
import { defaultTokenCounter } from "../tokens/counter.js";
import type { TokenCounter } from "../tokens/types.js";
import { countedMessageTokens } from "./messageTokens.js";
import { awaitsRealUsage, triggerDecision, type ShouldCompressInfo, type TriggerLimits } from "./trigger.js";
export type { ShouldCompressInfo, ShouldCompressReason } from "./trigger.js";
import { prepareCompaction } from "./prepareCompaction.js";
import { indexConversation, scanConversation } from "./conversationIndex.js";
import { includeInFlightGroup, type CompressionReport } from "./report.js";
import { BackgroundSummaries } from "./backgroundSummaries.js";
import { SharedPreparations } from "./sharedPreparations.js";
import { sharedStateStoreOf } from "../store/sharedState.js";
import { errorText } from "../errorText.js";
import type { PrepareCompressionOptions, PreparationStatus } from "../engine/preparation.js";
import { CompressorSessions, recordModelUpdate, recordRealUsage, type CompressorSessionState } from "./sessionState.js";
export { PAUSE_AFTER_STREAK } from "./sessionState.js";
import { computeThresholds } from "../engine/thresholds.js";
import { CacheTimingTracker } from "./cacheTimingTracker.js";
import { timedTriggerDecision } from "./timedTrigger.js";
import type { RouteHooks } from "../host/hooks.js";
import { builtinRouteHooks } from "../routes/builtin.js";
import { parseCompression, type ContextCompressorOptions } from "./compressorOptions.js";
export type { ContextCompressorOptions } from "./compressorOptions.js";
import { compactInSession, type CompactionParts } from "./compactionRun.js";
import { prepareInBackground } from "./backgroundPreparation.js";
import { engineOffer } from "./summaryConversation.js";

/** The built-in, lossy, summarizing context engine (docs/BEHAVIOUR.md, "The compression algorithm"). */
export class ContextCompressor extends ContextEngine {
  /** The engine contract this engine was built for (docs/BEHAVIOUR.md, "Contract version"). */
  static readonly apiVersion = 1;
  readonly name = "compressor";
  readonly compression: CompressionConfig;
  summarizer: Summarizer;
  fallbackSummarizer: Summarizer;
  readonly tokenCounter: TokenCounter;
  /** The one-time notice a route attached to the threshold plan (e.g. a raised trigger), for the host to show; undefined when none. */
  autoraiseNotice: string | undefined;
  /** What identifies {@link autoraiseNotice} for the route's "shown once" record (e.g. `"gpt-5.5:50:85"`). */
  autoraiseNoticeState: string | undefined;
  /** The routes that adjust the threshold plan. */
  readonly routes: RouteHooks;
  /** Tokens the protected tail may hold (threshold × target_ratio). */
  tailTokenBudget = 0;
  /** Summary ceiling: min(context × 0.05, 12,000). */
  maxSummaryTokens = 0;
  /** What the last `compress()` call did, in any session ({@link lastCompressionOf}: in one). */
  lastCompression: CompressionReport | undefined;

  /** The last prompt tokens reported for `sessionId` (`updateFromResponse(usage, sessionId)`): {@link lastPromptTokens} is the latest of any session. */
  override lastPromptTokensOf(sessionId: string): number {
    return this.sessions.usage.of(sessionId, this.lastPromptTokens);
  }

  /** What the last `compress()` call of `sessionId` did: an engine serving several sessions at once keeps their reports apart. */
  lastCompressionOf(sessionId: string): CompressionReport | undefined {
    return this.sessions.lastReport(sessionId);
  }
  /** Summary, cooldown and streaks per session (see compressor/sessionState.ts). */
  private readonly sessions: CompressorSessions;
  private readonly now: () => number;
  /** The cache state behind `compression.timing: cache_aware`; undefined with the threshold timing. */
  readonly cacheTiming: CacheTimingTracker | undefined;
  /** The prompt cache as responses report it, per session: `cacheTiming`, also kept for `summary_request: suffix`. */
  readonly cacheTracker: CacheTimingTracker | undefined;
  /** Summaries prepared in the background, per session (`compression.prepare_at`). */
  private readonly background: BackgroundSummaries;
  /** What compress() hands each compaction (compactionRun.ts). */
  private readonly compaction: CompactionParts;

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
    this.routes = options.routes ?? builtinRouteHooks({ compression });
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
    this.fallbackSummarizer = options.fallbackSummarizer ?? new ExtractiveSummarizer();
    this.tokenCounter = options.tokenCounter ?? defaultTokenCounter();
    this.now = options.now ?? Date.now;
    this.cacheTracker = compression.timing === "cache_aware" || compression.summary_request === "suffix" ? new CacheTimingTracker(options.cacheTiming, this.now) : undefined;
    this.cacheTiming = compression.timing === "cache_aware" ? this.cacheTracker : undefined;
    this.sessions = new CompressorSessions(this.name, options.store, options.warn);
    const sharedStore = sharedStateStoreOf(options.store);
    this.agentRequests = new AgentCompactionRequests(compression.compact_tool, sharedStore === undefined ? undefined : { store: sharedStore, engine: this.name });
    const warn = options.warn ?? ((message: string) => console.warn(message));
    this.warnOf = warn;
    this.background = new BackgroundSummaries(
      (sessionId, status) => {
        if (status.state === "failed") warn(`context engine: the summary prepared in the background failed (session '${sessionId}'): ${status.reason}; the conversation is unchanged and will be compacted at the trigger`);
        options.onPreparation?.(sessionId, status);
      },
      // background compaction off: nothing is prepared, so no compaction looks in the store for a summary
      sharedStore === undefined || compression.prepare_at === null ? undefined : new SharedPreparations(sharedStore, this.name, this.now),
      this.now,
    );
    this.tools = new CompressorTools(compression.compact_tool, canSearchSessions(options.store) ? options.store : undefined, this.agentRequests);
    this.compaction = {
      ...{ engine: this, now: this.now, background: this.background, sessions: this.sessions },
      prepare: (...args) => this.prepare(...args),
      replan: (snapshot, currentTokens, sessionId, index) => prepareCompaction(snapshot, countedMessageTokens(this.tokenCounter, snapshot, currentTokens), this.prepareSettings(sessionId), index),
      offer: (sessionId, tools, conversationTokens) => engineOffer(this, sessionId, tools, conversationTokens),
    };
    // Field initializers ran after the base constructor's updateModel(); size the budgets again.
    this.updateModel(options.model ?? DEFAULT_MODEL);
  }

  /** Where the engine's warnings go (`options.warn`, else the console). */
  private readonly warnOf: (message: string) => void;

  /** `session_search` and `compact_context` (compressorTools.ts). */
  private readonly tools: CompressorTools;

  /**
   * `session_search` when a session store is attached (archived turns stay searchable: docs/BEHAVIOUR.md,
   * "In-place compaction"); `compact_context` when `compression.compact_tool.enabled`.
   */
  override getToolSchemas(): ToolSchema[] {
    return this.tools.schemas();
  }

  /** `session_search` only reads the store; `compact_context` records a request, so it is not read-only. */
  override toolTraits(name: string): ToolTraits {
    return this.tools.traits(name);
  }

  /** The agent's `compact_context` requests per session, and the turns since each session's last compaction. */
  readonly agentRequests: AgentCompactionRequests;
  /** The last compaction that changed a conversation, for `getStatus()`. */
  private lastCompacted: LastCompaction | undefined;

  /** The pending `compact_context` request of `sessionId` (default: the current session), taken: the host compacts with its focus. */
  takeCompactionRequest(sessionId?: string): Promise<AgentCompactionRequest | undefined> {
    return this.agentRequests.take(this.sessions.resolve(sessionId).id);
  }

  /** Gives back a request whose compaction could not run (another worker held the session's compaction): the next turn boundary honours it. */
  restoreCompactionRequest(sessionId: string, request: AgentCompactionRequest): Promise<void> {
    return this.agentRequests.restore(sessionId, request);
  }

  /**
   * The base counters, the last compaction (when, tokens before and after, fallback used, invented facts
   * removed) and the pending `compact_context` request: of any session, or with `sessionId` of that one.
   */
  override getStatus(sessionId?: string): EngineStatus {
    const { id } = this.sessions.resolve(sessionId);
    const pending = this.agentRequests.pending(id);
    const last = sessionId === undefined ? this.lastCompacted : this.sessions.lastCompaction(id);
    return { ...super.getStatus(sessionId), ...(last ? { lastCompaction: last } : {}), ...(pending ? { pendingCompactionRequest: pending } : {}) };
  }

  /**
   * Runs `session_search` over the sessions of the calling session's scope only (`context`, else the only
   * open session; see resolveToolScope) and `compact_context`; other names get the base class's JSON error.
   */
  override async handleToolCall(name: string, args: unknown, context?: ToolCallContext): Promise<string> {
    const answer = await this.tools.run(name, args, context, this.sessions.resolve(context?.sessionId).id, this.tailTokenBudget);
    return answer ?? super.handleToolCall(name, args, context);
  }

  /** Re-resolves thresholds and budgets for `model`; the sessions' pauses and streaks follow it (see `recordModelUpdate`). */
  override updateModel(model: ModelInfo): void {
    // A new model's first response is the real usage worth waiting for, not the old model's.
    const previous = this.model;
    const modelChanged = !sameModelInfo(previous, model);
    super.updateModel(model);
    // The routes may adjust the plan (e.g. raise the trigger on a capped window); `routes` is unset during super().
    const routed = { plan: computeThresholds(model, this.thresholdSettings), notice: undefined };
    const { plan, notice } = this.routes?.thresholdPlan.call(routed, model, this.thresholdSettings) ?? routed;
    this.thresholdPercent = plan.thresholdPercent;
    this.thresholdTokens = plan.thresholdTokens;
    this.thresholdRule = plan.rule;
    this.autoraiseNotice = notice?.text;
    this.autoraiseNoticeState = notice?.state;
    this.tailTokenBudget = plan.tailTokenBudget;
    this.maxSummaryTokens = plan.maxSummaryTokens;
    // unset while the base constructor sizes the engine
    if (modelChanged) {
      this.background?.dropAll();
      this.sessions?.usage.clear();
    }
    for (const [sessionId, state] of this.sessions?.loaded() ?? []) {
      recordModelUpdate(state, previous, model);
      if (modelChanged) state.awaitingUsageAfterCompaction = false;
      this.sessions.save(sessionId);
    }
  }

  /** The last summary written in the current session (the only open one, else the default session). */
  get previousSummary(): string | undefined {
    return this.currentState().previousSummary;
  }

  /** Compactions in a row, in the current session, whose next real usage was still at or above the threshold. */
  get ineffectiveStreak(): number {
    return this.currentState().ineffectiveStreak;
  }

  /** Compactions in a row, in the current session, that used the fallback summarizer. */
  get fallbackStreak(): number {
    return this.currentState().fallbackStreak;
  }

  private currentState(): CompressorSessionState {
    return this.sessions.state(this.sessions.resolve(undefined).id);
  }

  /**
   * Why automatic compaction would or would not run at `promptTokens` (default: the session's last real
   * prompt tokens) in session `sessionId` (default: the only open session, else the default session).
   */
  shouldCompressInfo(promptTokens?: number, sessionId?: string): ShouldCompressInfo {
    const session = this.sessions.resolve(sessionId);
    const { id } = session;
    promptTokens ??= this.sessions.promptTokens(session, this.lastPromptTokens);
    const state = this.sessions.state(id);
    if (this.cacheTiming === undefined || promptTokens <= 0) return triggerDecision(state, promptTokens, this.triggerLimits());
    const timing = this.cacheTiming.decide(id, this.model, promptTokens, {
      triggerTokens: this.thresholdTokens,
      compactedTokensEstimate: this.tailTokenBudget + this.maxSummaryTokens,
    });
    return timedTriggerDecision(state, promptTokens, this.triggerLimits(), timing);
  }

  /** What the trigger compares against, now. */
  private triggerLimits(): TriggerLimits {
    return { enabled: this.compression.enabled, thresholdTokens: this.thresholdTokens, requestLimitTokens: this.requestLimitTokens, now: this.now() };
  }

  /**
   * True when a preflight estimate at or above the threshold should wait for real usage in `sessionId`
   * (default: the current session): a compaction just ran there and the provider has not yet reported
   * the compacted conversation's prompt tokens (the estimate overcounts, e.g. tool schemas, and would
   * compact twice in a row). An estimate past the overflow line (`requestLimitTokens`) is never deferred. The next
   * `updateFromResponse` (or a model change) ends the wait.
   */
  shouldDeferPreflightToRealUsage(estimatedTokens: number, sessionId?: string): boolean {
    return awaitsRealUsage(this.sessions.state(this.sessions.resolve(sessionId).id), estimatedTokens, this.triggerLimits());
  }

  /** True when `promptTokens` (default: the session's last real prompt tokens) reached the threshold and nothing holds compaction back in `sessionId`. */
  shouldCompress(promptTokens?: number, sessionId?: string): boolean {
    return this.shouldCompressInfo(promptTokens, sessionId).should;
  }

  /**
   * Records usage; the first real usage after a compaction in `sessionId` (default: the current session)
   * tells whether it was effective. A usage without prompt tokens (read as 0) proves nothing: it ends the
   * wait but judges nothing.
   */
  override updateFromResponse(usage: UsageReport, sessionId?: string): NormalizedUsage {
    const normalized = this.recordUsage(usage);
    const { id, identified } = this.sessions.resolve(sessionId);
    this.sessions.usage.record(identified ? id : undefined, normalized.promptTokens);
    const state = this.sessions.state(id);
    this.cacheTracker?.recordUsage(id, normalized, state.awaitingUsageAfterCompaction);
    if (normalized.promptTokens <= 0) state.awaitingUsageAfterCompaction = false;
    else recordRealUsage(state, normalized.promptTokens >= this.thresholdTokens);
    this.agentRequests.noteTurn(id, normalized.promptTokens);
    this.sessions.save(id);
    return normalized;
  }

  /**
   * The session is open: calls without a session id belong to it while it is the only open one. Its
   * saved state is read now (awaited from a store that answers with promises, such as PostgreSQL).
   */
  override onSessionStart(sessionId: string, info?: SessionInfo): Promise<void> {
    this.tools.openScopes.set(sessionId, info?.scope ?? DEFAULT_SESSION_SCOPE);
    return this.sessions.start(sessionId);
  }

  /**
   * Resolves once the session states written to an asynchronous store (PostgreSQL) in the background have
   * been sent. A write that failed (already warned about through `warn`) is sent once more here; when that
   * fails too this rejects with a `SessionStoreError` naming each session and its error, and the states
   * stay in memory, to be sent by the session's next change or the next `flushState()`. Await it at
   * shutdown: a rejection means state the store does not have.
   */
  flushState(): Promise<void> {
    return this.sessions.flush();
  }

  /** The session is over: its summary, cooldown and streaks are forgotten (in the store too). */
  override onSessionEnd(sessionId: string, _messages: ChatMessage[]): void {
    this.tools.openScopes.delete(sessionId);
    this.agentRequests.forget(sessionId).catch((error: unknown) => this.warnOf(`context engine: the compact_context request of session '${sessionId}' could not be removed from the store: ${errorText(error)}`));
    this.background.forget(sessionId).catch((error: unknown) => this.warnOf(`context engine: the summary prepared in the background for session '${sessionId}' could not be removed from the store: ${errorText(error)}`));
    this.sessions.end(sessionId);
    this.cacheTracker?.forget(sessionId);
  }

  /** `/new` or `/reset` of the current session: counters, summary, cooldowns and pauses start over. */
  override onSessionReset(): void {
    super.onSessionReset();
    this.lastCompression = undefined;
    const { id } = this.sessions.resolve(undefined);
    this.lastCompacted = undefined;
    this.agentRequests.forget(id).catch((error: unknown) => this.warnOf(`context engine: the compact_context request of session '${id}' could not be removed from the store: ${errorText(error)}`));
    this.background.drop(id);
    this.sessions.forget(id);
    this.cacheTracker?.forget(id);
  }

  /** Boundaries and pruning for `messages` of session `sessionId`, reusing and then keeping how its conversation was last pruned. */
  private prepare(messages: ChatMessage[], index = indexConversation(messages), tokens = countedMessageTokens(this.tokenCounter, messages), sessionId = this.sessions.resolve(undefined).id) {
    const prepared = prepareCompaction(messages, tokens, this.prepareSettings(sessionId), index);
    this.sessions.rememberPruning(sessionId, prepared.pruneMemo);
    return prepared;
  }

  /** The settings a compaction of session `sessionId` is planned and pruned with. */
  private prepareSettings(sessionId: string) {
    return {
      protectFirstN: this.compression.protect_first_n,
      protectLastN: this.compression.protect_last_n,
      minTailUserMessages: this.compression.min_tail_user_messages,
      tailTokenBudget: this.tailTokenBudget,
      maxSummaryTokens: this.maxSummaryTokens,
      thresholdTokens: this.thresholdTokens,
      pruneMemo: this.sessions.lastPruning(sessionId),
    };
  }

  /**
   * Background compaction (`compression.prepare_at`; docs/BEHAVIOUR.md, "Background compaction"): when
   * `options.currentTokens` (default: the session's last real usage) has passed the preparation point and
   * not yet the trigger, starts the summary of the range compress() would compact now and returns at once
   * (backgroundPreparation.ts). The next compress() of a conversation that still starts with these
   * messages applies it; a summarizer failure changes nothing and is reported (`failed`, `onPreparation`,
   * `warn`). One preparation per session: while its range still starts the conversation it is reported,
   * not started again.
   */
  override prepareCompression(messages: ChatMessage[], options: PrepareCompressionOptions = {}): PreparationStatus {
    return prepareInBackground(this.compaction, this.compression, messages, options);
  }

  /** Where the background summary of session `sessionId` (default: the current session) stands, without starting one. */
  preparationStatus(sessionId?: string): PreparationStatus {
    if (this.compression.prepare_at === null) return { state: "off" };
    return this.background.status(this.sessions.resolve(sessionId).id);
  }

  /** Pruning alone: old tool outputs cleared outside the tail compress() would protect; nothing summarized. */
  pruneToolResultsOnly(messages: ChatMessage[]): ChatMessage[] {
    return this.prepare(messages).pruned;
  }

  /** True when compress() would find turns between the protected head and tail to summarize. */
  hasContentToCompress(messages: ChatMessage[]): boolean {
    return this.prepare(messages).hasContent;
  }

  /**
   * Compacts `messages` (scan → plan boundaries → prune → summarize → assemble) in session
   * `options.sessionId` (default: the only open session, else the default session). On a summary failure
   * that must not lose turns the input is returned unchanged and `lastCompression` says why. The output
   * always passes validateConversation.
   */
  async compress(messages: ChatMessage[], options: CompressOptions = {}): Promise<ChatMessage[]> {
    // Tool calls still running at the end stay out of compaction and come back unchanged (no stub results).
    const { settled, inFlight, index } = scanConversation(messages);
    const session = this.sessions.resolve(options.sessionId);
    let compressed: ChatMessage[];
    try {
      compressed = await compactInSession(this.compaction, settled, index, options, session, this.sessions.state(session.id));
    } finally {
      this.sessions.save(session.id);
    }
    // this call's report: another session's compaction may have finished meanwhile (lastCompression is the latest of any)
    const report = this.sessions.lastReport(session.id);
    if (inFlight.length > 0 && report) includeInFlightGroup(report, inFlight.length, this.tokenCounter.countMessages(inFlight), options.currentTokens !== undefined);
    this.noteCompacted(session.id, report, options.focusTopic);
    if (inFlight.length === 0) return compressed;
    return compressed === settled ? messages : [...compressed, ...inFlight];
  }

  /** After a compress() call of session `sessionId` that changed the conversation (its `report`): the status's last compaction, and the wait of `compact_context`. */
  private noteCompacted(sessionId: string, report: CompressionReport | undefined, focus: string | undefined): void {
    if (report === undefined || report.aborted) return;
    this.lastCompacted = lastCompactionOf(report, this.now(), focus, this.tools.recoveryTool);
    this.sessions.rememberCompaction(sessionId, this.lastCompacted);
    this.agentRequests.noteCompaction(sessionId);
  }
}

export type { CompressionReport } from "./report.js";
