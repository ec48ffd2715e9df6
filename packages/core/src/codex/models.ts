/**
 * Route facts of the OpenAI Codex models (docs/BEHAVIOUR.md, "Routes"): which window a model name has on which
 * route, and the local `-900k` aliases that opt into the large Codex window. Pure lookups.
 */

/** The provider id of the ChatGPT Codex OAuth route (a ChatGPT subscription, not an API key). */
export const CODEX_PROVIDER = "openai-codex";
/** Provider ids of the GitHub Copilot route. */
export const COPILOT_PROVIDERS: readonly string[] = ["copilot", "github-copilot"];
/** The window the Codex backend advertises for gpt-5.4, gpt-5.5 and the gpt-5.6 families. */
export const CODEX_ADVERTISED_WINDOW = 272_000;
/** Input tokens the Codex backend accepts for a `-900k` variant on subscription accounts (verified August 2026). */
export const CODEX_LARGE_VARIANT_WINDOW = 911_000;
/** gpt-5.5's window on the direct OpenAI API and on OpenRouter. */
export const GPT55_DIRECT_WINDOW = 1_050_000;
/** gpt-5.5's window on GitHub Copilot. */
export const GPT55_COPILOT_WINDOW = 400_000;
/** The suffix of the local large-context aliases; stripped before the model id is sent. */
export const LARGE_VARIANT_SUFFIX = "-900k";

/** Base names that have a `-900k` alias on the Codex route. */
export const CODEX_LARGE_VARIANT_BASES: readonly string[] = ["gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-5.4"];
/** Names genuinely capped at 272k on Codex: they have no `-900k` alias. */
export const CODEX_CAPPED_MODELS: readonly string[] = ["gpt-5.5", "gpt-5.4-mini"];
/** Every model family the Codex route serves with the advertised 272,000-token window. */
export const CODEX_272K_FAMILIES: readonly string[] = [...CODEX_CAPPED_MODELS, ...CODEX_LARGE_VARIANT_BASES];

/** What {@link resolveCodexModel} makes of a model name. */
export interface ResolvedCodexModel {
  /** The id to send on the wire (the `-900k` suffix stripped). */
  wireModel: string;
  /** The window on the Codex route; undefined when the name is not a known Codex family. */
  contextLength: number | undefined;
  /** True for a `-900k` alias (the opt-in large window). */
  isLargeVariant: boolean;
}

/** A model name that cannot be resolved, e.g. a `-900k` variant of a model capped at 272k. */
export class CodexModelError extends Error {
  override readonly name = "CodexModelError";
}

/** Lowercased, trimmed model id. */
function normalize(model: string): string {
  return model.trim().toLowerCase();
}

/**
 * The bare model slug: lowercased, trimmed, and without a vendor prefix (`openai/gpt-5.5` → `gpt-5.5`,
 * as routers and configs often spell it), so route facts match either spelling.
 */
export function codexModelSlug(model: string): string {
  const name = normalize(model);
  return name.slice(name.lastIndexOf("/") + 1);
}

/** True when `model` is `family` itself or a dated/suffixed name of it (`family-…`). */
function isOfFamily(model: string, family: string): boolean {
  return model === family || model.startsWith(`${family}-`);
}

/** The longest Codex 272k family `model` belongs to (`gpt-5.4-mini` beats `gpt-5.4`; a vendor prefix is ignored), if any. */
export function codexModelFamily(model: string): string | undefined {
  const name = codexModelSlug(model);
  let best: string | undefined;
  for (const family of CODEX_272K_FAMILIES) {
    if (isOfFamily(name, family) && (!best || family.length > best.length)) best = family;
  }
  return best;
}

/** True when `model` ends with the `-900k` alias suffix (any case). */
export function hasLargeVariantSuffix(model: string): boolean {
  return normalize(model).endsWith(LARGE_VARIANT_SUFFIX);
}

/** `model` with a `-900k` suffix removed (no other change); pricing and usage use this name. */
export function baseModelName(model: string): string {
  const trimmed = model.trim();
  return hasLargeVariantSuffix(trimmed) ? trimmed.slice(0, -LARGE_VARIANT_SUFFIX.length) : trimmed;
}

/**
 * Resolves a model name picked for the Codex route: a `-900k` alias becomes its base id with the
 * 911,000-token window; a known 272k family keeps its name and 272,000 tokens; anything else keeps its
 * name with an unknown window. A `-900k` suffix on any other name throws {@link CodexModelError}
 * (`where` names the place, e.g. "model.default").
 */
export function resolveCodexModel(model: string, where = "model"): ResolvedCodexModel {
  if (!hasLargeVariantSuffix(model)) {
    return { wireModel: model.trim(), contextLength: codexModelFamily(model) ? CODEX_ADVERTISED_WINDOW : undefined, isLargeVariant: false };
  }
  const wireModel = baseModelName(model);
  const base = codexModelSlug(wireModel);
  if (CODEX_LARGE_VARIANT_BASES.includes(base)) return { wireModel, contextLength: CODEX_LARGE_VARIANT_WINDOW, isLargeVariant: true };
  const family = codexModelFamily(base);
  const available = CODEX_LARGE_VARIANT_BASES.map((b) => b + LARGE_VARIANT_SUFFIX).join(", ");
  const why =
    family && CODEX_CAPPED_MODELS.includes(family)
      ? `${family} is capped at ${CODEX_ADVERTISED_WINDOW.toLocaleString("en-US")} tokens on the Codex route and has no ${LARGE_VARIANT_SUFFIX} variant`
      : `there is no ${LARGE_VARIANT_SUFFIX} variant of "${wireModel}"`;
  throw new CodexModelError(`${where}: "${model.trim()}" — ${why}. Large-context variants: ${available}.`);
}

/** True when `provider` is the Codex OAuth route (`openai-codex`, any case). */
export function isCodexProvider(provider: string | undefined): boolean {
  return provider !== undefined && normalize(provider) === CODEX_PROVIDER;
}

/**
 * The window the route gives `model`, when these facts know it: `-900k` aliases → 911,000 (on any
 * route: the alias is local); on `openai-codex` the 272k families → 272,000; gpt-5.5 on Copilot →
 * 400,000, elsewhere → 1,050,000. Undefined otherwise (callers fall back to their own tables).
 * Throws {@link CodexModelError} for a `-900k` name that has no such variant.
 */
export function routeContextWindow(model: string, provider?: string, where = "model"): number | undefined {
  const resolved = resolveCodexModel(model, where);
  if (resolved.isLargeVariant) return resolved.contextLength;
  if (isCodexProvider(provider)) return resolved.contextLength;
  if (isOfFamily(codexModelSlug(model), "gpt-5.5")) {
    return provider !== undefined && COPILOT_PROVIDERS.includes(normalize(provider)) ? GPT55_COPILOT_WINDOW : GPT55_DIRECT_WINDOW;
  }
  return undefined;
}
