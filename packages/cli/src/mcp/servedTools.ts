/**
 * What `context-engine mcp` serves: `session_search` over a session store, and the tools the configured
 * engine offers and marks read-only (the built-in compressor's, lcm's, a plugin's: whatever engine the
 * config names, through the host's own `getToolSchemas` / `toolTraits` / `handleToolCall`). Each runs as in
 * the agent's own loop: the same schema, the same zod check of the arguments, the same JSON answer; and
 * each reads one scope, which the server names, never the caller's arguments.
 */
import { randomUUID } from "node:crypto";
import type { ContextEngine, ToolCallContext, ToolSchema } from "@context-engine/core";
import { runSessionSearch, sessionSearchToolSchema, type SqliteSessionStore } from "@context-engine/core/store";
import { searchSourceFor } from "../sessionStoreFlags.js";

/** One tool the server offers: its schema, where it comes from, and a call answering with the tool's JSON text. */
export interface ServedTool {
  schema: ToolSchema;
  /** Whose tool it is: the session store's or the engine's. */
  kind: "store" | "engine";
  /** The session store's file or `engine <name>`, for the log line. */
  source: string;
  call(args: unknown): Promise<string>;
}

/** What the server serves, and lines for its log about what it left out. */
export interface ToolsToServe {
  tools: ServedTool[];
  notes: string[];
}

/** Where the tools come from: a session store and its file, the host's engine, and the scope the calls read. */
export interface ToolSources {
  /** The session store `session_search` reads, when there is one. */
  store?: { store: SqliteSessionStore; path: string } | undefined;
  /** The configured engine; undefined when its tools are not served (`--all-scopes`). */
  engine?: ContextEngine | undefined;
  /** The scope every call reads; undefined for every scope (`session_search` only). */
  scope: string | undefined;
}

/**
 * The tools to serve: `session_search` over the store first, then the engine's read-only tools (one named
 * like a tool already served is left out, with a note).
 */
export function toolsToServe(sources: ToolSources): ToolsToServe {
  const tools: ServedTool[] = [];
  const notes: string[] = [];
  if (sources.store) {
    const searchSource = searchSourceFor(sources.store.store, sources.scope);
    tools.push({ schema: sessionSearchToolSchema(), kind: "store", source: sources.store.path, call: (args) => runSessionSearch(searchSource, args) });
  }
  if (sources.engine && sources.scope !== undefined) {
    const { served, leftOut } = engineReadOnlyTools(sources.engine, sources.scope);
    if (leftOut.length > 0) notes.push(`not served (engine ${sources.engine.name} does not mark them read-only): ${leftOut.join(", ")}`);
    for (const tool of served) {
      if (tools.some((t) => t.schema.function.name === tool.schema.function.name)) notes.push(`not served: engine ${sources.engine.name}'s ${tool.schema.function.name} (the session store's is)`);
      else tools.push(tool);
    }
  }
  return { tools, notes };
}

/**
 * The tools `engine` offers and marks read-only (`toolTraits(name).readOnly`), run through its
 * `handleToolCall` as the server's own session of `scope`: a fresh id no engine knows, which lcm reads as its
 * configured session when that is of `scope`, else as an empty conversation of `scope` (its `sessions: "all"`
 * then reads the whole scope). The others (tools that write, and every tool of an engine built without
 * `toolTraits`) are named in `leftOut`.
 */
export function engineReadOnlyTools(engine: ContextEngine, scope: string): { served: ServedTool[]; leftOut: string[] } {
  const context: ToolCallContext = { sessionId: `mcp-${randomUUID()}`, scope };
  const readOnly = (name: string): boolean => typeof engine.toolTraits === "function" && engine.toolTraits(name).readOnly === true;
  const served: ServedTool[] = [];
  const leftOut: string[] = [];
  for (const schema of engine.getToolSchemas()) {
    const name = schema.function.name;
    if (!readOnly(name)) leftOut.push(name);
    else served.push({ schema, kind: "engine", source: `engine ${engine.name}`, call: (args) => engine.handleToolCall(name, args, context) });
  }
  return { served, leftOut };
}
