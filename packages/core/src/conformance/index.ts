/**
 * The conformance suite (`@context-engine/core/conformance`): framework-free checks that an engine keeps
 * the contract — counters, thresholds, status, tools, and provider-valid output that never loses the
 * system prompt or the latest user message. Run it from code or with `context-engine conformance`.
 */
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import { ENGINE_NAME_PATTERN } from "../config/schema.js";
import { validateConversation } from "../messages/validate.js";
import type { ChatMessage } from "../messages/schema.js";
import { conformanceScenarios } from "./scenarios.js";

/** One check's outcome. */
export interface ConformanceCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

/** What {@link runConformance} returns. */
export interface ConformanceReport {
  engine: string;
  passed: number;
  failed: number;
  checks: ConformanceCheck[];
}

type Factory = () => ContextEngine | Promise<ContextEngine>;

function lastUserText(messages: ChatMessage[]): string | undefined {
  const last = messages.findLast((m) => m.role === "user");
  return typeof last?.content === "string" ? last.content : undefined;
}

/** The URLs of the latest user message's image parts. */
function lastUserImages(messages: ChatMessage[]): string[] {
  const last = messages.findLast((m) => m.role === "user");
  if (!Array.isArray(last?.content)) return [];
  return last.content.flatMap((part) => {
    const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
    return typeof url === "string" ? [url] : [];
  });
}

/** The tool results after the last assistant message (the step the agent is in), by call id and content. */
function newestToolResults(messages: ChatMessage[]): ChatMessage[] {
  const results: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) results.unshift(messages[i]!);
  return results;
}

/** Runs every check against fresh engines from `factory`; never throws for a failing engine. */
export async function runConformance(factory: Factory): Promise<ConformanceReport> {
  const checks: ConformanceCheck[] = [];
  let engineName = "(unknown)";
  const check = async (name: string, body: () => Promise<string | void> | string | void) => {
    try {
      const failure = await body();
      checks.push(failure ? { name, ok: false, detail: failure } : { name, ok: true });
    } catch (error) {
      checks.push({ name, ok: false, detail: `threw: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  const fresh = async (): Promise<ContextEngine> => {
    const engine = await factory();
    if (!isContextEngine(engine)) throw new Error("the factory did not return a context engine");
    return engine;
  };

  await check("factory returns a context engine with a valid name", async () => {
    const engine = await fresh();
    engineName = engine.name;
    if (!ENGINE_NAME_PATTERN.test(engine.name)) return `name '${engine.name}' does not match ${ENGINE_NAME_PATTERN}`;
  });
  await check("each factory call returns a new instance", async () => ((await fresh()) === (await fresh()) ? "the same instance was returned twice" : undefined));
  await check("updateModel sizes the engine and the threshold lies inside the window", async () => {
    const engine = await fresh();
    engine.updateModel({ model: "conformance-model", contextLength: 128_000 });
    if (engine.contextLength !== 128_000) return `contextLength is ${engine.contextLength}, expected 128000`;
    if (!(engine.thresholdTokens > 0 && engine.thresholdTokens <= 128_000)) return `thresholdTokens ${engine.thresholdTokens} is outside (0, 128000]`;
  });
  await check("shouldCompress fires at the threshold and not below it", async () => {
    const engine = await fresh();
    engine.updateModel({ model: "conformance-model", contextLength: 200_000 });
    if (engine.shouldCompress(0)) return "fires at 0 tokens";
    if (!engine.shouldCompress(engine.thresholdTokens)) return `does not fire at thresholdTokens (${engine.thresholdTokens})`;
  });
  await check("updateFromResponse reads OpenAI and Anthropic usage", async () => {
    const engine = await fresh();
    const promptTokensAfter = (usage: Record<string, unknown>): number => {
      engine.updateFromResponse(usage);
      return engine.lastPromptTokens;
    };
    const openai = promptTokensAfter({ prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 });
    if (openai !== 1234) return `OpenAI usage: lastPromptTokens ${openai}, expected 1234`;
    const anthropic = promptTokensAfter({ input_tokens: 10, cache_read_input_tokens: 900, cache_creation_input_tokens: 90, output_tokens: 5 });
    if (anthropic !== 1000) return `Anthropic usage: lastPromptTokens ${anthropic}, expected 1000`;
  });
  await check("getStatus reports the counters with usagePercent in 0..100", async () => {
    const engine = await fresh();
    engine.updateModel({ model: "conformance-model", contextLength: 100_000 });
    engine.updateFromResponse({ prompt_tokens: 25_000, completion_tokens: 1 });
    const s = engine.getStatus();
    if (s.lastPromptTokens !== 25_000 || s.contextLength !== 100_000) return `status ${JSON.stringify(s)}`;
    if (Math.abs(s.usagePercent - 25) > 0.01) return `usagePercent ${s.usagePercent}, expected 25`;
    engine.lastPromptTokens = -1;
    if (engine.getStatus().lastPromptTokens !== 0) return "the -1 sentinel is not clamped to 0";
  });
  await check("an engine that keeps usage per session (lastPromptTokensOf) keeps each session's apart", async () => {
    const engine = await fresh();
    if (engine.lastPromptTokensOf === undefined) return undefined; // optional: engine-wide usage only
    await engine.onSessionStart("conformance-a");
    await engine.onSessionStart("conformance-b");
    engine.updateFromResponse({ prompt_tokens: 3_000, completion_tokens: 1 }, "conformance-a");
    engine.updateFromResponse({ prompt_tokens: 700, completion_tokens: 1 }, "conformance-b");
    const a = engine.lastPromptTokensOf("conformance-a");
    const b = engine.lastPromptTokensOf("conformance-b");
    if (a !== 3_000 || b !== 700) return `lastPromptTokensOf gave ${a} and ${b}, expected 3000 and 700`;
    if (engine.getStatus("conformance-a").lastPromptTokens !== 3_000) return `getStatus("conformance-a").lastPromptTokens is ${engine.getStatus("conformance-a").lastPromptTokens}, expected 3000`;
  });
  await check("onSessionReset zeroes the counters", async () => {
    const engine = await fresh();
    engine.updateFromResponse({ prompt_tokens: 10, completion_tokens: 1 });
    engine.compressionCount = 2;
    engine.onSessionReset();
    if (engine.lastPromptTokens !== 0 || engine.compressionCount !== 0) return "counters survive a reset";
  });
  await check("tools have unique names and unknown tools give a JSON error", async () => {
    const engine = await fresh();
    const names = engine.getToolSchemas().map((t) => t.function.name);
    if (new Set(names).size !== names.length) return `duplicate tool names: ${names.join(", ")}`;
    const answer = JSON.parse(await engine.handleToolCall("no_such_tool_xyz", {})) as { error?: string };
    if (typeof answer.error !== "string") return "handleToolCall of an unknown tool gave no error field";
    for (const name of names) {
      const result = await engine.handleToolCall(name, { definitely: ["not", "valid"] });
      JSON.parse(result);
    }
  });
  for (const scenario of conformanceScenarios()) {
    await check(`compress keeps "${scenario.name}" valid, unmutated, with the system prompt, the latest ask and the newest tool results`, async () => {
      const engine = await fresh();
      engine.updateModel({ model: "conformance-model", contextLength: 32_000 });
      const input = scenario.messages;
      const snapshot = JSON.stringify(input);
      const output = await engine.compress(input, { force: true });
      if (JSON.stringify(input) !== snapshot) return "the input messages were mutated";
      if (!Array.isArray(output) || output.length === 0) return "compress returned no messages";
      const problems = validateConversation(output);
      if (problems.length > 0) return `${problems.length} provider-rule problems, first: ${problems[0]!.message}`;
      if (output[0]!.role !== "system" || output[0]!.content === null) return "the system prompt is not first";
      const ask = lastUserText(input);
      if (ask && !JSON.stringify(output).includes(JSON.stringify(ask).slice(1, -1))) return "the latest user message is gone";
      const shown = JSON.stringify(output);
      if (lastUserImages(input).some((url) => !shown.includes(url))) return "the image of the latest user message is gone";
      for (const result of newestToolResults(input)) {
        const kept = output.find((m) => m.role === "tool" && m.tool_call_id === result.tool_call_id);
        if (kept === undefined || JSON.stringify(kept.content) !== JSON.stringify(result.content)) return `the newest tool result ${result.tool_call_id} (the step the agent is in) is gone or changed`;
      }
    });
  }
  await check("prepareCompression, when offered, answers at once with a status and leaves its input as it is", async () => {
    const engine = await fresh();
    if (engine.prepareCompression === undefined) return undefined;
    engine.updateModel({ model: "conformance-model", contextLength: 32_000 });
    const input = conformanceScenarios()[1]!.messages;
    const snapshot = JSON.stringify(input);
    const status: unknown = engine.prepareCompression(input, { currentTokens: Math.floor(engine.thresholdTokens * 0.9) });
    if (status instanceof Promise) return "it returned a promise: it must answer at once, the summary going on in the background";
    const state = (status as { state?: unknown } | undefined)?.state;
    if (!["off", "not_due", "started", "pending", "ready", "failed"].includes(state as string)) return `it returned ${JSON.stringify(status)}, not a preparation status`;
    if (JSON.stringify(input) !== snapshot) return "the input messages were mutated";
  });
  await check("compress with an aborted signal leaves the conversation intact", async () => {
    const engine = await fresh();
    const input = conformanceScenarios()[1]!.messages;
    const controller = new AbortController();
    controller.abort();
    const output = await engine.compress(input, { force: true, signal: controller.signal }).catch(() => input);
    if (validateConversation(output).length > 0) return "output after abort is not valid";
  });

  const failed = checks.filter((c) => !c.ok).length;
  return { engine: engineName, passed: checks.length - failed, failed, checks };
}

export { conformanceScenarios, agentSession } from "./scenarios.js";
// what the host checks an engine with: its output against the provider rules, and the contract version it states
export { invalidEngineOutput } from "../engine/invalidOutput.js";
export type { InvalidOutput } from "../engine/invalidOutput.js";
export { engineApiVersion } from "../engine/apiVersion.js";
export { loopEngine, loopRecorder, loopCompression, defaultLoopTools, defaultLoopScript, defaultLoopHistory, LOOP_PROMPT, readNote, READ_NOTE_TOOL, LOOP_CONTEXT_LENGTH } from "./loopKit.js";
export type { LoopTool, LoopRunOptions, EngineUnderTest, ScriptedTurn, LoopEngineOptions, LoopEngine, LoopCompression, LoopStep, LoopRun, LoopRecorder, RecordedCall } from "./loopKit.js";
export type { ApiVersionStatement } from "../engine/apiVersion.js";
