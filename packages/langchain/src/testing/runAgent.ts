/**
 * One call that runs any engine in a real LangChain agent (`createAgent` with the context-engine
 * middleware), offline: the model is LangChain's own `fakeModel()`, answering from a script. Each step's
 * record is the view the engine let through to the model, the usage it was fed and the compactions before it.
 */
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { defaultLoopHistory, defaultLoopTools, LOOP_PROMPT, loopRecorder, type LoopRunOptions, type LoopRun, type LoopTool } from "@context-engine/core/conformance";
import { contextEngineMiddleware } from "../middleware.js";
import { toBaseMessages } from "../toBaseMessages.js";
import { toChatMessages } from "../toChatMessages.js";
import { scriptedChatModel, type ScriptedCall } from "./scriptedModel.js";

/** Options of {@link runLangChainAgent}. */
export type LangChainAgentOptions = LoopRunOptions;

/** The app tools as LangChain tools that take any object. */
function appTools(tools: Record<string, LoopTool>): StructuredToolInterface[] {
  return Object.entries(tools).map(
    ([name, execute]) => tool(async (input: Record<string, unknown>) => execute(input), { name, description: `The app's ${name} tool`, schema: { type: "object", properties: {} } as never }) as unknown as StructuredToolInterface,
  );
}

/**
 * Runs the engine (`engine`: a name looked up with `config`, a directory engine's path, or an instance;
 * default the one `config` names) in a LangChain agent whose model answers from `script`, and returns
 * each model call's view: the messages the model was sent, the prompt tokens it reported and the compactions before it.
 */
export async function runLangChainAgent(options: LangChainAgentOptions = {}): Promise<LoopRun> {
  const run = await loopRecorder<ScriptedCall>(options);
  const middleware = contextEngineMiddleware(run.adapterOptions);
  const tools = appTools(options.tools ?? defaultLoopTools());
  const agent = createAgent({
    model: scriptedChatModel(run.script, run.calls),
    tools,
    middleware: [middleware],
    ...(options.system !== undefined ? { systemPrompt: options.system } : {}),
  });
  const state = await agent.invoke({ messages: toBaseMessages([...(options.history ?? defaultLoopHistory()), { role: "user", content: options.prompt ?? LOOP_PROMPT }]) });
  const offered = [...tools, ...(middleware.tools ?? [])].map((t) => t.name).sort();
  const last = state.messages.at(-1);
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
  return run.finish(text, (call) => ({ messages: toChatMessages(call.messages), promptTokens: call.promptTokens, toolCalls: call.toolCalls, tools: offered }));
}
