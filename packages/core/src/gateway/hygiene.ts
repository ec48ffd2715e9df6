/**
 * Gateway session hygiene (docs/BEHAVIOUR.md, "Two layers"): the safety net that runs before the agent handles an
 * incoming message. A session that grew too big between replies (a night of chat messages) is compacted
 * in place at 85 % of the window — fixed, deliberately above the agent layer's threshold — or when it
 * reaches the hard message limit, so the next API call cannot fail for size.
 */
import type { ChatMessage } from "../messages/schema.js";
import { calibrationRatio } from "../tokens/calibration.js";
import { estimateRequestTokens } from "../engine/requestFit.js";
import { estimateMessagesTokensRough } from "../tokens/rough.js";

/** Share of the context window at which gateway hygiene compacts (fixed, not configurable). */
export const GATEWAY_HYGIENE_THRESHOLD = 0.85;

/** Share of the window still in use after compacting at which the user is warned. */
export const GATEWAY_HYGIENE_WARN_AFTER = 0.95;

/** Default of `compression.hygiene_hard_message_limit`. */
export const DEFAULT_HYGIENE_HARD_MESSAGE_LIMIT = 5000;

/** Hygiene runs only on histories of at least this many messages. */
export const GATEWAY_HYGIENE_MIN_MESSAGES = 4;

/** The one-line notice when a hygiene compaction aborted (docs/BEHAVIOUR.md, "Two layers"). */
export const HYGIENE_ABORT_NOTICE = "No messages were dropped — conversation is unchanged";

/** What gateway hygiene knows about the session. */
export interface HygieneState {
  /** The model's context window in tokens. */
  contextLength: number;
  /** Prompt tokens the API reported for the last response, if any (0 or less means none, e.g. -1 after a compaction). */
  lastPromptTokens?: number | undefined;
  /** `compression.enabled`. */
  enabled: boolean;
  /** `compression.hygiene_hard_message_limit` (default 5000). */
  hardMessageLimit?: number | undefined;
  /**
   * How many leading messages of the history the reported `lastPromptTokens` covered (the prompt of the
   * last API call). Messages that arrived since are estimated and added, scaled by what the report says
   * of the rough estimate of the covered ones. Default: the whole history (the report is taken as is).
   */
  reportedMessages?: number | undefined;
  /**
   * A real/rough ratio measured earlier (see {@link hygieneCalibration}), for when no usage is known — after
   * a compaction, say: the rough estimate is scaled by it (bounded 0.25–4).
   */
  calibration?: number | undefined;
}

/** Why gateway hygiene decided what it decided. */
export type HygieneReason = "disabled" | "too_few_messages" | "below_threshold" | "context_threshold" | "hard_message_limit";

/** The decision of {@link gatewayHygiene}. */
export interface HygieneDecision {
  compress: boolean;
  reason: HygieneReason;
  /** The token count judged: real usage when known, else the rough estimate (0 when not judged). */
  tokens: number;
  /** `usage+estimate`: the report plus an estimate of the messages that arrived after it. */
  tokenSource: "usage" | "usage+estimate" | "estimate";
  /** `floor(contextLength × 0.85)`. */
  thresholdTokens: number;
  /** Hygiene always compacts in place (one session id). */
  inPlace: true;
}

function checkState(state: HygieneState): number {
  if (!Number.isFinite(state.contextLength) || state.contextLength <= 0) {
    throw new Error(`gatewayHygiene: state.contextLength must be a positive number of tokens, got ${String(state.contextLength)}`);
  }
  const limit = state.hardMessageLimit ?? DEFAULT_HYGIENE_HARD_MESSAGE_LIMIT;
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new Error(`gatewayHygiene: state.hardMessageLimit must be a positive whole number of messages, got ${String(limit)}`);
  }
  return limit;
}

/** `floor(contextLength × 0.85)`: the token count at which gateway hygiene compacts. */
export function hygieneThresholdTokens(contextLength: number): number {
  return Math.floor(contextLength * GATEWAY_HYGIENE_THRESHOLD);
}

/**
 * Pure: whether gateway hygiene compacts `history` before the agent sees the incoming message. Runs only
 * when enabled and the history has at least 4 messages; fires when the tokens (the last real prompt
 * tokens — plus the calibrated estimate of messages that arrived after that prompt, see
 * {@link HygieneState.reportedMessages} — else `estimateMessagesTokensRough` with images at 1,500, scaled
 * by {@link HygieneState.calibration} when given) reach 85 % of the window, or when the history reaches
 * the hard message limit.
 */
export function gatewayHygiene(history: ChatMessage[], state: HygieneState): HygieneDecision {
  const hardMessageLimit = checkState(state);
  const thresholdTokens = hygieneThresholdTokens(state.contextLength);
  const decide = (compress: boolean, reason: HygieneReason, tokens: number, tokenSource: HygieneDecision["tokenSource"]): HygieneDecision => ({
    compress,
    reason,
    tokens,
    tokenSource,
    thresholdTokens,
    inPlace: true,
  });
  if (!state.enabled) return decide(false, "disabled", 0, "estimate");
  if (history.length < GATEWAY_HYGIENE_MIN_MESSAGES) return decide(false, "too_few_messages", 0, "estimate");
  // the outgoing request as engine/requestFit.ts estimates it (the report plus the messages since)
  const { tokens, source } = estimateRequestTokens(history, state);
  if (tokens >= thresholdTokens) return decide(true, "context_threshold", tokens, source);
  if (history.length >= hardMessageLimit) return decide(true, "hard_message_limit", tokens, source);
  return decide(false, "below_threshold", tokens, source);
}

/**
 * The real/rough ratio of a prompt whose usage was reported (`promptTokens` for `messages`), bounded
 * 0.25–4, for {@link HygieneState.calibration}; undefined when the prompt is too small to say.
 */
export function hygieneCalibration(messages: ChatMessage[], promptTokens: number): number | undefined {
  return calibrationRatio(promptTokens, estimateMessagesTokensRough(messages));
}

/** What happened when hygiene compacted, for {@link hygieneAfterMessage}. */
export interface HygieneOutcome {
  contextLength: number;
  /** True when the engine returned the conversation unchanged. */
  aborted: boolean;
  /** Why it aborted (the engine's reason), when known. */
  abortReason?: string | undefined;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * The lines gateway hygiene tells the user after compacting: the one-line abort notice
 * ("No messages were dropped — conversation is unchanged"), or a warning when the session still uses
 * at least 95 % of the window. Empty when there is nothing to say.
 */
export function hygieneAfterMessage(outcome: HygieneOutcome): string[] {
  if (outcome.aborted) {
    const why = outcome.abortReason ? ` (${outcome.abortReason})` : "";
    return [`⚠️ Session hygiene: compaction aborted${why}. ${HYGIENE_ABORT_NOTICE}.`];
  }
  const share = outcome.contextLength > 0 ? outcome.tokensAfter / outcome.contextLength : 0;
  if (share < GATEWAY_HYGIENE_WARN_AFTER) return [];
  const percent = Math.floor(share * 100);
  return [
    `⚠️ Session hygiene: still at ${percent} % of the context window after compressing ` +
      `(${outcome.tokensAfter.toLocaleString("en-US")} of ${outcome.contextLength.toLocaleString("en-US")} tokens, ` +
      `${outcome.messagesBefore} → ${outcome.messagesAfter} messages) — start a new session or remove large attachments.`,
  ];
}
