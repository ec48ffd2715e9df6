/**
 * @context-engine/ai-sdk/testing — run any context engine in a real AI SDK tool loop, offline, with a
 * scripted model (the AI SDK's `MockLanguageModelV3`), and assert what each step sent.
 */
export { runAiSdkToolLoop } from "./runToolLoop.js";
export type { AiSdkToolLoopOptions } from "./runToolLoop.js";
export { defaultLoopTools, defaultLoopScript, defaultLoopHistory, LOOP_PROMPT, readNote, READ_NOTE_TOOL, LOOP_CONTEXT_LENGTH } from "@context-engine/core/conformance";
export type { LoopTool, LoopRunOptions, EngineUnderTest, ScriptedTurn, LoopCompression, LoopStep, LoopRun } from "@context-engine/core/conformance";
