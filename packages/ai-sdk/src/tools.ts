/** An engine's tools (`getToolSchemas` / `handleToolCall`, e.g. lcm_grep) as AI SDK tools. */
import { jsonSchema, tool } from "ai";
import type { ToolSet } from "./aiTypes.js";
import type { ContextEngine, ToolCallContext } from "@context-engine/core";

/**
 * The engine's tools as an AI SDK `ToolSet`, keyed by tool name: the JSON schema the engine declares is
 * the input schema, and `execute` runs `engine.handleToolCall`, whose JSON text is the result the model reads.
 * `context` names the calling session and its scope: tools that read stored sessions answer from that scope only.
 */
export function engineTools(engine: ContextEngine, context?: ToolCallContext): ToolSet {
  const tools: ToolSet = {};
  for (const schema of engine.getToolSchemas()) {
    const { name, description, parameters } = schema.function;
    tools[name] = tool({
      description,
      inputSchema: jsonSchema<unknown>(parameters),
      execute: (input: unknown) => engine.handleToolCall(name, input, context),
    });
  }
  return tools;
}
