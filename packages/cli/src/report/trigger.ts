/** The agent layer's trigger as the simulate table, the HTML report and `engines` label it: real share and why. */
import type { ThresholdRule } from "@context-engine/core";

/** Why each rule set the trigger, for labels. */
const RULE_REASONS: Record<ThresholdRule, string> = {
  threshold: "compression.threshold",
  "model-threshold": "compression.model_thresholds",
  "small-context-floor": "small-context floor on a model_thresholds override",
  "small-window": "small-context floor, as the window is within the 64,000-token minimum",
  "minimum-trigger": "64,000-token minimum trigger",
  "token-cap": "compression.threshold_tokens cap",
  "codex-autoraise": "Codex gpt-5.5 autoraise",
};

/** The trigger's share of the window as a whole (or one-decimal) percentage: `85 %`, `46.9 %`. */
export function triggerPercent(thresholdTokens: number, contextLength: number): string {
  const percent = contextLength > 0 ? (thresholdTokens / contextLength) * 100 : 0;
  return `${Number.isInteger(Math.round(percent * 10) / 10) ? Math.round(percent) : percent.toFixed(1)} %`;
}

/** `85 %: small-context floor, …` — the share of the window the trigger really is, and the rule behind it when known. */
export function triggerReason(trigger: { thresholdTokens: number; contextLength: number; thresholdRule?: ThresholdRule | undefined }): string {
  const percent = triggerPercent(trigger.thresholdTokens, trigger.contextLength);
  return trigger.thresholdRule === undefined ? percent : `${percent}: ${RULE_REASONS[trigger.thresholdRule]}`;
}
