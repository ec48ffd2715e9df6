/**
 * Whether the next request fits (docs/BEHAVIOUR.md, "No request over the window"): the window less the
 * output reserve is the line no request may cross, and the outgoing request is estimated as the prompt
 * tokens the last response reported plus the calibrated rough estimate of the messages added since.
 * Pure; shared by the session shell, gateway hygiene, the framework adapters and the replay.
 */
import type { ChatMessage } from "../messages/schema.js";
import { calibrationRatio, clampCalibration } from "../tokens/calibration.js";
import { estimateMessagesTokensRough } from "../tokens/rough.js";

/** Share of the window reserved for the answer when the model sets no `max_tokens`. */
export const DEFAULT_OUTPUT_RESERVE_SHARE = 0.1;
/** The most the default reserve holds: an answer rarely runs longer, and a big window keeps its room. */
export const DEFAULT_OUTPUT_RESERVE_CAP = 8_192;

/** The model facts the line depends on: its window and `max_tokens`, when set. */
export interface RequestWindow {
  contextLength: number;
  maxTokens?: number | undefined;
}

/**
 * Tokens reserved for the answer: the model's `max_tokens` when it is set and leaves some input room,
 * else 10 % of the window, at most 8,192 tokens.
 */
export function outputReserveTokens(model: RequestWindow): number {
  const { contextLength, maxTokens } = model;
  if (maxTokens !== undefined && maxTokens > 0 && maxTokens < contextLength) return Math.floor(maxTokens);
  return Math.floor(Math.min(DEFAULT_OUTPUT_RESERVE_CAP, Math.max(0, contextLength) * DEFAULT_OUTPUT_RESERVE_SHARE));
}

/** The overflow line: the window less the {@link outputReserveTokens output reserve}; never below one token. */
export function requestLimitTokens(model: RequestWindow): number {
  return Math.max(1, Math.floor(model.contextLength) - outputReserveTokens(model));
}

/** What is known of the conversation's usage when the next request is estimated. */
export interface RequestUsage {
  /** Prompt tokens the last response reported (0 or less: none, e.g. -1 right after a compaction). */
  lastPromptTokens?: number | undefined;
  /**
   * How many leading messages that report covered (the prompt of the last request); the messages after
   * them are estimated. Default: all of them (the report is taken as is).
   */
  reportedMessages?: number | undefined;
  /** A real/rough ratio measured earlier, for when no usage is known: the rough estimate is scaled by it (bounded 0.25–4). */
  calibration?: number | undefined;
}

/** The estimate of an outgoing request, and what it rests on (`usage+estimate`: the report plus the messages added since). */
export interface RequestEstimate {
  tokens: number;
  source: "usage" | "usage+estimate" | "estimate";
}

/** Counts a list of messages; the default is the rough estimate (`estimateMessagesTokensRough`). */
export type CountMessages = (messages: readonly ChatMessage[]) => number;

const roughCount: CountMessages = (messages) => estimateMessagesTokensRough(messages as ChatMessage[]);

/**
 * Pure: the prompt tokens of sending `messages` — the reported prompt tokens plus the estimate of the
 * messages added since (`count`, the rough estimate by default), scaled by what the report says of the
 * estimate of the covered ones; without a report, the estimate scaled by an earlier calibration.
 */
export function estimateRequestTokens(messages: readonly ChatMessage[], usage: RequestUsage = {}, count: CountMessages = roughCount): RequestEstimate {
  const real = usage.lastPromptTokens;
  const scale = usage.calibration === undefined ? 1 : clampCalibration(usage.calibration);
  if (real === undefined || !Number.isFinite(real) || real <= 0) return { tokens: Math.round(count(messages) * scale), source: "estimate" };
  const covered = Math.max(0, Math.min(messages.length, Math.floor(usage.reportedMessages ?? messages.length)));
  if (covered === messages.length) return { tokens: real, source: "usage" };
  const ratio = calibrationRatio(real, count(messages.slice(0, covered))) ?? scale;
  return { tokens: real + Math.round(count(messages.slice(covered)) * ratio), source: "usage+estimate" };
}

/** True when a request of `estimatedTokens` would cross the overflow line of `model` ({@link requestLimitTokens}). */
export function requestOverflows(model: RequestWindow, estimatedTokens: number): boolean {
  return estimatedTokens > requestLimitTokens(model);
}
