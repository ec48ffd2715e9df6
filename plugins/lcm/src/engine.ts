/**
 * `LcmEngine`: lossless context management. Every message is stored verbatim in SQLite; older turns are
 * condensed into a DAG of summaries that point back to their sources; the fresh tail stays raw. The
 * model sees the system prompt, the summaries and the tail, and can search and expand the rest with tools.
 */
import {
  AWAITING_REAL_USAGE,
  ContextEngine,
  effectiveThresholdPercent,
  ExtractiveSummarizer,
  matchModelThreshold,
  parseMessages,
  RoughTokenCounter,
  type ChatMessage,
  type CompressOptions,
  type ModelInfo,
  type SessionInfo,
  type Summarizer,
  type TokenCounter,
  type ToolSchema,
} from "./core.js";
import { assembleContext, isLcmArtifact, splitSystemPrompt, type AssembleOptions } from "./assemble.js";
import { loadContext, runCompaction, type CompactionOutcome } from "./compaction.js";
import { parseLcmConfig, type LcmSettings } from "./config.js";
import { checkLcmStore, type DoctorReport } from "./doctor.js";
import { heldSequence, type HeldSequence } from "./held.js";
import { ingestConversation, type IngestResult } from "./ingest.js";
import { messageIdentity } from "./messageText.js";
import { sessionMatcher } from "./sessionPatterns.js";
import { LcmStore, type StoredMessage } from "./store/LcmStore.js";
import { CompactionAbortedError } from "./summarize.js";
import { dispatchLcmTool } from "./tools/index.js";
import { toolErrorResult } from "./tools/result.js";
import { lcmToolSchemas } from "./tools/schemas.js";
import type { ToolContext } from "./tools/types.js";

/** Options of a standalone {@link LcmEngine}. */
export interface LcmEngineOptions {
  /** SQLite file (or ":memory:"); overrides `config.db_path`. One of dbPath, config.db_path or store is required. */
  dbPath?: string;
  /** An already open store (shared between engines). */
  store?: LcmStore;
  /** The `lcm:` settings, raw (validated here) or already parsed. */
  config?: unknown;
  /** Core's Summarizer; default the offline ExtractiveSummarizer. */
  summarizer?: Summarizer;
  /** True when `summarizer` is an LLM (enables lcm_expand_query). Default: any summarizer that is not extractive. */
  llmSummarizer?: boolean;
  tokenCounter?: TokenCounter;
  model?: ModelInfo;
  /** The host's `compression.model_thresholds`: per-model trigger shares that override `threshold`. */
  modelThresholds?: Record<string, number> | undefined;
  warn?: (message: string) => void;
  /** Clock for created_at (tests pin it). */
  now?: () => number;
}

function isExtractive(summarizer: Summarizer): boolean {
  return summarizer instanceof ExtractiveSummarizer || summarizer.name === "extractive";
}

/** The lossless context engine ("lcm"). */
export class LcmEngine extends ContextEngine {
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
  private readonly ownsStore: boolean;
  /** The open store; `store` reopens it when `onSessionEnd` closed it. */
  private storeHandle: LcmStore;
  /** compress() calls in flight: the store is not closed under them. */
  private running = 0;
  /** Set by onSessionEnd while a compress() was running: the last one to finish closes the store. */
  private closeWhenIdle = false;
  /** Set by close(): the store is not reopened any more. */
  private disposed = false;
  /** Per session: identities of the conversation the host was last known to hold. */
  private readonly held = new Map<string, HeldSequence>();
  /** True for the sessions `ignore_sessions` names: nothing of them is stored. */
  readonly isIgnoredSession: (session: string) => boolean;
  /** The summarizer is not called before this time (epoch ms): it refused its credentials. */
  summarizerPausedUntil = 0;

  constructor(options: LcmEngineOptions = {}) {
    super(options.model ? { model: options.model } : {});
    this.settings = parseLcmConfig(options.config);
    const dbPath = options.dbPath ?? this.settings.db_path;
    if (!options.store && !dbPath) throw new Error("LcmEngine: give dbPath, config.db_path or store");
    this.storeHandle = options.store ?? new LcmStore(dbPath!);
    this.ownsStore = !options.store;
    this.summarizer = options.summarizer ?? new ExtractiveSummarizer();
    this.tokenCounter = options.tokenCounter ?? new RoughTokenCounter();
    const llm = options.llmSummarizer ?? (options.summarizer !== undefined && !isExtractive(options.summarizer));
    this.llm = llm ? this.summarizer : undefined;
    this.warn = options.warn ?? (() => {});
    this.now = options.now ?? Date.now;
    this.sessionId = this.settings.session;
    this.modelThresholds = options.modelThresholds;
    this.isIgnoredSession = sessionMatcher(this.settings.ignore_sessions);
    this.updateModel(this.model);
  }

  /** The SQLite store; a file store this engine opened and `onSessionEnd` closed is reopened on first use. */
  get store(): LcmStore {
    if (this.ownsStore && !this.disposed && !this.storeHandle.isOpen) this.storeHandle = new LcmStore(this.storeHandle.path);
    return this.storeHandle;
  }

  /**
   * lcm's trigger: the share of the window `compression.model_thresholds` gives the model (the longest
   * matching key, raised to 75 % on windows under 512k, as the built-in compressor applies it), else
   * lcm's own `threshold` (default 0.75). lcm has no minimum trigger: it compacts losslessly. A model
   * change zeroes the usage counters, as in every engine (the base class does it).
   */
  override updateModel(model: ModelInfo): void {
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

  /** True when `promptTokens` (default the last real prompt tokens) reached the threshold. */
  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return this.thresholdTokens > 0 && promptTokens >= this.thresholdTokens;
  }

  /**
   * Stores what is new in `messages` (after the system prompt), idempotently; returns the newly stored
   * records. `compress` calls it; hosts may call it directly to archive turns without compacting.
   */
  ingest(messages: ChatMessage[], session: string = this.sessionId): StoredMessage[] {
    // the store is append-only: a malformed message must be refused before it is stored for good
    parseMessages(messages, "LcmEngine.ingest");
    if (this.isIgnoredSession(session)) return [];
    return this.ingestValid(messages, session).stored;
  }

  /** {@link ingest} of an already validated list. */
  private ingestValid(messages: ChatMessage[], session: string): IngestResult {
    const { conversation } = splitSystemPrompt(messages);
    const result = ingestConversation(this.store, session, conversation, this.tokenCounter, () => this.heldBy(session), this.now(), this.held.get(session));
    this.held.set(session, result.held);
    return result;
  }

  /**
   * Ingests into session `options.sessionId` (default {@link sessionId}), then (at or above the
   * threshold, or with `force`) compacts until the context is at the target and returns the assembled
   * context. Below the threshold the input is returned unchanged, and so is the input of a session
   * `ignore_sessions` names. An aborted `signal` returns the input unchanged too (passes already committed
   * stay in the store).
   */
  async compress(messages: ChatMessage[], options: CompressOptions = {}): Promise<ChatMessage[]> {
    parseMessages(messages, "LcmEngine.compress");
    this.running++;
    try {
      return await this.ingestAndCompact(messages, options);
    } finally {
      this.running--;
      if (this.running === 0 && this.closeWhenIdle) this.closeFileStore();
    }
  }

  /** The body of {@link compress}, run while `running` counts it. */
  private async ingestAndCompact(messages: ChatMessage[], options: CompressOptions): Promise<ChatMessage[]> {
    const session = options.sessionId || this.sessionId;
    // an ignored session is neither stored nor compacted: lcm only compacts what it keeps
    if (this.isIgnoredSession(session)) return messages;
    const ingested = this.ingestValid(messages, session);
    // stored and held messages are not counted again: only the system prompt and lcm's own artifacts are
    const tokens = options.currentTokens ?? ingested.tokens + this.tokenCounter.countMessages(messages.filter((m) => m.role === "system" || isLcmArtifact(m)));
    if (!options.force && tokens < this.thresholdTokens) return messages;
    const { system } = splitSystemPrompt(messages);
    let outcome: CompactionOutcome;
    try {
      outcome = await runCompaction({
        store: this.store,
        session,
        system,
        summarizer: this.summarizer,
        counter: this.tokenCounter,
        targetTokens: this.targetTokens,
        freshTail: this.settings.fresh_tail,
        leafChunkTokens: this.settings.leaf_chunk_tokens,
        leafTargetTokens: this.settings.leaf_target_tokens,
        condensedTargetTokens: this.settings.condensed_target_tokens,
        condenseFanin: this.settings.condense_fanin,
        maxDepth: this.settings.max_depth,
        maxPasses: this.settings.max_passes,
        summaryTimeoutMs: this.settings.summary_timeout_ms,
        now: this.now,
        signal: options.signal,
        focusTopic: options.focusTopic,
        summarizerPaused: this.now() < this.summarizerPausedUntil,
        externalizeAboveTokens: this.settings.externalize_tool_output_tokens,
      });
    } catch (error) {
      if (error instanceof CompactionAbortedError) return messages;
      throw error;
    }
    this.lastCompaction = outcome;
    this.reportSummarizerFailure(outcome);
    if (outcome.passes > 0) {
      this.compressionCount += 1;
      this.lastPromptTokens = AWAITING_REAL_USAGE;
      this.store.logCompaction({
        session,
        at: this.now(),
        passes: outcome.passes,
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
        summariesCreated: outcome.created.length,
        fallbackSummaries: outcome.fallbacks,
      });
    }
    const { output, held } = this.assembleHeld(system, session);
    this.held.set(session, held);
    return output;
  }

  /**
   * Warns about a summarizer failure. A refused credential (401/403) opens the circuit breaker: the
   * summarizer is not called for `auth_cooldown_ms` and fallback summaries are used, reported once here.
   */
  private reportSummarizerFailure(outcome: CompactionOutcome): void {
    if (outcome.authFailure !== undefined) {
      const ms = this.settings.auth_cooldown_ms;
      this.summarizerPausedUntil = this.now() + ms;
      const span = ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1_000)} s`;
      this.warn(`lcm: ${outcome.authFailure}; the summarizer is not called for the next ${span} (lcm.auth_cooldown_ms), deterministic fallback summaries are used`);
    } else if (outcome.summarizerError !== undefined) {
      this.warn(`lcm: summarizer failed (${outcome.summarizerError}); deterministic fallback summaries were used`);
    }
  }

  /** The context of `session` as the model would see it after `system`. Pure function of the stored state. */
  assemble(system: ChatMessage[] = [], session: string = this.sessionId): ChatMessage[] {
    return assembleContext(system, loadContext(this.store, session), this.assembleOptions);
  }

  /** How this engine assembles contexts (from its settings). */
  private get assembleOptions(): AssembleOptions {
    return { externalizeAboveTokens: this.settings.externalize_tool_output_tokens };
  }

  /** The agent-facing tools: lcm_grep, lcm_describe, lcm_expand (+ lcm_expand_query with an LLM summarizer). */
  override getToolSchemas(): ToolSchema[] {
    return lcmToolSchemas(this.llm !== undefined);
  }

  /** Runs an lcm tool against the current session; never throws. */
  override async handleToolCall(name: string, args: unknown): Promise<string> {
    let context: ToolContext;
    try {
      context = this.toolContext();
    } catch (error) {
      // the store could not be reopened after onSessionEnd closed it
      return toolErrorResult("internal", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const result = await dispatchLcmTool(context, name, args);
    return result ?? super.handleToolCall(name, args);
  }

  /** The state tools run against (exposed for hosts that run tools for another session). */
  toolContext(session: string = this.sessionId): ToolContext {
    return {
      store: this.store,
      session,
      counter: this.tokenCounter,
      regexBudgetMs: this.settings.regex_time_budget_ms,
      allSessions: this.settings.search_all_sessions,
      summaryTimeoutMs: this.settings.summary_timeout_ms,
      llmSummarizer: this.llm,
      summarizerPausedUntil: this.summarizerPausedUntil,
      now: this.now,
    };
  }

  /** Switches to `sessionId`. */
  override onSessionStart(sessionId: string, _info?: SessionInfo): void {
    this.sessionId = sessionId;
  }

  /**
   * Archives the session's final messages (nothing is compacted) and forgets what the session held in
   * memory; when it was the current session, later calls without a session id go to the configured
   * default session again. Then closes a store file this engine opened (after any compress() still
   * running); the next use reopens it. An in-memory store stays open.
   */
  override onSessionEnd(sessionId: string, messages: ChatMessage[]): void {
    this.ingest(messages, sessionId);
    this.held.delete(sessionId);
    if (this.sessionId === sessionId) this.sessionId = this.settings.session;
    if (this.running > 0) this.closeWhenIdle = true;
    else this.closeFileStore();
  }

  private closeFileStore(): void {
    this.closeWhenIdle = false;
    if (this.ownsStore && this.storeHandle.path !== ":memory:") this.storeHandle.close();
  }

  /** `/new`: counters reset and a fresh session (`<id>~<n>`), so the old history stays intact and searchable there. */
  override onSessionReset(): void {
    super.onSessionReset();
    const base = this.sessionId.replace(/~\d+$/, "");
    let n = 1;
    while (this.store.hasSession(`${base}~${n}`)) n++;
    this.sessionId = `${base}~${n}`;
  }

  /** Checks the store's summary DAG and indexes (every session, or `sessions`); see {@link checkLcmStore}. */
  doctor(sessions?: readonly string[]): DoctorReport {
    return checkLcmStore(this.store, sessions);
  }

  /** Closes the store if this engine opened it, for good (unlike onSessionEnd, nothing reopens it). */
  close(): void {
    this.disposed = true;
    if (this.ownsStore) this.storeHandle.close();
  }

  /** What the host holds for `session`, when unknown: the identities of the current assembled context. */
  private heldBy(session: string): HeldSequence {
    return this.held.get(session) ?? this.assembleHeld([], session).held;
  }

  /** The assembled context of `session` and what the host holds once it has it (stored identities and counts, nothing hashed). */
  private assembleHeld(system: ChatMessage[], session: string): { output: ChatMessage[]; held: HeldSequence } {
    const items = loadContext(this.store, session, this.tokenCounter);
    const output = assembleContext(system, items, this.assembleOptions);
    const stored = new Map<ChatMessage, StoredMessage>();
    for (const item of items) if (item.type === "message") stored.set(item.stored.message, item.stored);
    const messages = output.slice(system.length).filter((m) => !isLcmArtifact(m));
    const ids = messages.map((m) => stored.get(m)?.identity ?? messageIdentity(m));
    const tokens = messages.map((m) => stored.get(m)?.tokens ?? this.tokenCounter.countMessages([m]));
    return { output, held: heldSequence(messages, ids, tokens, true) };
  }
}
