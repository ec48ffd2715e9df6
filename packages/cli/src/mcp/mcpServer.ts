/**
 * The MCP server of `context-engine mcp`, on the official SDK over stdio: lists the served tools (their
 * JSON schemas as the engine declares them, marked read-only) and answers a call with the tool's JSON text,
 * `isError` when it is a `{ error, code }` answer, until the client closes stdin. stdout carries the protocol
 * alone: {@link consoleToStderr} keeps console output off it.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServedTool } from "./servedTools.js";

/** What the server says about itself. */
export interface McpServerInfo {
  name: string;
  version: string;
  /** What the client is told the server is for (MCP's `instructions`). */
  instructions: string;
}

/** A served tool as MCP lists it: its name, description and input schema, with MCP's read-only hint. */
export function mcpTool(tool: ServedTool): Tool {
  const { name, description, parameters } = tool.schema.function;
  return { name, description, inputSchema: { ...parameters, type: "object" }, annotations: { readOnlyHint: true, openWorldHint: false } };
}

/** A tool's JSON answer as an MCP call result: an `{ error }` object is an error result, its text unchanged. */
export function callResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: isErrorAnswer(text) };
}

function isErrorAnswer(text: string): boolean {
  try {
    const answer: unknown = JSON.parse(text);
    return typeof answer === "object" && answer !== null && typeof (answer as { error?: unknown }).error === "string";
  } catch {
    return false;
  }
}

/**
 * Runs tool `name` of `tools`. A name not served (a tool that writes included) and a tool that throws are
 * error results in the tools' own `{ error, code }` form, as the SDK's McpServer answers them.
 */
export async function callServedTool(tools: readonly ServedTool[], name: string, args: unknown): Promise<CallToolResult> {
  const tool = tools.find((t) => t.schema.function.name === name);
  if (!tool) return callResult(JSON.stringify({ error: `unknown tool '${name}' (served: ${tools.map((t) => t.schema.function.name).join(", ")})`, code: "not_found" }));
  try {
    return callResult(await tool.call(args ?? {}));
  } catch (error) {
    return callResult(JSON.stringify({ error: `${name} failed: ${error instanceof Error ? error.message : String(error)}`, code: "internal" }));
  }
}

/** Serves `tools` over this process's stdin and stdout until the client closes stdin (or the connection closes). */
export async function serveOverStdio(tools: readonly ServedTool[], info: McpServerInfo): Promise<void> {
  // Server, not McpServer: the tools arrive as JSON schemas from the engine (any plugin's), and McpServer.registerTool takes zod shapes
  const server = new Server({ name: info.name, version: info.version }, { capabilities: { tools: {} }, instructions: info.instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callServedTool(tools, request.params.name, request.params.arguments));
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
}

/**
 * Sends console.log, info and debug to stderr, so that nothing but the protocol reaches stdout (a plugin
 * that logs while it loads or runs included); returns what restores them.
 */
export function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  return () => Object.assign(console, saved);
}
