/**
 * The Codex OAuth threshold autoraise (docs/BEHAVIOUR.md, "Routes"): on `openai-codex` the 272k models would start
 * compressing at half of a small window, so the trigger is raised to 85 %. Pure; the one-time notice
 * and its marker file live in autoraiseNotice.ts, the hook that applies it in route.ts.
 */
import type { ModelInfo } from "../engine/types.js";
import { computeThresholds, type ThresholdPlan, type ThresholdSettings } from "../engine/thresholds.js";
import { codexModelFamily, hasLargeVariantSuffix, isCodexProvider } from "./models.js";
import { autoraiseNoticeState, autoraiseNoticeText, type AutoraiseChange, type AutoraiseNotice } from "./autoraiseNotice.js";
import { codexConfigOf, type CodexConfig, type LegacyCodexKeys } from "../config/codexSection.js";

/** The trigger the autoraise raises to, as a share of the window. */
export const CODEX_AUTORAISE_PERCENT = 0.85;

/** What {@link codexAutoraise} decides on. */
export interface CodexAutoraiseInput {
  model: string;
  provider?: string | undefined;
  /** The threshold otherwise in force (global or per-model override), a share of the window. */
  percent: number;
  /** `codex.gpt55_autoraise`. */
  enabled: boolean;
}

/** The autoraise's answer: the percent to use and whether it was raised (`to` equals `from` when not). */
export interface CodexAutoraiseResult extends AutoraiseChange {
  percent: number;
  raised: boolean;
}

/**
 * True when the autoraise applies to `model` on `provider`: the Codex OAuth route and a 272k base
 * model (gpt-5.5, gpt-5.4, gpt-5.4-mini, gpt-5.6-sol/terra/luna). `-900k` aliases use the global
 * threshold; every other route is unaffected.
 */
export function isCodexAutoraiseEligible(model: string, provider: string | undefined): boolean {
  return isCodexProvider(provider) && !hasLargeVariantSuffix(model) && codexModelFamily(model) !== undefined;
}

/** Raises `percent` to 85 % on an eligible Codex route, raise-only (a higher value stays), unless disabled. */
export function codexAutoraise(input: CodexAutoraiseInput): CodexAutoraiseResult {
  const raise = input.enabled && isCodexAutoraiseEligible(input.model, input.provider) && input.percent < CODEX_AUTORAISE_PERCENT;
  const to = raise ? CODEX_AUTORAISE_PERCENT : input.percent;
  return { percent: to, raised: raise, from: input.percent, to };
}

/** What {@link codexThresholdPlan} returns: the plan in force and, when raised, the notice. */
export interface CodexThresholdPlan {
  plan: ThresholdPlan;
  autoraise: CodexAutoraiseResult;
  /** Undefined when nothing was raised or `codex.gpt55_autoraise_notice` is false. */
  notice: AutoraiseNotice | undefined;
}

/** The settings the autoraise reads: `codex.gpt55_autoraise` and `codex.gpt55_autoraise_notice`. */
export type CodexAutoraiseSettings = Pick<CodexConfig, "gpt55_autoraise" | "gpt55_autoraise_notice">;

/**
 * `base`, the plan {@link computeThresholds} made for `model` under `settings`, with the Codex autoraise
 * applied on top (override map, small-context floor, output reservation and caps all still apply).
 */
export function raiseThresholdPlan(base: ThresholdPlan, model: ModelInfo, settings: ThresholdSettings, codex: CodexAutoraiseSettings): CodexThresholdPlan {
  const autoraise = codexAutoraise({ model: model.model, provider: model.provider, percent: base.thresholdPercent, enabled: codex.gpt55_autoraise });
  if (!autoraise.raised) return { plan: base, autoraise, notice: undefined };
  const raised = computeThresholds(model, { ...settings, threshold: autoraise.to, modelThresholds: {} });
  const plan: ThresholdPlan = { ...raised, overrideKey: base.overrideKey, rule: raised.rule === "threshold" ? "codex-autoraise" : raised.rule };
  const notice = codex.gpt55_autoraise_notice
    ? { text: autoraiseNoticeText(model.model, autoraise, plan.thresholdTokens), state: autoraiseNoticeState(model.model, autoraise) }
    : undefined;
  return { plan, autoraise, notice };
}

/**
 * The threshold plan for `model` with the Codex autoraise applied on top of {@link computeThresholds}.
 * `codex` may be partial or absent (defaults: autoraise and notice on), and may use the old
 * `compression.codex_*` spellings.
 */
export function codexThresholdPlan(
  model: ModelInfo,
  settings: ThresholdSettings,
  codex: Partial<CodexAutoraiseSettings & Pick<LegacyCodexKeys, "codex_gpt55_autoraise" | "codex_gpt55_autoraise_notice">> | undefined,
): CodexThresholdPlan {
  return raiseThresholdPlan(computeThresholds(model, settings), model, settings, codexConfigOf({ codex, compression: codex }));
}
