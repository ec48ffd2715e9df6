/**
 * One call that runs any engine in a real AI SDK tool loop (`generateText` with the adapter's
 * `prepareStep`/`onStepFinish`, or a model wrapped with its middleware), offline: the model is the AI
 * SDK's own `MockLanguageModelV3`, answering from a script. Each step's record is the view the engine
 * let through to the model, the usage it was fed and the compactions before it.
 */
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type ToolSet } from "ai";
import type { ChatMessage } from "@context-engine/core";
import { defaultLoopHistory, defaultLoopScript, LOOP_PROMPT, loopEngine, readNote, READ_NOTE_TOOL, type LoopCompression, type LoopEngineOptions, type LoopRun, type ScriptedTurn } from "@context-engine/core/conformance";
import { createAiSdkAdapter, type AiSdkCompressionEvent } from "../adapter.js";
import { promptToChatMessages } from "../languageModelPrompt.js";
import { toModelMessages } from "../toModelMessages.js";
import { scriptedLanguageModel, type ScriptedCall } from "./scriptedModel.js";

/** An app tool of the loop: its input (the scripted call's `input`) to its result. */
export type LoopTool = (input: Record<string, unknown>) => unknown;

/** Options of {@link runAiSdkToolLoop}. */
export interface AiSdkToolLoopOptions extends LoopEngineOptions {
  /** The model's answers, one per step (default {@link defaultLoopScript}: past any trigger after the second step). */
  script?: readonly ScriptedTurn[];
  /** The conversation before the ask, as chat messages (default {@link defaultLoopHistory}: two earlier exchanges). */
  history?: ChatMessage[];
  /** The user's ask (default {@link LOOP_PROMPT}: read two notes). */
  prompt?: string;
  /** The system prompt. */
  system?: string;
  /** The app's tools next to the engine's (default `read_note`, a note of about 3,000 tokens). */
  tools?: Record<string, LoopTool>;
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

/** The part of an adapter's compression event a loop step keeps. */
function loopCompression(event: AiSdkCompressionEvent): LoopCompression {
  const { messagesBefore, messagesAfter, promptTokens, trigger, compressionCount } = event;
  return { messagesBefore, messagesAfter, promptTokens, trigger, compressionCount };
}

/**
 * Runs the engine (`engine`: a name looked up with `config`, a directory engine's path, or an instance;
 * default the one `config` names) in an AI SDK tool loop whose model answers from `script`, and returns
 * each step's view: the messages the model was sent, the prompt tokens it reported and the compactions before it.
 */
export async function runAiSdkToolLoop(options: AiSdkToolLoopOptions = {}): Promise<LoopRun> {
  const { engine, host, warnings } = await loopEngine(options);
  const script = options.script ?? defaultLoopScript(engine.contextLength);
  const calls: ScriptedCall[] = [];
  const compressions: LoopCompression[][] = [];
  const adapter = createAiSdkAdapter({
    ...(host ? { host } : { engine }),
    onCompress: (event) => (compressions[calls.length] ??= []).push(loopCompression(event)),
  });
  const scripted = scriptedLanguageModel(script, calls);
  const viaMiddleware = options.via === "middleware";
  const result = await generateText({
    model: viaMiddleware ? wrapLanguageModel({ model: scripted, middleware: adapter.middleware() }) : scripted,
    ...(options.system !== undefined ? { system: options.system } : {}),
    messages: toModelMessages([...(options.history ?? defaultLoopHistory()), { role: "user", content: options.prompt ?? LOOP_PROMPT }]),
    tools: { ...appTools(options.tools ?? { [READ_NOTE_TOOL]: ({ path }) => readNote(String(path)) }), ...adapter.tools },
    stopWhen: stepCountIs(script.length),
    ...(viaMiddleware ? {} : { prepareStep: adapter.prepareStep, onStepFinish: adapter.onStepFinish }),
  });
  return {
    engine,
    steps: calls.map((call, i) => ({
      messages: promptToChatMessages(call.prompt),
      promptTokens: call.promptTokens,
      compressions: compressions[i] ?? [],
      toolCalls: call.toolCalls,
      tools: call.tools,
    })),
    text: result.text,
    status: engine.getStatus(),
    warnings,
  };
}
