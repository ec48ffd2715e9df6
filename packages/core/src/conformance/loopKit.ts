/**
 * What the framework adapters' test kits (`@context-engine/ai-sdk/testing`, `@context-engine/langchain/testing`)
 * share: the engine a loop runs (a name, a directory, an instance), the scripted model's turns, a default
 * script that crosses any trigger, and the record of each step the kits return. Framework-free.
 */
import { basename, dirname, resolve } from "node:path";
import { isContextEngine, type ContextEngine } from "../engine/ContextEngine.js";
import type { EngineStatus } from "../engine/types.js";
import type { ChatMessage } from "../messages/schema.js";
import type { HostConfig } from "../config/schema.js";
import type { Summarizer } from "../summarizers/types.js";
import { loadConfig, validateConfigObject } from "../config/load.js";
import { createContextHost, type ContextHost } from "../host/createContextHost.js";
import { ExtractiveSummarizer } from "../summarizers/extractive.js";

/**
 * The engine a loop runs: an engine's name (`context.engine`, resolved with `config` as the host does:
 * directory engines, then `plugins:`, then the built-in compressor), the path of a directory engine
 * (`<root>/plugins/context_engine/<name>`, the layout `context-engine new engine` writes), or an instance.
 */
export type EngineUnderTest = string | ContextEngine;

/** One answer of the scripted model: text and/or tool calls, and the prompt tokens it reports. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  /** The prompt tokens this answer reports (the usage the engine is fed; default 10). */
  promptTokens?: number;
}

/** How a loop test finds and sizes its engine. */
export interface LoopEngineOptions {
  /** The engine; default the one `config` names (`context.engine`). */
  engine?: EngineUnderTest;
  /** A config.yaml path, YAML text or a config object: plugins and the engine's own section (a name is looked up with it). */
  config?: HostConfig | string;
  /** Where directory engines are looked up (default: the config file's folder, else cwd). */
  rootDir?: string;
  /** The model's window the engine is sized to (default {@link LOOP_CONTEXT_LENGTH}). */
  contextLength?: number;
  /** Summarizes for the engine (default the offline extractive summarizer: no model calls). */
  summarizer?: Summarizer;
}

/** What a kit's loop runs besides the engine: the script, the conversation, the app's tools. */
export interface LoopRunOptions extends LoopEngineOptions {
  /** The model's answers, one per model call (default {@link defaultLoopScript}: past any trigger after the second call). */
  script?: readonly ScriptedTurn[];
  /** The conversation before the ask, as chat messages (default {@link defaultLoopHistory}: three earlier exchanges). */
  history?: ChatMessage[];
  /** The user's ask (default {@link LOOP_PROMPT}: read two notes). */
  prompt?: string;
  /** The system prompt. */
  system?: string;
  /** The app's tools next to the engine's (default {@link defaultLoopTools}: `read_note`, a note of about 3,000 tokens). */
  tools?: Record<string, LoopTool>;
}

/** The engine a loop runs, with the host that built it (none for an instance). */
export interface LoopEngine {
  engine: ContextEngine;
  host: ContextHost | undefined;
  /** The host's warnings (empty for an instance). */
  warnings: string[];
}

/** What one compaction before a step did. */
export interface LoopCompression {
  messagesBefore: number;
  messagesAfter: number;
  /** The prompt tokens that triggered it. */
  promptTokens: number;
  /** What triggered it (the adapters' `trigger`: usage, hygiene, agent or overflow). */
  trigger: string;
  compressionCount: number;
}

/** The {@link LoopCompression} fields of an adapter's compression event (which carries more). */
export function loopCompression(event: LoopCompression): LoopCompression {
  const { messagesBefore, messagesAfter, promptTokens, trigger, compressionCount } = event;
  return { messagesBefore, messagesAfter, promptTokens, trigger, compressionCount };
}

/** One model call of a loop: the view the engine let through, and what the model answered. */
export interface LoopStep {
  /** The messages the model was sent (after a compaction: the compacted view plus what came after it). */
  messages: ChatMessage[];
  /** The prompt tokens the model reported for this call (fed to the engine). */
  promptTokens: number;
  /** The compactions done before this call (empty when none). */
  compressions: LoopCompression[];
  /** The tools the model called in its answer, by name. */
  toolCalls: string[];
  /** The tool names the model was offered. */
  tools: string[];
}

/** What a loop run returns. */
export interface LoopRun {
  engine: ContextEngine;
  steps: LoopStep[];
  /** The final answer's text. */
  text: string;
  /** The engine's status after the loop. */
  status: EngineStatus;
  warnings: string[];
}

/** The default window of a loop test. */
export const LOOP_CONTEXT_LENGTH = 8_000;

/** The app tool every kit offers the scripted model: the text of a note (about 3,000 tokens). */
export function readNote(path: string): string {
  return Array.from({ length: 170 }, (_, i) => `${i + 1}. ${path} field note: the herd crossed the river at dawn, head count ${(i * 37) % 101}.`).join("\n");
}

/** The conversation a loop continues when given none: three earlier exchanges (so an engine has old turns to drop or condense). */
export function defaultLoopHistory(): ChatMessage[] {
  const turn = (topic: string): ChatMessage[] => [
    { role: "user", content: `What do the ${topic} notes say?` },
    { role: "assistant", content: Array.from({ length: 20 }, (_, i) => `The ${topic} notes, point ${i + 1}: the herd moved ${i + 2} miles north.`).join(" ") },
  ];
  return [...turn("antelope"), ...turn("bison"), ...turn("caribou")];
}

/** The user's ask a loop sends when given none. */
export const LOOP_PROMPT = "Read notes/zebra.txt and notes/yak.txt, then tell me what the zebra note said.";

/** The name of {@link readNote} as a tool. */
export const READ_NOTE_TOOL = "read_note";

/** An app tool of a loop: the scripted call's `input` to its result. */
export type LoopTool = (input: Record<string, unknown>) => unknown;

/** The app tools a loop offers when given none: {@link READ_NOTE_TOOL}. */
export function defaultLoopTools(): Record<string, LoopTool> {
  return { [READ_NOTE_TOOL]: ({ path }) => readNote(String(path)) };
}

/**
 * The script a loop runs when given none: the model reads two notes, reporting prompt tokens past any
 * trigger (95 % of the window) after the second, reads a third and answers — so an engine compresses before the third call.
 */
export function defaultLoopScript(contextLength = LOOP_CONTEXT_LENGTH): ScriptedTurn[] {
  const read = (path: string) => [{ name: READ_NOTE_TOOL, input: { path } }];
  return [
    { text: "Reading the first note.", toolCalls: read("notes/zebra.txt"), promptTokens: Math.floor(contextLength * 0.1) },
    { text: "Now the second.", toolCalls: read("notes/yak.txt"), promptTokens: Math.floor(contextLength * 0.95) },
    { toolCalls: read("notes/zebra.txt"), promptTokens: Math.floor(contextLength * 0.2) },
    { text: "The zebra note says the herd crossed the river at dawn.", promptTokens: Math.floor(contextLength * 0.15) },
  ];
}

/** True for a string that names a folder rather than an engine (it has a path separator or starts with "."). */
function isPath(engine: string): boolean {
  return /[\\/]/.test(engine) || engine.startsWith(".");
}

/** Builds the engine a loop runs, sized to `contextLength`; a name or directory that does not resolve throws (no fallback). */
export async function loopEngine(options: LoopEngineOptions = {}): Promise<LoopEngine> {
  const model = { model: "scripted-model", contextLength: options.contextLength ?? LOOP_CONTEXT_LENGTH };
  const { engine } = options;
  if (engine !== undefined && typeof engine !== "string") {
    if (!isContextEngine(engine)) throw new TypeError("loopEngine: engine must be a name, a directory or a ContextEngine");
    engine.updateModel(model);
    return { engine, host: undefined, warnings: [] };
  }
  const config = typeof options.config === "string" ? await loadConfig(options.config) : (options.config ?? validateConfigObject({}));
  let rootDir = options.rootDir;
  let name = engine;
  if (engine !== undefined && isPath(engine)) {
    const dir = resolve(engine);
    if (basename(dirname(dir)) !== "context_engine" || basename(dirname(dirname(dir))) !== "plugins") {
      throw new Error(`loopEngine: ${dir} is not a directory engine's folder (<root>/plugins/context_engine/<name>)`);
    }
    name = basename(dir);
    rootDir = resolve(dir, "../../..");
  }
  const named: HostConfig = name === undefined ? config : { ...config, context: { ...config.context, engine: name } };
  const host = await createContextHost({
    config: named,
    ...(rootDir !== undefined ? { rootDir } : {}),
    strict: true,
    model,
    summarizer: options.summarizer ?? new ExtractiveSummarizer(),
  });
  return { engine: host.engine, host, warnings: host.warnings };
}

/** A model call as a kit's scripted model records it: the view sent (already as chat messages) and the answer. */
export interface RecordedCall {
  messages: ChatMessage[];
  promptTokens: number;
  toolCalls: string[];
  tools: string[];
}

/** What a kit's one call shares: the engine, the script, the calls recorded, and the compactions before each. */
export interface LoopRecorder<C> extends LoopEngine {
  script: readonly ScriptedTurn[];
  /** The scripted model's calls, in order (the kit's own record of each). */
  calls: C[];
  /** The adapter's options: the host (or the instance) and the compression listener that files events by call. */
  adapterOptions: ({ host: ContextHost } | { engine: ContextEngine }) & { onCompress: (event: LoopCompression) => void };
  /** The run: each call read with `read` (its view as chat messages), with the compactions before it. */
  finish(text: string, read: (call: C) => RecordedCall): LoopRun;
}

/** Builds the engine and the records a kit's loop run fills (see {@link LoopRecorder}). */
export async function loopRecorder<C>(options: LoopRunOptions): Promise<LoopRecorder<C>> {
  const built = await loopEngine(options);
  const { engine, host } = built;
  const calls: C[] = [];
  const compressions: LoopCompression[][] = [];
  return {
    ...built,
    script: options.script ?? defaultLoopScript(engine.contextLength),
    calls,
    adapterOptions: { ...(host ? { host } : { engine }), onCompress: (event) => (compressions[calls.length] ??= []).push(loopCompression(event)) },
    finish: (text, read) => ({
      engine,
      steps: calls.map((call, i) => ({ ...read(call), compressions: compressions[i] ?? [] })),
      text,
      status: engine.getStatus(),
      warnings: built.warnings,
    }),
  };
}
