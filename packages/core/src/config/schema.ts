/**
 * The configuration schema (the keys of docs/BEHAVIOUR.md plus the host's own): one zod source for types, defaults and
 * error messages. Keys keep Hermes' snake_case so a Hermes `config.yaml` loads unchanged.
 */
import { z } from "zod";
import { PriceTableSchema } from "../providers/priceTable.js";
import { bool, fraction, nonNegativeInt, optionalString, positiveInt, sectionError } from "./fields.js";
import { movedFields, type OwnedSection } from "./ownedSection.js";
import { CODEX_SECTION, CodexSectionSchema } from "./codexSection.js";

/** The sections other rooms declare (the built-in routes' settings), composed into the file's schema below. */
export const OWNED_SECTIONS: readonly OwnedSection[] = [CODEX_SECTION];

/** Engine and plugin names: never a path. */
export const ENGINE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const engineName = z
  .string({ error: "must be a string" })
  .default("compressor")
  .transform((s) => s.trim())
  .refine((s) => s === "" || ENGINE_NAME_PATTERN.test(s), { error: "must match ^[a-z0-9][a-z0-9_-]{0,63}$ (lowercase letters, digits, '_' and '-')" });

/** The `context:` section: which engine, and whether the engine the host hands out checks its output (docs/BEHAVIOUR.md, "Invalid output"). */
export const ContextSectionSchema = z.object({ engine: engineName, validate_output: bool.default(true) }, { error: sectionError("context", "engine: compressor") }).prefault({});

export const CompressionSectionSchema = z
  .object({
    enabled: bool.default(true),
    threshold: fraction("share of the context window").default(0.5),
    model_thresholds: z.record(z.string(), fraction("share of the context window"), { error: "must be a map of model-name substrings to fractions" }).nullable().default({}).transform((m) => m ?? {}),
    target_ratio: fraction("share of the threshold kept as tail").default(0.2),
    tail_mode: z.enum(["lean", "legacy"], { error: 'must be "lean" or "legacy"' }).default("lean"),
    protect_first_n: nonNegativeInt("messages").default(3),
    protect_last_n: positiveInt("messages").default(20),
    min_tail_user_messages: nonNegativeInt("messages").default(1),
    abort_on_summary_failure: bool.default(false),
    threshold_tokens: positiveInt("tokens").nullable().default(null),
    hygiene_hard_message_limit: positiveInt("messages").default(5000),
    // keys that moved to a section of their own, still read here (with a deprecation warning)
    ...movedFields(CODEX_SECTION),
    in_place: bool.default(true),
    // cache-aware timing (docs/BEHAVIOUR.md, "Cache-aware timing")
    timing: z.enum(["threshold", "cache_aware"], { error: 'must be "threshold" or "cache_aware"' }).default("threshold"),
    // the agent's compact_context tool and the notice after a compaction (docs/BEHAVIOUR.md, "Compaction the agent can ask for, and see")
    compact_tool: z
      .object({ enabled: bool.default(false), min_turns_between: positiveInt("model responses").default(10) }, { error: sectionError("compression.compact_tool", "enabled: true") })
      .prefault({}),
    compaction_notice: bool.default(false),
    // background compaction: prepare the summary from this share of the trigger on (off when null)
    prepare_at: fraction("share of the trigger").nullable().default(null),
    // how the summary model is asked (docs/BEHAVIOUR.md, "A summary that reads the cache")
    summary_request: z.enum(["separate", "suffix"], { error: 'must be "separate" (the range alone, one request of its own) or "suffix" (the conversation\'s cached prefix plus one instruction)' }).default("separate"),
  }, { error: sectionError("compression", "threshold: 0.5") })
  .prefault({});

export const AuxiliaryCompressionSchema = z
  .object({
    model: optionalString,
    provider: z.string({ error: 'must be a provider name such as "auto", "openrouter", "openai", "anthropic", "main"' }).default("auto"),
    base_url: optionalString,
    api_key: optionalString,
    timeout: z.number({ error: "must be a number of seconds" }).positive({ error: "must be a positive number of seconds" }).default(120),
    oversized_range: z.enum(["chunks", "digest"], { error: 'must be "chunks" (read a long range in order, one call per chunk) or "digest" (one call, the oldest turns folded into an offline digest)' }).default("chunks"),
  }, { error: sectionError("auxiliary.compression", "provider: auto") })
  .prefault({});

export const PromptCachingSchema = z
  .object({
    cache_ttl: z.enum(["5m", "1h"], { error: 'must be "5m" or "1h"' }).default("5m"),
    /** Minimum cacheable prompt length by model-name substring (overrides the built-in table). */
    minimum_cacheable_tokens: z.record(z.string(), positiveInt("tokens"), { error: "must be a map of model-name substrings to token counts" }).default({}),
  }, { error: sectionError("prompt_caching", 'cache_ttl: "5m"') })
  .prefault({});

/** The main model: a name, or Hermes' `{default, provider, base_url}` block with optional sizes. */
export const ModelSectionSchema = z
  .union(
    [
      z.string(),
      z.object({
        default: z.string().optional(),
        name: z.string().optional(),
        provider: z.string().optional(),
        base_url: z.string().optional(),
        api_mode: z.string().optional(),
        context_length: positiveInt("tokens").optional(),
        max_tokens: positiveInt("tokens").optional(),
      }),
    ],
    { error: "must be a model name or a map with default/provider/base_url/context_length" },
  )
  .optional();

/**
 * The whole file. Unknown top-level sections pass through untouched (a plugin's own, e.g. `config.lcm`);
 * the loader lists them in `unknownSections`, and the host warns about those no loaded plugin declares.
 */
export const HostConfigSchema = z.looseObject({
  context: ContextSectionSchema,
  plugins: z.array(z.string({ error: "must be a module specifier or a path" }), { error: "must be a list of module specifiers or paths" }).nullable().default([]).transform((p) => p ?? []),
  model: ModelSectionSchema,
  compression: CompressionSectionSchema,
  auxiliary: z.object({ compression: AuxiliaryCompressionSchema }, { error: sectionError("auxiliary", "compression: {provider: auto}") }).prefault({}),
  prompt_caching: PromptCachingSchema,
  codex: CodexSectionSchema,
  /** USD per million tokens by model-name substring, searched before the built-in price table. */
  prices: PriceTableSchema.default({}),
  /** Strict mode: an unknown `context.engine` or a plugin that fails to load is an error, not a warning. */
  strict: bool.default(false),
  /** Seconds a plugin may take to load, to run its register(ctx), and to build its engine (each). */
  plugin_load_timeout: z.number({ error: "must be a number of seconds" }).positive({ error: "must be a positive number of seconds" }).default(10),
});

/** A top-level section the host's schema does not know, and where it is written (`config.yaml:6`, or the source alone). */
export interface UnknownSection {
  name: string;
  where: string;
}

/**
 * Parsed, defaulted configuration. `sourcePath` is the file it came from, when any; `warnings` what
 * loading it noticed; `unknownSections` the top-level sections no schema of the host knows — a plugin
 * may declare one (docs/BEHAVIOUR.md, "Plugin settings"), and the host warns about the others.
 */
export type HostConfig = z.output<typeof HostConfigSchema> & { sourcePath?: string; warnings?: string[]; unknownSections?: UnknownSection[] };
/** The `compression:` section, defaulted. */
export type CompressionConfig = HostConfig["compression"];
/** The `auxiliary.compression:` section, defaulted. */
export type AuxiliaryCompressionConfig = HostConfig["auxiliary"]["compression"];
