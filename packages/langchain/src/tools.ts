/** An engine's tools (`getToolSchemas` / `handleToolCall`, e.g. lcm_grep) as LangChain tools. */
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { ContextEngine, ToolCallContext } from "@context-engine/core";

/**
 * The engine's tools as LangChain tools: the JSON schema the engine declares is the tool's schema, and
 * calling the tool runs `engine.handleToolCall`, whose JSON text is the result the model reads.
 * `context` names the calling session and its scope: tools that read stored sessions answer from that scope only.
 */
export function engineTools(engine: ContextEngine, context?: ToolCallContext): StructuredToolInterface[] {
  return engine.getToolSchemas().map((schema) => {
    const { name, description, parameters } = schema.function;
    return tool(async (input: unknown) => engine.handleToolCall(name, input, context), { name, description, schema: parameters as never }) as unknown as StructuredToolInterface;
  });
}
