import { describe, expect, it } from "vitest";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createContextHost, InvalidEngineOutputError } from "@context-engine/core";
import { tempProject } from "../../../test/support/files.js";
import { contextEngineMiddleware } from "../src/index.js";

/** A directory engine that drops the call its last message answers: its output has an orphan tool result. */
const ORPHANING_ENGINE = `import { ContextEngine, type ChatMessage } from "@context-engine/core";
export default class Orphaning extends ContextEngine {
  readonly name = "orphaning";
  shouldCompress(): boolean { return true; }
  async compress(messages: ChatMessage[]): Promise<ChatMessage[]> { this.compressionCount++; return [messages[0]!, ...messages.slice(-1)]; }
}
`;

/** The middleware's beforeModel hook, whichever form LangChain gives it. */
const hook = (h: unknown) => (typeof h === "function" ? h : (h as { hook: Function }).hook) as (state: { messages: BaseMessage[] }, runtime: unknown) => Promise<{ messages: BaseMessage[] } | undefined>;

const history = (): BaseMessage[] => [
  new HumanMessage("list the files"),
  new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "bash", args: { command: "ls" } }] }),
  new ToolMessage({ content: "a.txt b.txt", tool_call_id: "call_1" }),
];

describe("the LangChain middleware built from a host", () => {
  it("refuses an engine output a provider would reject: the model call throws InvalidEngineOutputError instead of sending it", async () => {
    const rootDir = tempProject({ "plugins/context_engine/orphaning/index.ts": ORPHANING_ENGINE }, "ce-lc-output-");
    const host = await createContextHost({ config: { context: { engine: "orphaning" } } as never, rootDir });
    const middleware = contextEngineMiddleware({ host });
    await expect(hook(middleware.beforeModel)({ messages: history() }, {})).rejects.toThrow(InvalidEngineOutputError);
  });
});
