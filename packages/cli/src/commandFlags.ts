/**
 * The flags of every `context-engine` command (see flags.ts): what each command parses and what its
 * `--help` lists. Imports nothing heavy, so `--help` starts fast; the transcript formats come from the
 * small `@context-engine/core/formats` entry, not the core barrel.
 */
import { TRANSCRIPT_FORMATS } from "@context-engine/core/formats";
import { defineFlags } from "./flags.js";

/** Every `--format` value a transcript-reading command accepts: `auto` and each importer format. */
export const FORMAT_CHOICES: readonly string[] = ["auto", ...TRANSCRIPT_FORMATS];

const FORMAT_FLAG = { type: "string", value: "format", description: `transcript format: ${FORMAT_CHOICES.join(", ")}`, defaultText: "auto, detected from the content" } as const;
const CONTEXT_LENGTH_FLAG = { type: "string", value: "N", description: "the model's context window in tokens" } as const;
const ALLOW_INVALID_FLAG = { type: "boolean", description: "exit 0 even when the engine returned output that breaks provider rules (still reported)" } as const;
const TIMING_FLAG = { type: "string", value: "policy", description: "when to compact: threshold, cache_aware, or both side by side (compression.timing)", defaultText: "the config's compression.timing" } as const;

/** The flags shared by commands that need a host: `--config`, `--root` and `--engine`. */
export const HOST_FLAG_OPTIONS = defineFlags({
  config: { type: "string", short: "c", value: "file", description: "configuration file (YAML)", defaultText: "./config.yaml when present, else the built-in defaults" },
  root: { type: "string", value: "dir", description: "folder whose plugins/context_engine/ holds directory engines", defaultText: "the config file's folder, else the working directory" },
  engine: { type: "string", short: "e", value: "name", description: "engine to use instead of the config's context.engine" },
  strict: { type: "boolean", description: "an engine or plugin that cannot be used is an error (exit 1), not a fallback with a warning (strict: true)" },
});

/** `engines` flags. */
export const ENGINES_FLAGS = HOST_FLAG_OPTIONS;

/** `compress` flags. */
export const COMPRESS_FLAGS = defineFlags({
  ...HOST_FLAG_OPTIONS,
  out: { type: "string", short: "o", value: "file", description: "also write the compressed messages there as JSON" },
  format: FORMAT_FLAG,
  "context-length": { ...CONTEXT_LENGTH_FLAG, defaultText: "the configured model's" },
  focus: { type: "string", value: "topic", description: "topic the summary should keep in focus" },
  quiet: { type: "boolean", short: "q", description: "print the before/after table only, not the compressed messages" },
});

/** `simulate` flags. */
export const SIMULATE_FLAGS = defineFlags({
  ...HOST_FLAG_OPTIONS,
  model: { type: "string", short: "m", value: "model", description: "model to replay with", defaultText: "the configured model, else claude-sonnet-4" },
  provider: { type: "string", short: "p", value: "name", description: "provider of the model (decides prompt caching)", defaultText: "anthropic for Claude models, else openai" },
  "context-length": { ...CONTEXT_LENGTH_FLAG, defaultText: "the model's known window" },
  format: FORMAT_FLAG,
  html: { type: "string", value: "file", description: "also write the self-contained HTML report there" },
  progress: { type: "boolean", description: "show the progress bar even when stderr is not a terminal or the replay is short" },
  timing: TIMING_FLAG,
  "allow-invalid": ALLOW_INVALID_FLAG,
});

/** The window `eval` compacts in when `--window` is not given. */
export const DEFAULT_EVAL_WINDOW = 64_000;

/** `eval` flags (the engines are its first argument, so no `--engine`). */
export const EVAL_FLAGS = defineFlags({
  config: HOST_FLAG_OPTIONS.config,
  root: HOST_FLAG_OPTIONS.root,
  window: { type: "string", short: "w", value: "N", description: "the context window in tokens the engines compact in", defaultText: String(DEFAULT_EVAL_WINDOW) },
  model: { type: "string", short: "m", value: "model", description: "model the replay prices requests for", defaultText: "the configured model, else claude-sonnet-4" },
  provider: { type: "string", short: "p", value: "name", description: "provider of the model (decides prompt caching)", defaultText: "anthropic for Claude models, else openai" },
  format: FORMAT_FLAG,
  json: { type: "boolean", description: "print the results as JSON instead of tables" },
  html: { type: "string", value: "file", description: "also write a self-contained HTML report there" },
  progress: { type: "boolean", description: "show the progress bar even when stderr is not a terminal or a replay is short" },
  timing: TIMING_FLAG,
  "allow-invalid": ALLOW_INVALID_FLAG,
});

/** `import` flags. */
export const IMPORT_FLAGS = defineFlags({
  format: { type: "string", default: "auto", value: "format", description: `transcript format: ${FORMAT_CHOICES.join(", ")} (auto detects it from the content)` },
  out: { type: "string", short: "o", value: "file", description: "write the messages there instead of stdout" },
});

/** `conformance` flags. */
export const CONFORMANCE_FLAGS = defineFlags({
  root: HOST_FLAG_OPTIONS.root,
  name: { type: "string", value: "engine", description: "which engine of a plugin file that registers several", defaultText: "the first it registers" },
  config: HOST_FLAG_OPTIONS.config,
  strict: HOST_FLAG_OPTIONS.strict,
});

/** `config` flags. */
export const CONFIG_FLAGS = defineFlags({
  config: { type: "string", short: "c", value: "file", description: "configuration file to show or edit", defaultText: "./config.yaml" },
  root: { ...HOST_FLAG_OPTIONS.root, description: "folder whose plugins/context_engine/ holds directory engines (their settings are shown and set too)", defaultText: "the config file's folder" },
});

/** `new` flags: where the scaffold goes. */
export const NEW_FLAGS = defineFlags({
  config: { ...HOST_FLAG_OPTIONS.config, description: "configuration file: the scaffold goes into plugins/context_engine/ beside it", defaultText: "./config.yaml when present, else the working directory" },
  root: { ...HOST_FLAG_OPTIONS.root, description: "folder whose plugins/context_engine/ gets the scaffold", defaultText: "the config file's folder, else the working directory" },
});

/** The session store file `sessions` reads and `sessions import` fills when `--db` is not given. */
export const DEFAULT_SESSION_DB = "sessions.db";

/** `sessions` flags. */
export const SESSIONS_FLAGS = defineFlags({
  db: { type: "string", value: "file", description: "the session store (SQLite file; import creates it)", defaultText: `./${DEFAULT_SESSION_DB}` },
  limit: { type: "string", short: "n", value: "N", description: "sessions (list) or hits (search) shown", defaultText: "20 (list), 10 (search)" },
  platform: { type: "string", value: "name", description: "list: only sessions of this platform; import: the new session's platform", defaultText: "import (import)" },
  session: { type: "string", short: "s", value: "id", description: "search: only this session; import: the new session's id", defaultText: "a random UUID (import)" },
  format: { ...FORMAT_FLAG, description: `import: ${FORMAT_FLAG.description}`, default: "auto" },
  around: { type: "string", value: "seq", description: "show: the turns around this message (seq) instead of the whole session" },
  window: { type: "string", value: "N", description: "turns shown before and after a hit or --around", defaultText: "2" },
  all: { type: "boolean", short: "a", description: "show: archived (compacted) turns too, not only the active list" },
  scope: { type: "string", value: "id", description: "only sessions of this scope (a tenant or user id)", defaultText: "default" },
  "all-scopes": { type: "boolean", description: "the operator's view: sessions of every scope" },
  json: { type: "boolean", description: "print JSON instead of text" },
});

/** `mcp` flags: the host's (its engine's read-only tools are served), the session store `session_search` reads, and the scope. */
export const MCP_FLAGS = defineFlags({
  ...HOST_FLAG_OPTIONS,
  db: { type: "string", value: "file", description: "the session store session_search reads (SQLite file, e.g. filled by sessions import)", defaultText: `./${DEFAULT_SESSION_DB} when present, else no session_search` },
  scope: { ...SESSIONS_FLAGS.scope, description: "the one scope (a tenant or user id) every call reads" },
  "all-scopes": { ...SESSIONS_FLAGS["all-scopes"], description: "session_search reads every scope (the operator's view); the engine's tools, which read one scope, are not served" },
});

/** Each command's flags by command name: what main.ts prints for `<command> --help`. */
export const COMMAND_FLAGS = {
  engines: ENGINES_FLAGS,
  compress: COMPRESS_FLAGS,
  conformance: CONFORMANCE_FLAGS,
  config: CONFIG_FLAGS,
  import: IMPORT_FLAGS,
  simulate: SIMULATE_FLAGS,
  sessions: SESSIONS_FLAGS,
  eval: EVAL_FLAGS,
  new: NEW_FLAGS,
  mcp: MCP_FLAGS,
} as const;
