/**
 * @context-engine/langchain/testing — run any context engine in a real LangChain agent (`createAgent`),
 * offline, with a scripted model (LangChain's `fakeModel()`), and assert what each model call sent.
 */
export { runLangChainAgent } from "./runAgent.js";
export type { LangChainAgentOptions } from "./runAgent.js";
export { defaultLoopTools, defaultLoopScript, defaultLoopHistory, LOOP_PROMPT, readNote, READ_NOTE_TOOL, LOOP_CONTEXT_LENGTH } from "@context-engine/core/conformance";
export type { LoopTool, LoopRunOptions, EngineUnderTest, ScriptedTurn, LoopCompression, LoopStep, LoopRun } from "@context-engine/core/conformance";
