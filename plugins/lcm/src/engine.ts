/**
 * `LcmEngine`: lossless context management. Every message is stored verbatim (in SQLite, or in any
 * `LcmStoreAsync`, e.g. PostgreSQL); older turns are condensed into a DAG of summaries that point back to
 * their sources; the fresh tail stays raw. The model sees the system prompt, the summaries and the tail,
 * and can search and expand the rest with tools. Work on one session runs in order within an engine.
 * The class is the stateful shell: compress()'s compaction is compressSession.ts, the tool calls
 * engineTools.ts, what the host holds heldConversations.ts, the options engineOptions.ts.
 */
import {
  AWAITING_REAL_USAGE,
  CacheTimingTracker,
  ContextEngine,
  effectiveThresholdPercent,
  ExtractiveSummarizer,
  matchModelThreshold,
  parseMessages,
  RoughTokenCounter,
  type ChatMessage,
  type CompressOptions,
  type ModelInfo,
  DEFAULT_SESSION_SCOPE,
  type SessionInfo,
  type ToolCallContext,
  type Summarizer,
  type TokenCounter,
  type ToolSchema,
  type ToolTraits,
  AgentCompactionRequests,
  compactContextToolSchema,
  type AgentCompactionRequest,
  type EngineStatus,
  type LastCompaction,
  type UsageReport,
  preparationDue,
  sameModelInfo,
  promptTokensOf,
  SessionPromptTokens,
  type PrepareCompressionOptions,
  type PreparationStatus,
} from "./core.js";
import { splitSystemPrompt, type AssembleOptions } from "./assemble.js";
import { assembleWithin } from "./fitContext.js";
import { loadContext, runCompaction, type CompactionOutcome } from "./compaction.js";
import { compactionInputOf, ingestAndCompact, type LcmCompactionParts } from "./compressSession.js";
import { isExtractive, type LcmEngineOptions } from "./engineOptions.js";
export type { LcmEngineOptions } from "./engineOptions.js";
import { PreparedSummaries, warnFailedPreparation } from "./prepared.js";
import { SharedSummaries } from "./sharedSummaries.js";
import { parseLcmConfig, type LcmSettings } from "./config.js";
import { checkLcmStore, type DoctorReport } from "./doctor.js";
import { HeldConversations } from "./heldConversations.js";
import { carryOver, nextSessionId } from "./rollover.js";
import { sessionMatcher } from "./sessionPatterns.js";
import { SessionOrder } from "./sessionOrder.js";
import { skipBlocksPattern } from "./skipTags.js";
import { LcmStore, type StoredMessage } from "./store/LcmStore.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { StoreHandle } from "./storeHandle.js";
import { OpenScopes } from "./toolScope.js";
import { runLcmToolCall, toolContextOf, type LcmToolParts } from "./engineTools.js";
import { isReadOnlyLcmTool, lcmToolSchemas } from "./tools/schemas.js";
import type { ToolContext } from "./tools/types.js";

/** The lossless context engine ("lcm") over a store of type `S` (lcm's SQLite store unless given another). */
export class LcmEngine<S extends LcmStoreAsync = LcmStore> extends ContextEngine {
  /** The engine contract this engine was built for (docs/BEHAVIOUR.md, "Contract version"). */
  static readonly apiVersion = 1;
  readonly name = "lcm";
  readonly settings: LcmSettings;
  readonly summarizer: Summarizer;
  readonly tokenCounter: TokenCounter;
  /** The session compress (without `options.sessionId`), ingest and the tools work on: the last one started. */
  sessionId: string;
  /** The last compaction's outcome (undefined before the first). */
  lastCompaction: CompactionOutcome | undefined;
  private readonly llm: Summarizer | undefined;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;
  /** `compression.model_thresholds` (undefined while the base constructor sizes the engine the first time). */
  private readonly modelThresholds: Record<string, number> | undefined;
  /** The store and the operations using it (a file the engine opened is closed at a session's end). */
  private readonly handle: StoreHandle<S>;
  /** Ingest and compaction of one session, one after another. */
  private readonly order = new SessionOrder();
  /** Set by onSessionReset until the fresh session's id is known (calls without a session id wait for it). */
  private sessionPending: Promise<void> | undefined;
  /** Per session: what the host was last known to hold, and the ingest and assembly that change it. */
  private readonly held: HeldConversations;
  /** True for the sessions `ignore_sessions` names: nothing of them is stored. */
  readonly isIgnoredSession: (session: string) => boolean;
  /** The summarizer is not called before this time (epoch ms): it refused its credentials. */
  summarizerPausedUntil = 0;
  /** The scopes of the open sessions: a tool call reads the sessions of its caller's scope only. */
  private readonly scopes = new OpenScopes();
  /** The cache state behind `compression.timing: cache_aware` (docs/BEHAVIOUR.md, "Cache-aware timing"); undefined with the threshold. */
  readonly cacheTiming: CacheTimingTracker | undefined;

  /** Sessions `/new` started with summaries carried over that the host has not been handed yet. */
  private readonly carriedUnseen = new Set<string>();
  /** The blocks `summary_skip_tags` leaves out of the summarizer's input. */
  private readonly summarySkip: RegExp | undefined;
  /** The agent's `compact_context` requests per session (when `compactTool.enabled`). */
  readonly agentRequests: AgentCompactionRequests | undefined;
  /** The last compaction that changed a context, of any session and of each, for `getStatus()`. */
  private lastCompacted: LastCompaction | undefined;
  private readonly compactedBySession = new Map<string, LastCompaction>();
  /** Each session's last reported prompt tokens, when the host names the session of each response. */
  readonly sessionPromptTokens = new SessionPromptTokens();
  /** `compression.prepare_at`, and the dry runs it started (prepared.ts). */
  private readonly prepareAt: number | null | undefined;
  private readonly prepared: PreparedSummaries;
  /** What compress() hands each compaction (compressSession.ts). */
  private readonly compaction: LcmCompactionParts<S>;
  /** What each tool call is handed (engineTools.ts). */
  private readonly tools: LcmToolParts;

  constructor(options: LcmEngineOptions<S> = {}) {
    super(options.model ? { model: options.model } : {});
    this.settings = parseLcmConfig(options.config);
    const dbPath = options.dbPath ?? this.settings.db_path;
    if (!options.store && !dbPath) throw new Error("LcmEngine: give dbPath, config.db_path or store");
    const store = options.store ?? (new LcmStore(dbPath!) as LcmStoreAsync as S);
    this.handle = new StoreHandle(store, !options.store, options.ownsStore === true);
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
    this.tokenCounter = options.tokenCounter ?? new RoughTokenCounter();
    const llm = options.llmSummarizer ?? (options.summarizer !== undefined && !isExtractive(options.summarizer));
    this.llm = llm ? this.summarizer : undefined;
    this.warn = options.warn ?? (() => {});
    this.now = options.now ?? Date.now;
    this.held = new HeldConversations(this.tokenCounter, this.now, () => this.assembleOptions);
    this.cacheTiming = options.cacheTiming ? new CacheTimingTracker(options.cacheTiming, this.now) : undefined;
    this.sessionId = this.settings.session;
    this.modelThresholds = options.modelThresholds;
    this.isIgnoredSession = sessionMatcher(this.settings.ignore_sessions);
    this.summarySkip = skipBlocksPattern(this.settings.summary_skip_tags);
    // with a store workers share, requests and background summaries go through it too, under lcm's name
    const shared = options.sharedState;
    this.agentRequests = options.compactTool?.enabled === true ? new AgentCompactionRequests(options.compactTool, shared && { store: shared, engine: this.name }) : undefined;
    this.prepareAt = options.prepareAt;
    this.prepared = new PreparedSummaries(warnFailedPreparation(this.warn), shared === undefined || this.prepareAt == null ? undefined : new SharedSummaries(shared, this.name, this.now));
    this.compaction = {
      ...{ engine: this, now: this.now, warn: this.warn, summarySkip: this.summarySkip, prepared: this.prepared, carriedUnseen: this.carriedUnseen },
      ingest: (store, messages, session, source) => this.held.ingest(store, messages, session, source),
      assembleAndHold: (store, system, session) => this.held.assembleAndHold(store, system, session),
      compacted: (last, session) => void this.compactedBySession.set(session, (this.lastCompacted = last)),
    };
    this.tools = {
      ...{ engine: this, llm: this.llm, now: this.now, handle: this.handle, scopes: this.scopes },
      currentSession: () => this.currentSession(),
      toolContext: (session, scope) => this.toolContext(session, scope),
    };
    this.updateModel(this.model);
  }

  /** The store; a SQLite file this engine opened and `onSessionEnd` closed is reopened on first use. */
  get store(): S {
    return this.handle.store;
  }

  /** The session calls without a session id work on: {@link sessionId}, once a pending `/new` has picked it. */
  private async currentSession(): Promise<string> {
    await this.sessionPending;
    return this.sessionId;
  }

  /**
   * lcm's trigger: the share of the window `compression.model_thresholds` gives the model (the longest
   * matching key, raised to 75 % on windows under 512k, as the built-in compressor applies it), else
   * lcm's own `threshold` (default 0.75). lcm has no minimum trigger: it compacts losslessly. A model
   * change zeroes the usage counters, as in every engine (the base class does it).
   */
  override updateModel(model: ModelInfo): void {
    // unset while the base constructor sizes the engine
    if (!sameModelInfo(this.model, model)) this.sessionPromptTokens?.clear();
    super.updateModel(model);
    const match = matchModelThreshold(model.model, this.modelThresholds ?? {});
    this.thresholdPercent = match ? effectiveThresholdPercent(model.contextLength, match.value, true) : (this.settings?.threshold ?? 0.75);
    this.thresholdRule = !match ? "threshold" : this.thresholdPercent > match.value ? "small-context-floor" : "model-threshold";
    this.thresholdTokens = Math.floor(model.contextLength * this.thresholdPercent);
  }

  /** The token count compaction stops at: `threshold × target_ratio` of the window. */
  get targetTokens(): number {
    return Math.floor(this.thresholdTokens * this.settings.target_ratio);
  }

  /**
   * True when `promptTokens` (default the last real prompt tokens of `sessionId`, else of any session)
   * reached the threshold; with cache-aware timing, when the rule says so (earlier once the cache expired,
   * later while it is warm, never past the window less the output reserve), compacting down to {@link targetTokens}.
   */
  shouldCompress(promptTokens?: number, sessionId?: string): boolean {
    promptTokens ??= promptTokensOf(this, sessionId);
    if (this.thresholdTokens <= 0) return false;
    if (this.cacheTiming === undefined || promptTokens <= 0) return promptTokens >= this.thresholdTokens;
    return this.cacheTiming.decide(sessionId ?? this.sessionId, this.model, promptTokens, { triggerTokens: this.thresholdTokens, compactedTokensEstimate: this.targetTokens }).compact;
  }

  /**
   * Records usage for session `sessionId` (default: the current one); with cache-aware timing also what it
   * says about the prompt cache, and with `compact_context` on one more turn since its last compaction.
   */
  override updateFromResponse(usage: UsageReport, sessionId?: string): void {
    const afterCompaction = promptTokensOf(this, sessionId) === AWAITING_REAL_USAGE;
    const normalized = this.recordUsage(usage);
    this.sessionPromptTokens.record(sessionId, normalized.promptTokens);
    const session = sessionId ?? this.sessionId;
    this.cacheTiming?.recordUsage(session, normalized, afterCompaction);
    this.agentRequests?.noteTurn(session, normalized.promptTokens);
  }

  /** The last prompt tokens reported for `sessionId` (`updateFromResponse(usage, sessionId)`): {@link lastPromptTokens} is the latest of any session. */
  override lastPromptTokensOf(sessionId: string): number {
    return this.sessionPromptTokens.of(sessionId, this.lastPromptTokens);
  }

  /**
   * Stores what is new in `messages` (after the system prompt), idempotently; resolves to the newly
   * stored records. `compress` calls it; hosts may call it directly to archive turns without compacting.
   */
  async ingest(messages: ChatMessage[], session?: string): Promise<StoredMessage[]> {
    if (!Array.isArray(messages)) parseMessages(messages, "LcmEngine.ingest");
    return this.handle.use(async (store) => {
      const target = session ?? (await this.currentSession());
      if (this.isIgnoredSession(target)) {
        parseMessages(messages, "LcmEngine.ingest"); // nothing is stored, but bad input is still refused
        return [];
      }
      return (await this.order.run(target, () => this.held.ingest(store, messages, target, "LcmEngine.ingest"))).stored;
    });
  }

  /**
   * Ingests into session `options.sessionId` (default {@link sessionId}), then (at or above the
   * threshold, or with `force`) compacts until the context is at the target and returns the assembled
   * context. Below the threshold the input is returned unchanged, and so is the input of a session
   * `ignore_sessions` names. An aborted `signal` returns the input unchanged too (passes already committed
   * stay in the store). While another engine on the same store compacts the session (a store with
   * `leaseCompaction`, e.g. PostgreSQL), this one does not: it returns the context as stored.
   */
  async compress(messages: ChatMessage[], options: CompressOptions = {}): Promise<ChatMessage[]> {
    if (!Array.isArray(messages)) parseMessages(messages, "LcmEngine.compress");
    return this.handle.use(async (store) => {
      const session = options.sessionId || (await this.currentSession());
      // an ignored session is neither stored nor compacted: lcm only compacts what it keeps
      if (this.isIgnoredSession(session)) {
        parseMessages(messages, "LcmEngine.compress");
        return messages;
      }
      return this.order.run(session, () => ingestAndCompact(this.compaction, store, session, messages, options));
    });
  }

  /** The base counters, the last compaction (when, tokens before and after, whether fallback summaries were used) and the pending request: of any session, or with `sessionId` of that one. */
  override getStatus(sessionId?: string): EngineStatus {
    const pending = this.agentRequests?.pending(sessionId ?? this.sessionId);
    const last = sessionId === undefined ? this.lastCompacted : this.compactedBySession.get(sessionId);
    return { ...super.getStatus(sessionId), ...(last ? { lastCompaction: last } : {}), ...(pending ? { pendingCompactionRequest: pending } : {}) };
  }

  /** The pending `compact_context` request of `sessionId` (default the current session), taken: the host compacts with its focus. */
  async takeCompactionRequest(sessionId?: string): Promise<AgentCompactionRequest | undefined> {
    return this.agentRequests?.take(sessionId ?? this.sessionId);
  }

  /** Gives back a request whose compaction could not run (another worker held the session's compaction): the next turn boundary honours it. */
  async restoreCompactionRequest(sessionId: string, request: AgentCompactionRequest): Promise<void> {
    await this.agentRequests?.restore(sessionId, request);
  }

  /**
   * Background compaction (`compression.prepare_at`): past the preparation point and below the trigger,
   * stores what is new in `messages` and runs the compaction dry in the background — its passes and
   * summaries kept, nothing committed (prepared.ts) — so the compaction at the trigger commits them at
   * once. Returns at once; once per session until that compaction. A summarizer failure in the dry run
   * changes nothing and is reported (`failed`, `warn`).
   */
  override prepareCompression(messages: ChatMessage[], options: PrepareCompressionOptions = {}): PreparationStatus {
    if (this.prepareAt == null) return { state: "off" };
    const session = options.sessionId || this.sessionId;
    const existing = this.prepared.statusFor(session, messages);
    if (existing.state !== "not_due") return existing;
    const tokens = options.currentTokens ?? promptTokensOf(this, options.sessionId || undefined);
    if (!preparationDue(tokens, options.triggerTokens ?? this.thresholdTokens, this.prepareAt)) return { state: "not_due", reason: `${tokens} prompt tokens are below the preparation point or past the trigger` };
    if (this.isIgnoredSession(session) || this.now() < this.summarizerPausedUntil) return { state: "not_due", reason: "the session is ignored or the summarizer paused" };
    const { system } = splitSystemPrompt(messages);
    return this.prepared.start(session, this.summarizer, messages, (recording, dryRun, begun) =>
      this.handle.use(async (store) => {
        await this.order.run(session, async () => {
          await this.held.ingest(store, messages, session, "LcmEngine.prepareCompression");
          begun();
        });
        return runCompaction(compactionInputOf(this.compaction, dryRun(store), session, system, {}, recording));
      }),
    );
  }

  /** Where the background compaction of `session` (default the current one) stands, without starting one. */
  preparationStatus(session?: string): PreparationStatus {
    return this.prepareAt == null ? { state: "off" } : this.prepared.status(session ?? this.sessionId);
  }

  /** The context of `session` as the model would see it after `system`. Pure function of the stored state. */
  async assemble(system: ChatMessage[] = [], session?: string): Promise<ChatMessage[]> {
    const options = this.assembleOptions;
    return this.handle.use(async (store) => assembleWithin(system, await loadContext(store, session ?? (await this.currentSession())), options, options.limitTokens, (message) => this.tokenCounter.countMessages([message])));
  }

  /** How this engine assembles contexts (from its settings). */
  private get assembleOptions(): AssembleOptions {
    return { externalizeAboveTokens: this.settings.externalize_tool_output_tokens, limitTokens: this.requestLimitTokens };
  }

  /** The agent-facing tools: lcm_grep, lcm_describe, lcm_expand (+ lcm_expand_query with an LLM summarizer). */
  override getToolSchemas(): ToolSchema[] {
    return [...lcmToolSchemas(this.llm !== undefined), ...(this.agentRequests ? [compactContextToolSchema()] : [])];
  }

  /** lcm_grep, lcm_describe and lcm_expand only read the store; lcm_expand_query sends what it read to the summarizer model, compact_context records a request. */
  override toolTraits(name: string): ToolTraits {
    return isReadOnlyLcmTool(name) ? { readOnly: true } : {};
  }

  /**
   * Runs an lcm tool for the calling session (`context`, else the current one) over the sessions of its
   * scope only; on a store that enforces scopes itself (PostgreSQL), inside a read limited to it. Never throws.
   */
  override async handleToolCall(name: string, args: unknown, context?: ToolCallContext): Promise<string> {
    return (await runLcmToolCall(this.tools, name, args, context)) ?? super.handleToolCall(name, args, context);
  }

  /**
   * The state tools run against (exposed for hosts that run tools for another session): `scope` defaults
   * to the one `session` was opened in, else the default scope.
   */
  toolContext(session: string = this.sessionId, scope: string = this.scopes.openScope(session) ?? DEFAULT_SESSION_SCOPE): ToolContext {
    return toolContextOf(this.tools, session, scope);
  }

  /**
   * Switches to `sessionId` (a pending `/new` does not switch away from it) and records its scope
   * (`info.scope`, else the default scope) in the store; a session stored in another scope is refused.
   */
  override async onSessionStart(sessionId: string, info?: SessionInfo): Promise<void> {
    const scope = this.scopes.start(sessionId, info?.scope);
    this.sessionId = sessionId;
    await this.handle.use((store) => store.recordSessionScope(sessionId, scope));
  }

  /**
   * Archives the session's final messages (nothing is compacted) and forgets what the session held in
   * memory; when it was the current session, later calls without a session id go to the configured
   * default session again. Then closes a store file this engine opened (after the work still using it);
   * the next use reopens it. An in-memory store, and a store handed to the engine, stay open.
   */
  override async onSessionEnd(sessionId: string, messages: ChatMessage[]): Promise<void> {
    await this.ingest(messages, sessionId);
    this.held.forget(sessionId);
    this.sessionPromptTokens.forget(sessionId);
    this.compactedBySession.delete(sessionId);
    await this.agentRequests?.forget(sessionId);
    await this.prepared.forget(sessionId);
    this.scopes.end(sessionId);
    if ((await this.currentSession()) === sessionId) this.sessionId = this.settings.session;
    this.handle.release();
  }

  /**
   * `/new`: counters reset and a fresh session (`<id>~<n>`, the first n the store has no session for),
   * so the old history stays intact and searchable there. The fresh session starts with the old one's
   * deepest summaries in context (`new_session_retain_depth`). Calls without a session id wait until it is
   * picked; an `onSessionStart` meanwhile wins.
   */
  override onSessionReset(): Promise<void> {
    super.onSessionReset();
    this.sessionPromptTokens.forget(this.sessionId);
    const previous = this.sessionPending;
    const reset = (async () => {
      await previous;
      const from = this.sessionId;
      const next = await this.handle.use((store) => nextSessionId(store, from));
      if (this.sessionId !== from) return;
      const to = (this.sessionId = next);
      await this.handle.use(async (store) => store.recordSessionScope(to, await this.scopes.inherit(store, from, to)));
      const carry = { depth: this.settings.new_session_retain_depth, isIgnored: this.isIgnoredSession, carriedUnseen: this.carriedUnseen, warn: this.warn };
      await carryOver({ ...carry, use: (body) => this.handle.use(body) }, from, to);
    })();
    const settled = reset.catch(() => undefined);
    this.sessionPending = settled;
    void settled.then(() => {
      if (this.sessionPending === settled) this.sessionPending = undefined;
    });
    return reset;
  }

  /** Checks the store's summary DAG (and, on SQLite, its indexes) for every session or `sessions`; see {@link checkLcmStore}. */
  async doctor(sessions?: readonly string[]): Promise<DoctorReport> {
    return this.handle.use((store) => checkLcmStore(store, sessions));
  }

  /** Closes the store if this engine opened or owns it, for good (unlike onSessionEnd, nothing reopens it). */
  close(): Promise<void> {
    return this.handle.close();
  }
}
