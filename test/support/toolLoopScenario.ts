/**
 * One agent tool loop for the framework adapters' tests (AI SDK, LangChain): the loopback OpenAI server's
 * scripted answers read two large notes with the app's `readFile` tool, report prompt tokens past the
 * engine's threshold, then call an engine tool (`lcm_grep`, or the app's tool again for an engine without
 * tools) and answer. No test framework here: the examples script their offline model with it too;
 * the checks are in expectToolLoop.ts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createContextHost, ExtractiveSummarizer, parseMessages, type ChatMessage, type ContextHost } from "@context-engine/core";
import type { FixtureServer, RecordedRequest } from "./openaiFixtureServer.js";

/** The lcm plugin folder (a `plugins:` entry). */
export const LCM_PLUGIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../plugins/lcm");

/** The system prompt and the user's ask. */
export const SYSTEM_PROMPT = "You are a careful assistant with a readFile tool.";
export const USER_ASK = "Read notes/zebra.txt and notes/yak.txt, then tell me what the zebra note said.";

/** The model's window in the scenario, and the prompt tokens the second answer reports (past any trigger). */
export const CONTEXT_LENGTH = 8_000;
export const PAST_THRESHOLD_TOKENS = 7_600;
/** Prompt tokens the last answer reports: the engine must hold this after the loop. */
export const FINAL_PROMPT_TOKENS = 1_234;
/** The answer that ends the loop. */
export const FINAL_ANSWER = "The zebra note says the herd crossed the river at dawn.";

/** The app's own tool: the text of a note (about 3,000 tokens, so two of them fill most of the window). */
export function readNote(path: string): string {
  const animal = path.includes("zebra") ? "zebra" : "yak";
  return Array.from({ length: 170 }, (_, i) => `${i + 1}. ${animal} field note: the herd crossed the river at dawn, head count ${(i * 37) % 101}.`).join("\n");
}

/** A fresh temporary folder. */
export function scenarioDir(): string {
  return mkdtempSync(join(tmpdir(), "ce-adapter-"));
}

/** A host whose engine is lcm (small tail and chunks), sized to the scenario's window, summarizing offline. */
export function lcmHost(dir: string): Promise<ContextHost> {
  const yaml = [
    "context:",
    "  engine: lcm",
    "plugins:",
    `  - ${JSON.stringify(LCM_PLUGIN_DIR)}`,
    "model:",
    "  default: fixture-model",
    `  context_length: ${CONTEXT_LENGTH}`,
    "lcm:",
    `  db_path: ${JSON.stringify(join(dir, "lcm.db"))}`,
    "  fresh_tail: 2",
    "  leaf_chunk_tokens: 300",
    "  leaf_target_tokens: 120",
    "",
  ].join("\n");
  return createContextHost({ config: yaml, rootDir: dir, summarizer: new ExtractiveSummarizer() });
}

/** A host whose engine is the built-in compressor (short protected tail), summarizing offline. */
export function compressorHost(dir: string): Promise<ContextHost> {
  const yaml = ["model:", "  default: fixture-model", `  context_length: ${CONTEXT_LENGTH}`, "compression:", "  protect_first_n: 2", "  protect_last_n: 2", ""].join("\n");
  return createContextHost({ config: yaml, rootDir: dir, summarizer: new ExtractiveSummarizer() });
}

/**
 * Scripts the loop: readFile(zebra) → readFile(yak) reporting {@link PAST_THRESHOLD_TOKENS} → `engineTool`
 * (lcm_grep for "zebra", or readFile again for an engine without tools) → {@link FINAL_ANSWER}.
 */
export function scriptToolLoop(server: FixtureServer, engineTool: "lcm_grep" | "readFile"): void {
  const toolCall = engineTool === "lcm_grep" ? { name: "lcm_grep", arguments: { pattern: "zebra" } } : { name: "readFile", arguments: { path: "notes/zebra.txt" } };
  server.script(
    { kind: "reply", reply: { content: "Reading the zebra note.", toolCalls: [{ id: "call_zebra", name: "readFile", arguments: { path: "notes/zebra.txt" } }], usage: { prompt_tokens: 900 } } },
    { kind: "reply", reply: { content: "Now the yak note.", toolCalls: [{ id: "call_yak", name: "readFile", arguments: { path: "notes/yak.txt" } }], usage: { prompt_tokens: PAST_THRESHOLD_TOKENS } } },
    { kind: "reply", reply: { toolCalls: [{ id: "call_engine", ...toolCall }], usage: { prompt_tokens: 1_100 } } },
    { kind: "reply", reply: { content: FINAL_ANSWER, usage: { prompt_tokens: FINAL_PROMPT_TOKENS, completion_tokens: 12 } } },
  );
}

/** The chat messages a recorded request sent (OpenAI wire shape), validated. */
export function sentMessages(request: RecordedRequest): ChatMessage[] {
  return parseMessages(request.body?.messages, "the request the model received");
}

/** The tool names a recorded request offered. */
export function sentTools(request: RecordedRequest): string[] {
  return ((request.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
}
