/**
 * What `LcmEngine.compress` does in a session's order: stores what is new and, at the trigger (or
 * forced), compacts — the passes a background dry run prepared committed first (prepared.ts), then
 * more passes while still at the trigger (compaction.ts) — records the outcome, and returns the
 * assembled context the host holds from then on. It keeps nothing itself: the engine hands it what it
 * holds (LcmCompactionParts).
 */
import { AWAITING_REAL_USAGE, type AgentCompactionRequests, type SessionPromptTokens, type ChatMessage, type CompressOptions, type LastCompaction, type Summarizer, type TokenCounter } from "./core.js";
import { systemPromptLength } from "./assemble.js";
import { runCompaction, type CompactionInput, type CompactionOutcome } from "./compaction.js";
import { lcmLastCompaction } from "./compactTool.js";
import type { LcmSettings } from "./config.js";
import type { IngestResult } from "./ingest.js";
import type { PreparedSummaries } from "./prepared.js";
import type { LcmStoreAsync } from "./store/LcmStoreAsync.js";
import { CompactionAbortedError } from "./summarize.js";

/** What of the engine (an LcmEngine) a compaction reads, and the counters it updates. */
export interface CompactingLcmEngine {
  readonly settings: LcmSettings;
  readonly summarizer: Summarizer;
  readonly tokenCounter: TokenCounter;
  readonly thresholdTokens: number;
  readonly targetTokens: number;
  readonly agentRequests: AgentCompactionRequests | undefined;
  compressionCount: number;
  lastPromptTokens: number;
  /** Each named session's last reported prompt tokens. */
  readonly sessionPromptTokens: SessionPromptTokens;
  lastCompaction: CompactionOutcome | undefined;
  /** Set when the summarizer refuses its credentials: it is not called before then (epoch ms). */
  summarizerPausedUntil: number;
}

/** What a compaction's input is made of: the engine, its clock and the blocks its summaries skip. */
export interface LcmCompactionSettings {
  engine: CompactingLcmEngine;
  now: () => number;
  /** The blocks `summary_skip_tags` leaves out of the summarizer's input. */
  summarySkip: RegExp | undefined;
}

/**
 * The engine and the parts it keeps to itself that a compaction over a store of type `S` works with.
 * `ingest` and `assembleAndHold` are methods, whose parameters are checked both ways: an engine over a
 * narrower store (PostgreSQL's) still passes for one over any `LcmStoreAsync`.
 */
export interface LcmCompactionParts<S extends LcmStoreAsync> extends LcmCompactionSettings {
  warn: (message: string) => void;
  /** The dry runs `compression.prepare_at` started. */
  prepared: PreparedSummaries;
  /** Sessions `/new` started with summaries carried over that the host has not been handed yet. */
  carriedUnseen: Set<string>;
  /** Validates and stores what is new in `messages` (the engine's ingest, `source` naming the caller in errors). */
  ingest(store: S, messages: ChatMessage[], session: string, source: string): Promise<IngestResult>;
  /** The assembled context of `session`, which the host holds from then on. */
  assembleAndHold(store: S, system: ChatMessage[], session: string): Promise<ChatMessage[]>;
  /** Told of each compaction that changed a context, for `getStatus()`. */
  compacted: (last: LastCompaction, session: string) => void;
}

/** What a compaction of `session` runs with, asking `summarizer`. */
export function compactionInputOf(
  parts: LcmCompactionSettings,
  store: LcmStoreAsync,
  session: string,
  system: ChatMessage[],
  options: CompressOptions,
  summarizer: Summarizer,
): CompactionInput {
  const { engine, now } = parts;
  const settings = engine.settings;
  return {
    ...{ store, session, system, summarizer, counter: engine.tokenCounter, targetTokens: engine.targetTokens, now, signal: options.signal, focusTopic: options.focusTopic },
    ...{ freshTail: settings.fresh_tail, leafChunkTokens: settings.leaf_chunk_tokens, leafTargetTokens: settings.leaf_target_tokens, condensedTargetTokens: settings.condensed_target_tokens },
    ...{ condenseFanin: settings.condense_fanin, maxDepth: settings.max_depth, maxPasses: settings.max_passes, summaryTimeoutMs: settings.summary_timeout_ms },
    summarizerPaused: now() < engine.summarizerPausedUntil,
    externalizeAboveTokens: settings.externalize_tool_output_tokens,
    summarySkip: parts.summarySkip,
  };
}

/** The body of `LcmEngine.compress`, in the session's order. */
export async function ingestAndCompact<S extends LcmStoreAsync>(parts: LcmCompactionParts<S>, store: S, session: string, messages: ChatMessage[], options: CompressOptions): Promise<ChatMessage[]> {
  const { engine } = parts;
  const ingested = await parts.ingest(store, messages, session, "LcmEngine.compress");
  const system = messages.slice(0, systemPromptLength(messages));
  // stored and held messages are not counted again: only the system prompt and lcm's own artifacts are
  const tokens = options.currentTokens ?? ingested.tokens + engine.tokenCounter.countMessages([...system, ...ingested.artifacts]);
  if (!options.force && tokens < engine.thresholdTokens) {
    // a session /new started shows the summaries it carried over from its first call on
    return parts.carriedUnseen.delete(session) ? parts.assembleAndHold(store, system, session) : messages;
  }
  const release = await store.leaseCompaction?.(session);
  if (release === undefined && store.leaseCompaction !== undefined) return parts.assembleAndHold(store, system, session);
  let outcome: CompactionOutcome;
  try {
    // summaries a dry run prepared below the trigger, here or on another worker, are taken as they are (prepared.ts)
    const prepared = await parts.prepared.summarizerFor(session, engine.summarizer, messages, options.signal);
    const committed = await parts.prepared.commitPrepared(session, store);
    // the prepared passes applied, the turns appended since stay after them; more passes only while still at the trigger
    const input = compactionInputOf(parts, store, session, system, options, prepared.summarizer);
    outcome = await runCompaction(committed.length === 0 ? input : { ...input, targetTokens: Math.max(input.targetTokens, engine.thresholdTokens - 1) });
    if (committed.length > 0) Object.assign(outcome, { passes: outcome.passes + committed.length, created: [...committed, ...outcome.created], tokensBefore: tokens });
    if (committed.length + prepared.hits() > 0) outcome.preparedSummaries = committed.length + prepared.hits();
  } catch (error) {
    if (error instanceof CompactionAbortedError) return messages;
    throw error;
  } finally {
    parts.prepared.drop(session);
    await release?.();
  }
  engine.lastCompaction = outcome;
  reportSummarizerFailure(parts, outcome);
  if (outcome.passes > 0) {
    engine.agentRequests?.noteCompaction(session);
    engine.compressionCount += 1;
    engine.lastPromptTokens = AWAITING_REAL_USAGE;
    engine.sessionPromptTokens.compacted(session);
    await store.logCompaction({
      session,
      at: parts.now(),
      passes: outcome.passes,
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      summariesCreated: outcome.created.length,
      fallbackSummaries: outcome.fallbacks,
    });
  }
  const output = await parts.assembleAndHold(store, system, session);
  if (outcome.passes > 0) parts.compacted(lcmLastCompaction(outcome, parts.now(), messages.length, output.length, options.focusTopic), session);
  return output;
}

/**
 * Warns about a summarizer failure. A refused credential (401/403) opens the circuit breaker: the
 * summarizer is not called for `auth_cooldown_ms` and fallback summaries are used, reported once here.
 */
function reportSummarizerFailure<S extends LcmStoreAsync>(parts: LcmCompactionParts<S>, outcome: CompactionOutcome): void {
  if (outcome.authFailure !== undefined) {
    const ms = parts.engine.settings.auth_cooldown_ms;
    parts.engine.summarizerPausedUntil = parts.now() + ms;
    const span = ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1_000)} s`;
    parts.warn(`lcm: ${outcome.authFailure}; the summarizer is not called for the next ${span} (lcm.auth_cooldown_ms), deterministic fallback summaries are used`);
  } else if (outcome.summarizerError !== undefined) {
    parts.warn(`lcm: summarizer failed (${outcome.summarizerError}); deterministic fallback summaries were used`);
  }
}
