/**
 * lcm's own settings (the `lcm:` section of the host config, a loose object the host passes through),
 * validated with zod: one source for types, defaults and error messages.
 */
import { nearestConfigKey } from "./core.js";
import { z } from "./deps.js";
import { DEFAULT_SUMMARY_SKIP_TAGS, SKIP_TAG_NAME } from "./skipTags.js";

const fraction = (what: string) =>
  z.number({ error: `must be a number between 0 and 1 (${what})` }).gt(0, { error: `must be greater than 0 (${what})` }).lte(1, { error: `must be at most 1 (${what})` });
const positiveInt = (what: string) =>
  z.number({ error: `must be a whole number (${what})` }).int({ error: `must be a whole number (${what})` }).positive({ error: `must be positive (${what})` });

/** The `lcm:` config section. Unknown keys are kept (and ignored) so newer configs still load. */
export const LcmConfigSchema = z.looseObject({
  /** Share of the context window at which `shouldCompress` fires (ignores compression.model_thresholds). */
  threshold: fraction("share of the context window").default(0.75),
  /** Compaction stops once the context is at or below `threshold × target_ratio` of the window. */
  target_ratio: fraction("share of the threshold").default(0.5),
  /** Newest messages that are never compacted. */
  fresh_tail: positiveInt("messages").default(32),
  /** SQLite file; relative paths are resolved against the host's root dir; ":memory:" is allowed. */
  db_path: z.string({ error: "must be a path or \":memory:\"" }).min(1, { error: "must not be empty" }).optional(),
  /**
   * A PostgreSQL connection URL (`postgres://user:password@host:port/database`): the store lives in that
   * database (tables in the schema `context_engine`) instead of a SQLite file, shared by every worker
   * that names it. Opened by the store driver of a plugin listed in `plugins:` (`@context-engine/postgres`).
   * Not together with `db_path`.
   */
  database_url: z
    .string({ error: "must be a postgres:// URL" })
    .regex(/^postgres(ql)?:\/\/./, { error: "must be a postgres:// or postgresql:// URL" })
    .optional(),
  /** Source tokens one leaf summary covers at most. */
  leaf_chunk_tokens: positiveInt("tokens").default(20_000),
  /** Token budget of a leaf summary at the normal level (the aggressive level uses half). */
  leaf_target_tokens: positiveInt("tokens").default(1_200),
  /** Token budget of a condensed summary at the normal level (the aggressive level uses half). */
  condensed_target_tokens: positiveInt("tokens").default(2_000),
  /** Same-depth summaries side by side that trigger a condense pass. */
  condense_fanin: z.number().int({ error: "must be a whole number (summaries)" }).min(2, { error: "must be at least 2 (summaries)" }).default(4),
  /** Deepest summary a condense pass may create (leaves are depth 1); summaries at this depth stay side by side. */
  max_depth: positiveInt("summary depth").default(5),
  /**
   * Tool results larger than this many tokens are kept out of the assembled context: a preview (start,
   * end, the stored message's id) stands for them; lcm_expand reads and lcm_grep searches the full text. 0: never.
   */
  externalize_tool_output_tokens: z.number({ error: "must be a whole number (tokens, 0 for never)" }).int({ error: "must be a whole number (tokens, 0 for never)" }).min(0, { error: "must be 0 or more (tokens)" }).default(8_000),
  /** Most tokens one `lcm_expand` page holds, whatever `maxTokens` the agent asks for. */
  max_expand_tokens: z.number({ error: "must be a whole number (tokens)" }).int({ error: "must be a whole number (tokens)" }).min(100, { error: "must be at least 100 (tokens)" }).default(20_000),
  /**
   * Blocks (`<tag>…</tag>`) left out of user turns before the summarizer reads them: what memory plugins
   * inject (`<hindsight_memories>`, `<relevant_memories>`, `<system-reminder>`, …). The stored turn stays verbatim.
   */
  summary_skip_tags: z
    .array(z.string({ error: "must be a tag name" }).regex(SKIP_TAG_NAME, { error: "must be a tag name without < > (a letter, then letters, digits, _ - . :)" }), { error: "must be a list of tag names" })
    .default([...DEFAULT_SUMMARY_SKIP_TAGS]),
  /** Upper bound of compaction passes in one `compress()` call. */
  max_passes: positiveInt("passes").default(32),
  /** A summarizer call that takes longer is abandoned and the next level of the ladder is used. */
  summary_timeout_ms: positiveInt("milliseconds").default(60_000),
  /** After the summarizer refuses its credentials (401/403), it is not called for this long; fallback summaries are used. */
  auth_cooldown_ms: positiveInt("milliseconds").default(1_800_000),
  /** Time budget of one regex `lcm_grep`. */
  regex_time_budget_ms: positiveInt("milliseconds").default(250),
  /** Whether the tools may reach every session in the store (`sessions: "all"`); turn off where sessions belong to different users. */
  search_all_sessions: z.boolean({ error: "must be true or false" }).default(true),
  /**
   * What a session `/new` starts carries over from the one before: the summaries in its context at this
   * depth or deeper (leaves are depth 1); -1 every summary, 0 nothing. As hermes-lcm's retain depth.
   */
  new_session_retain_depth: z
    .number({ error: "must be a whole number (summary depth; -1 all, 0 none)" })
    .int({ error: "must be a whole number (summary depth; -1 all, 0 none)" })
    .min(-1, { error: "must be -1 (all), 0 (none) or a summary depth" })
    .default(2),
  /** Sessions lcm does not store (nor compact): ids matching one of these globs (`*` any run, `?` one character). */
  ignore_sessions: z.array(z.string({ error: "must be a glob string" }).min(1, { error: "must not be empty" }), { error: "must be a list of session id globs" }).default([]),
  /** The session used before `onSessionStart` names one. */
  session: z.string().min(1).default("default"),
});

/** Defaulted lcm settings. */
export type LcmSettings = z.output<typeof LcmConfigSchema>;

/**
 * Thrown for an invalid `lcm:` section; the message names every key path, on one line (a host that
 * reports a plugin's failure by its first line still shows them all).
 */
export class LcmConfigError extends Error {
  constructor(problems: readonly string[]) {
    super(`Invalid lcm config: ${problems.join("; ")}`);
    this.name = "LcmConfigError";
  }
}

/** Validates and defaults an `lcm:` section (undefined/null → all defaults). Unknown keys are kept; see {@link unknownLcmKeys}. */
export function parseLcmConfig(raw: unknown): LcmSettings {
  const parsed = LcmConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new LcmConfigError(parsed.error.issues.map((i) => `lcm.${i.path.map(String).join(".") || "(root)"}: ${i.message}`));
  }
  if (parsed.data.db_path !== undefined && parsed.data.database_url !== undefined) {
    throw new LcmConfigError(["lcm.database_url: give either db_path (a SQLite file) or database_url (PostgreSQL), not both"]);
  }
  return parsed.data;
}

/**
 * One line per key of an `lcm:` section that lcm does not know, naming its path and, when one is
 * close, the setting it probably meant: `lcm.tresh is not an lcm setting (ignored) — did you mean
 * lcm.threshold?`. Empty for a section without unknown keys (or no section).
 */
export function unknownLcmKeys(raw: unknown): string[] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
  const known = Object.keys(LcmConfigSchema.shape);
  return Object.keys(raw)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = nearestConfigKey(key, known);
      return `lcm.${key} is not an lcm setting (ignored)${near === undefined ? "" : ` — did you mean lcm.${near}?`}`;
    });
}
