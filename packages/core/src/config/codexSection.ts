/**
 * The `codex:` config section: the settings of the Codex and Responses API routes. Before it had its own
 * section these keys were `compression.codex_<key>`; those spellings are still read, with a
 * deprecation warning naming the new key. Config declares it beside the other sections, so one schema
 * gives every section's types, defaults and errors; what the settings do lives in codex/.
 */
import { z } from "zod";
import { bool, positiveInt } from "./fields.js";
import { movedValues, ownedSectionSchema, type OwnedSection } from "./ownedSection.js";

/** The section as config composes it: fields, defaults, and the old `compression.codex_*` spellings. */
export const CODEX_SECTION = {
  name: "codex",
  example: "gpt55_autoraise: true",
  fields: {
    /** gpt-5.5 and the other 272k models on Codex OAuth: raise the trigger to 85 %. */
    gpt55_autoraise: bool.default(true),
    /** Show the one-time notice when the trigger was raised. */
    gpt55_autoraise_notice: bool.default(true),
    /** Automatic compaction of app-server threads: the server decides (`native`), the host's threshold starts it (`hermes`), or none (`off`). */
    app_server_auto: z.enum(["native", "hermes", "off"], { error: 'must be "native", "hermes" or "off"' }).default("native"),
    /** Responses API server-side compaction for gpt-5.6 (opt-in). */
    responses_native: bool.default(false),
    /** The server-side compaction trigger, in input tokens. */
    responses_compact_threshold: positiveInt("input tokens").default(200_000),
  },
  movedFrom: { section: "compression", prefix: "codex_" },
} as const satisfies OwnedSection;

/** The `codex:` section's schema (defaults filled in). */
export const CodexSectionSchema = ownedSectionSchema(CODEX_SECTION);

/** The `codex:` section, defaulted. */
export type CodexConfig = z.output<typeof CodexSectionSchema>;

/** The old `compression.codex_*` spellings of {@link CodexConfig}'s keys. */
export type LegacyCodexKeys = { [K in keyof CodexConfig as `codex_${K}`]: CodexConfig[K] };

/**
 * The Codex settings in force for `config`: its `codex:` section, over the old `compression.codex_*`
 * keys, over the defaults. Accepts a whole host config or a bare `{compression}` (an engine built in
 * code). Throws naming the key when a value is invalid.
 */
export function codexConfigOf(config: { readonly codex?: unknown; readonly compression?: unknown } | undefined): CodexConfig {
  const own = typeof config?.codex === "object" && config.codex !== null ? Object.entries(config.codex).filter(([, value]) => value !== undefined) : [];
  const parsed = CodexSectionSchema.safeParse({ ...movedValues(CODEX_SECTION, config?.compression), ...Object.fromEntries(own) });
  if (!parsed.success) throw new Error(`Invalid codex settings:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
