/**
 * Pure threshold arithmetic (docs/BEHAVIOUR.md, "Thresholds"): when an engine fires and how
 * much it keeps. Shared by the built-in compressor and by plugin engines that want the same policy.
 */

/** Windows below this size get the small-context floor on a per-model override. */
export const SMALL_CONTEXT_WINDOW = 512_000;
/** The raise-only floor applied to per-model overrides on small windows. */
export const SMALL_CONTEXT_FLOOR = 0.75;
/** The trigger never fires below this many tokens unless the window itself is smaller. */
export const MINIMUM_TRIGGER_TOKENS = 64_000;
/** Share of the window used when the minimum trigger would reach the window. */
export const DEGENERATE_TRIGGER_PERCENT = 0.85;
/** Share of compressed content the summary may use (`_SUMMARY_RATIO`). */
export const SUMMARY_RATIO = 0.2;
/** Lowest summary budget in tokens. */
export const MIN_SUMMARY_TOKENS = 2_000;
/** Absolute summary ceiling in tokens (upstream uses 10,000; docs/BEHAVIOUR.md, "Where we differ from upstream Hermes"). */
export const SUMMARY_TOKENS_CEILING = 12_000;

/** The longest key of `modelThresholds` that occurs in `model` (ties keep the first), if any. */
export function matchModelThreshold(model: string, modelThresholds: Record<string, number>): { key: string; value: number } | undefined {
  let best: { key: string; value: number } | undefined;
  for (const [key, value] of Object.entries(modelThresholds)) {
    if (key.length === 0 || !model.includes(key)) continue;
    if (!best || key.length > best.key.length) best = { key, value };
  }
  return best;
}

/** `compression.model_thresholds` lookup: the longest matching substring key wins; no match → `fallback`. */
export function resolveModelThreshold(model: string, modelThresholds: Record<string, number>, fallback: number): number {
  return matchModelThreshold(model, modelThresholds)?.value ?? fallback;
}

/**
 * The small-context floor, raise-only: a per-model override on a window under 512,000 tokens is lifted
 * to 0.75 when below it; anything else is returned as is.
 */
export function effectiveThresholdPercent(contextLength: number, percent: number, fromOverride: boolean): number {
  if (fromOverride && contextLength < SMALL_CONTEXT_WINDOW && percent < SMALL_CONTEXT_FLOOR) return SMALL_CONTEXT_FLOOR;
  return percent;
}

/** The lowest trigger ever computed: one token (0 would compact on every turn, even an empty conversation). */
export const MIN_TRIGGER_TOKENS = 1;

/**
 * The input room of a window: the context length less the `maxTokens` output reservation. A
 * reservation that reaches the whole window (`max_tokens ≥ context_length`, a misconfiguration that
 * would leave no input room and trigger at 0) is ignored, as upstream does.
 */
export function inputWindow(contextLength: number, maxTokens: number | undefined): number {
  const reservation = Math.max(0, maxTokens ?? 0);
  const window = contextLength - reservation;
  return Math.max(1, window > 0 ? window : contextLength);
}

/** What the trigger computation needs to know; all fractions are of the context window. */
export interface ThresholdSettings {
  threshold: number;
  modelThresholds: Record<string, number>;
  /** Absolute cap on the trigger (`compression.threshold_tokens`). */
  thresholdTokensCap?: number | null | undefined;
  targetRatio: number;
}

/**
 * What set a trigger: the global `threshold`, a `model_thresholds` override, the small-context floor
 * raising that override to 75 %, the 85 % rule for windows no larger than the 64,000-token minimum
 * (`small-window`), the minimum itself, the `threshold_tokens` cap, or a route that raised it (`<route>-autoraise`).
 */
export type ThresholdRule = "threshold" | "model-threshold" | "small-context-floor" | "small-window" | "minimum-trigger" | "token-cap" | `${string}-autoraise`;

/** The computed trigger and budgets for one model. */
export interface ThresholdPlan {
  thresholdPercent: number;
  thresholdTokens: number;
  /** Which rule set `thresholdTokens`. */
  rule: ThresholdRule;
  tailTokenBudget: number;
  maxSummaryTokens: number;
  /** The `model_thresholds` key that matched, if any. */
  overrideKey?: string | undefined;
}

/** Clamps `target_ratio` into [0.10, 0.80]. */
export function clampTargetRatio(ratio: number): number {
  return Math.min(0.8, Math.max(0.1, ratio));
}

/**
 * Trigger and budgets for a model: percent from the override map (with the small-context floor), window
 * less the `maxTokens` output reservation ({@link inputWindow}), the 64,000-token minimum (85 % when that
 * reaches the window), then the absolute cap; never below one token. For 200,000 tokens with defaults:
 * 100,000 / 20,000 / 10,000.
 */
export function computeThresholds(
  model: { model: string; contextLength: number; maxTokens?: number | undefined },
  settings: ThresholdSettings,
): ThresholdPlan {
  const match = matchModelThreshold(model.model, settings.modelThresholds);
  const percent = effectiveThresholdPercent(model.contextLength, match?.value ?? settings.threshold, match !== undefined);
  const window = inputWindow(model.contextLength, model.maxTokens);
  let thresholdTokens = Math.floor(window * percent);
  let rule: ThresholdRule = match === undefined ? "threshold" : percent > match.value ? "small-context-floor" : "model-threshold";
  if (MINIMUM_TRIGGER_TOKENS >= window) {
    thresholdTokens = Math.floor(window * DEGENERATE_TRIGGER_PERCENT);
    rule = "small-window";
  } else if (thresholdTokens < MINIMUM_TRIGGER_TOKENS) {
    thresholdTokens = MINIMUM_TRIGGER_TOKENS;
    rule = "minimum-trigger";
  }
  if (settings.thresholdTokensCap != null && settings.thresholdTokensCap > 0 && settings.thresholdTokensCap < thresholdTokens) {
    thresholdTokens = settings.thresholdTokensCap;
    rule = "token-cap";
  }
  // A trigger of 0 would compact on every turn, even an empty conversation.
  thresholdTokens = Math.max(MIN_TRIGGER_TOKENS, thresholdTokens);
  return {
    thresholdPercent: percent,
    thresholdTokens,
    rule,
    tailTokenBudget: Math.floor(thresholdTokens * clampTargetRatio(settings.targetRatio)),
    maxSummaryTokens: Math.floor(Math.min(model.contextLength * 0.05, SUMMARY_TOKENS_CEILING)),
    overrideKey: match?.key,
  };
}

/**
 * Summary budget for `contentTokens` of compressed turns: ×0.20 up to the ceiling `maxSummaryTokens`,
 * never below 2,000 — the floor wins over the ceiling, so a 32k window (ceiling 1,600) gets 2,000, as upstream.
 */
export function summaryTokenBudget(contentTokens: number, maxSummaryTokens: number): number {
  return Math.floor(Math.max(MIN_SUMMARY_TOKENS, Math.min(maxSummaryTokens, contentTokens * SUMMARY_RATIO)));
}
