/**
 * The `context-engine` command line: dispatches to one command module per subcommand and maps errors to
 * exit codes (0 ok, 1 failure, 2 usage) with one readable line on stderr.
 */
import { TRANSCRIPT_FORMATS } from "@context-engine/core/formats";
import { COMMAND_FLAGS } from "./commandFlags.js";
import type { CommandIO } from "./commandIO.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./errors.js";
import { flagHelp, type FlagSpecs } from "./flags.js";
import { CLI_VERSION } from "./version.js";

export type { CommandIO } from "./commandIO.js";

/** A subcommand: its help (usage, summary, flags — the flags it parses) and how to run it. */
export interface Command {
  summary: string;
  usage: string;
  flags: FlagSpecs;
  run(io: CommandIO): Promise<number>;
}

/** Every subcommand; each module is imported only when its command runs, so `--help` starts in milliseconds. */
const COMMANDS: Record<keyof typeof COMMAND_FLAGS, Command> & Record<string, Command> = {
  engines: {
    summary: "show which context engine resolves, from where, and any warnings",
    usage: "context-engine engines [options]",
    flags: COMMAND_FLAGS.engines,
    run: async (io) => (await import("./commands/engines.js")).runEngines(io),
  },
  compress: {
    summary: "compress a transcript (OpenAI-format JSON messages, or any format import reads) with the resolved engine and print before/after",
    usage: "context-engine compress <transcript> [options]",
    flags: COMMAND_FLAGS.compress,
    run: async (io) => (await import("./commands/compress.js")).runCompress(io),
  },
  conformance: {
    summary: "run the conformance suite against an engine (a name that resolves, or a plugin path)",
    usage: "context-engine conformance <engine name | plugins/context_engine/<name> | plugin.ts> [options]",
    flags: COMMAND_FLAGS.conformance,
    run: async (io) => (await import("./commands/conformance.js")).runConformanceCommand(io),
  },
  config: {
    summary: "show the effective configuration, get one key, or set a key in config.yaml (validated — a plugin's keys against the settings it declares — comments kept)",
    usage: "context-engine config show | get <key.path> | set <key.path> <value>  [options]",
    flags: COMMAND_FLAGS.config,
    run: async (io) => (await import("./commands/config.js")).runConfig(io),
  },
  import: {
    summary: `convert a transcript (${TRANSCRIPT_FORMATS.join(", ")}) into OpenAI-format messages`,
    usage: "context-engine import <file> [options]",
    flags: COMMAND_FLAGS.import,
    run: async (io) => (await import("./commands/import.js")).runImport(io),
  },
  simulate: {
    summary: "replay a transcript request by request: compactions (gateway and agent layers), prompt caching and cost, with an optional HTML report",
    usage: "context-engine simulate <transcript> [options]",
    flags: COMMAND_FLAGS.simulate,
    run: async (io) => (await import("./commands/simulate.js")).runSimulate(io),
  },
  sessions: {
    summary: "list stored sessions, search every turn (compacted ones too), show one session, or import a transcript (any format import reads) as a new session",
    usage: "context-engine sessions list | search <query> | show <session-id> | import <transcript>  [options]",
    flags: COMMAND_FLAGS.sessions,
    run: async (io) => (await import("./commands/sessions.js")).runSessions(io),
  },
  eval: {
    summary: "compact transcripts with one or more engines (a,b compares them) and report what survived: paths, errors, commands, asks, what the tail refers back to, summary tokens, cost",
    usage: "context-engine eval <engine[,engine…]> <transcript…> [options]",
    flags: COMMAND_FLAGS.eval,
    run: async (io) => (await import("./commands/eval.js")).runEval(io),
  },
  new: {
    summary: "write a new directory engine beside the config: plugins/context_engine/<name>/ with a setting (keep_last), a conformance test and a README",
    usage: "context-engine new engine <name> [options]",
    flags: COMMAND_FLAGS.new,
    run: async (io) => (await import("./commands/new.js")).runNew(io),
  },
  mcp: {
    summary: "serve the stored sessions to an MCP client (Claude Code, Codex, Cursor) over stdio: session_search over --db and the engine's read-only tools (lcm_grep, lcm_describe, lcm_expand), one scope",
    usage: "context-engine mcp [--db sessions.db] [--scope <id> | --all-scopes] [options]",
    flags: COMMAND_FLAGS.mcp,
    run: async (io) => (await import("./commands/mcp.js")).runMcp(io),
  },
};

/** A command's `--help` text: usage, summary and one line per flag. */
export function commandHelpText(name: string): string {
  const command = COMMANDS[name];
  if (!command) throw new Error(`unknown command '${name}'`);
  return `Usage: ${command.usage}\n\n${command.summary}\n\n${flagHelp(command.flags)}`;
}

/** The `--help` text. */
export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    "context-engine — a plugin host for the context engines of LLM agents",
    "",
    "Usage: context-engine <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `context-engine <command> --help` for a command's options.",
    "Config: --config <file>, else ./config.yaml when present, else the defaults; paths in it are relative to its folder.",
    "Exit codes: 0 ok, 1 failure, 2 usage error.",
  ].join("\n");
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], io: Partial<Omit<CommandIO, "args">> = {}): Promise<number> {
  const stdout = io.stdout ?? ((t: string) => void process.stdout.write(t.endsWith("\n") ? t : t + "\n"));
  const stderr = io.stderr ?? ((t: string) => void process.stderr.write(t.endsWith("\n") ? t : t + "\n"));
  const cwd = io.cwd ?? process.cwd();
  // `help <command>` is `<command> --help`.
  const [name, ...rest] = argv[0] === "help" && argv[1] !== undefined && COMMANDS[argv[1]] ? [argv[1], "--help"] : argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    stdout(helpText());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === "--version" || name === "-v") {
    stdout(`context-engine ${CLI_VERSION}`);
    return EXIT_OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    stderr(`context-engine: unknown command '${name}' (try --help)`);
    return EXIT_USAGE;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    stdout(commandHelpText(name));
    return EXIT_OK;
  }
  try {
    return await command.run({ args: rest, stdout, stderr, cwd });
  } catch (error) {
    if (error instanceof UsageError) {
      stderr(`context-engine ${name}: ${oneLine(error.message)} (see \`context-engine ${name} --help\`)`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    stderr(`context-engine ${name}: ${oneLine(message)}`);
    return EXIT_FAILURE;
  }
}

/** Folds a multi-line message (a header and one line per problem) into one line: "header a; b; c". */
export function oneLine(message: string): string {
  const [first = "", ...rest] = message.trim().split("\n").map((l) => l.trim().replace(/^- /, "")).filter(Boolean);
  return rest.length === 0 ? first : `${first} ${rest.join("; ")}`;
}
