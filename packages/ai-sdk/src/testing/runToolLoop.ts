/**
 * One call that runs any engine in a real AI SDK tool loop (`generateText` with the adapter's
 * `prepareStep`/`onStepFinish`, or a model wrapped with its middleware), offline: the model is the AI
 * SDK's own `MockLanguageModelV3`, answering from a script. Each step's record is the view the engine
 * let through to the model, the usage it was fed and the compactions before it.
 */
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from "ai";
import type { ToolSet } from "../aiTypes.js";
import { defaultLoopHistory, defaultLoopTools, LOOP_PROMPT, loopRecorder, type LoopTool, type LoopRunOptions, type LoopRun } from "@context-engine/core/conformance";
import { createAiSdkAdapter } from "../adapter.js";
import { promptToChatMessages } from "../languageModelPrompt.js";
import { toModelMessages } from "../toModelMessages.js";
import { scriptedLanguageModel, type ScriptedCall } from "./scriptedModel.js";

/** Options of {@link runAiSdkToolLoop}. */
export interface AiSdkToolLoopOptions extends LoopRunOptions {
  /** Where the engine sits: the tool loop's `prepareStep` (default) or the model's middleware (`wrapLanguageModel`). */
  via?: "prepareStep" | "middleware";
}

/** The app tools as AI SDK tools that take any object. */
function appTools(tools: Record<string, LoopTool>): ToolSet {
  const set: ToolSet = {};
  for (const [name, execute] of Object.entries(tools)) {
    set[name] = tool({ description: `The app's ${name} tool`, inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }), execute: async (input) => execute(input) });
  }
  return set;
}

/**
 * Runs the engine (`engine`: a name looked up with `config`, a directory engine's path, or an instance;
 * default the one `config` names) in an AI SDK tool loop whose model answers from `script`, and returns
 * each step's view: the messages the model was sent, the prompt tokens it reported and the compactions before it.
 */
export async function runAiSdkToolLoop(options: AiSdkToolLoopOptions = {}): Promise<LoopRun> {
  const run = await loopRecorder<ScriptedCall>(options);
  const adapter = createAiSdkAdapter(run.adapterOptions);
  const scripted = scriptedLanguageModel(run.script, run.calls);
  const viaMiddleware = options.via === "middleware";
  const result = await generateText({
    model: viaMiddleware ? wrapLanguageModel({ model: scripted, middleware: adapter.middleware() }) : scripted,
    ...(options.system !== undefined ? { system: options.system } : {}),
    messages: toModelMessages([...(options.history ?? defaultLoopHistory()), { role: "user", content: options.prompt ?? LOOP_PROMPT }]),
    tools: { ...appTools(options.tools ?? defaultLoopTools()), ...adapter.tools },
    stopWhen: stepCountIs(run.script.length),
    ...(viaMiddleware ? {} : { prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish }),
  });
  return run.finish(result.text, (call) => ({ messages: promptToChatMessages(call.prompt), promptTokens: call.promptTokens, toolCalls: call.toolCalls, tools: call.tools }));
}
