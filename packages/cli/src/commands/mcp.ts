/**
 * `context-engine mcp`: serves the stored agent sessions to any MCP client (Claude Code, Codex, Cursor)
 * over stdio — `session_search` over the session store (`--db`, the file `sessions import` fills), and the
 * tools the configured engine marks read-only (lcm's lcm_grep, lcm_describe and lcm_expand, a plugin's) —
 * for one scope (`--scope`, default `default`; `--all-scopes` only when asked). stdout is the protocol's:
 * what the command has to say goes to stderr.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ContextEngine } from "@context-engine/core";
import { parseCommandArgs } from "../args.js";
import { DEFAULT_SESSION_DB, MCP_FLAGS } from "../commandFlags.js";
import type { CommandIO } from "../commandIO.js";
import { EXIT_OK, UsageError } from "../errors.js";
import { hostFromFlags, type HostFlags } from "../hostFlags.js";
import { consoleToStderr, serveOverStdio } from "../mcp/mcpServer.js";
import { toolsToServe, type ServedTool } from "../mcp/servedTools.js";
import { openExistingSessionStore, scopeFromFlags } from "../sessionStoreFlags.js";
import { CLI_VERSION } from "../version.js";

/** Runs `mcp`: serves until the client closes the connection. */
export async function runMcp(io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.args, MCP_FLAGS);
  if (positionals.length > 0) throw new UsageError(`takes no arguments, got '${positionals[0]}'`);
  const scope = scopeFromFlags(values);
  const log = (line: string): void => io.stderr(`context-engine mcp: ${line}`);
  const defaultDb = resolve(io.cwd, DEFAULT_SESSION_DB);
  const dbPath = values.db !== undefined ? resolve(io.cwd, values.db) : existsSync(defaultDb) ? defaultDb : undefined;
  const db = dbPath === undefined ? undefined : { store: openExistingSessionStore(dbPath), path: dbPath };
  const restoreConsole = consoleToStderr();
  try {
    if (scope === undefined) log("--all-scopes: session_search reads every scope; the engine's tools read one scope each and are not served");
    const engine = scope === undefined ? undefined : await engineFromFlags(io.cwd, values, log);
    const { tools, notes } = toolsToServe({ store: db, engine, scope });
    for (const note of notes) log(note);
    if (tools.length === 0) {
      const noStore = `no session store (--db <file>; there is no ${defaultDb})`;
      throw new Error(`nothing to serve: ${noStore}${engine ? ` and engine ${engine.name} marks no tool read-only` : ""}`);
    }
    const reads = scope === undefined ? "every scope" : `scope '${scope}'`;
    log(`serving ${describeTools(tools)} over stdio, reading ${reads}`);
    await serveOverStdio(tools, {
      name: "context-engine",
      version: CLI_VERSION,
      instructions: instructions(tools, reads),
    });
    log("the client closed the connection; stopped");
    return EXIT_OK;
  } finally {
    restoreConsole();
    db?.store.close();
  }
}

/** The engine the config (or `--engine`) names, from a host built as every command builds it; its warnings logged. */
async function engineFromFlags(cwd: string, flags: HostFlags, log: (line: string) => void): Promise<ContextEngine> {
  const host = await hostFromFlags(cwd, flags, log);
  for (const warning of host.warnings) log(`warning: ${warning}`);
  return host.engine;
}

/** What the client is told: what the tools read, and that the engine's tools run as a session of the server's own, which may hold nothing. */
function instructions(tools: readonly ServedTool[], reads: string): string {
  const names = tools.map((t) => t.schema.function.name).join(", ");
  const engineTools = tools.filter((t) => t.kind === "engine").map((t) => t.schema.function.name);
  const ownSession = engineTools.length === 0 ? "" : ` ${engineTools.join(", ")} run as a session of this server's own, which may hold nothing: to read the stored sessions, ask for every session of the scope where a tool takes that choice (sessions: "all").`;
  return `Read-only search of stored agent sessions (${reads}): ${names}. Answers are JSON.${ownSession}`;
}

/** "session_search (/x/sessions.db), lcm_grep, lcm_describe (engine lcm)": the tools grouped by where they come from. */
function describeTools(tools: readonly ServedTool[]): string {
  const bySource = new Map<string, string[]>();
  for (const tool of tools) bySource.set(tool.source, [...(bySource.get(tool.source) ?? []), tool.schema.function.name]);
  return [...bySource].map(([source, names]) => `${names.join(", ")} (${source})`).join(", ");
}
