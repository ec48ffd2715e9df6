/** Which engine tools `context-engine mcp` serves, and how a call's answer becomes an MCP result, without a process. */
import { describe, expect, it } from "vitest";
import { ContextEngine, type ChatMessage, type ToolCallContext, type ToolSchema } from "@context-engine/core";
import { callServedTool } from "../src/mcp/mcpServer.js";
import { engineReadOnlyTools } from "../src/mcp/servedTools.js";

const schema = (name: string): ToolSchema => ({ type: "function", function: { name, description: name, parameters: { type: "object", properties: {} } } });

/** An engine offering `lookup` (read-only), `remember` (writes) and `broken` (read-only, throws). */
class ToolEngine extends ContextEngine {
  readonly name = "tools";
  readonly calls: Array<[string, unknown, ToolCallContext | undefined]> = [];
  shouldCompress(): boolean {
    return false;
  }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
    return messages;
  }
  override getToolSchemas(): ToolSchema[] {
    return [schema("lookup"), schema("remember"), schema("broken")];
  }
  override toolTraits(name: string) {
    return name === "remember" ? {} : { readOnly: true };
  }
  override async handleToolCall(name: string, args: unknown, context?: ToolCallContext): Promise<string> {
    this.calls.push([name, args, context]);
    if (name === "broken") throw new Error("the index is gone");
    return JSON.stringify({ name, args });
  }
}

describe("the engine tools context-engine mcp serves", () => {
  it("serves the tools the engine marks read-only, each called with the server's scope and one session id of its own", async () => {
    const engine = new ToolEngine();
    const { served, leftOut } = engineReadOnlyTools(engine, "team-7");
    expect([served.map((t) => t.schema.function.name), leftOut]).toEqual([["lookup", "broken"], ["remember"]]);
    await served[0]!.call({ q: 1 });
    await served[0]!.call({ q: 2 });
    const [first, second] = engine.calls;
    expect(first![2]!.scope).toBe("team-7");
    expect(first![2]!.sessionId).toMatch(/^mcp-[0-9a-f-]{36}$/);
    expect(second![2]).toEqual(first![2]);
  });

  it("serves nothing of an engine built without toolTraits (a duck-typed engine), naming every tool it leaves out", () => {
    const engine = new ToolEngine();
    const duckTyped = Object.assign(Object.create(null) as ContextEngine, { name: "duck", getToolSchemas: () => engine.getToolSchemas(), handleToolCall: engine.handleToolCall.bind(engine) });
    expect(engineReadOnlyTools(duckTyped, "default")).toEqual({ served: [], leftOut: ["lookup", "remember", "broken"] });
  });

  it("answers a tool that throws, and a name it does not serve, with an error result in the tools' own JSON form", async () => {
    const { served } = engineReadOnlyTools(new ToolEngine(), "default");
    expect(await callServedTool(served, "broken", {})).toEqual({ content: [{ type: "text", text: '{"error":"broken failed: the index is gone","code":"internal"}' }], isError: true });
    expect(await callServedTool(served, "remember", {})).toEqual({ content: [{ type: "text", text: `{"error":"unknown tool 'remember' (served: lookup, broken)","code":"not_found"}` }], isError: true });
    expect(await callServedTool(served, "lookup", undefined)).toEqual({ content: [{ type: "text", text: '{"name":"lookup","args":{}}' }], isError: false });
  });
});
