/**
 * The offline stand-in the examples use when OPENAI_API_KEY is unset: the test suite's loopback
 * OpenAI-compatible server, scripted with the adapters' tool loop (two large notes read, a prompt past the
 * engine's threshold, the first note read again, an answer): nothing in it depends on the engine, so the
 * examples run with whichever engine their config names. Delete this file in your own project; to test
 * your own engine in a loop offline, see `@context-engine/ai-sdk/testing` and `@context-engine/langchain/testing`.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAIFixtureServer, type FixtureServer } from "../test/support/openaiFixtureServer.js";
import { CONTEXT_LENGTH, readNote, scriptToolLoop, USER_ASK } from "../test/support/toolLoopScenario.js";

export { readNote, USER_ASK };

/** The config an example runs with: the path given as its first argument, else the config.yaml beside it. */
export function exampleConfig(exampleUrl: string): string {
  return process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL("config.yaml", exampleUrl));
}

/** Where the examples send their model calls. */
export interface ModelEndpoint {
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  /** The window the engine is sized to. */
  contextLength: number;
  /** Set for the offline server: stop it at the end. */
  server?: FixtureServer;
}

/** OpenAI when OPENAI_API_KEY is set (OPENAI_MODEL, default gpt-4o-mini), else the scripted loopback server. */
export async function modelEndpoint(): Promise<ModelEndpoint> {
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey) return { baseURL: process.env.OPENAI_BASE_URL || undefined, apiKey, model: process.env.OPENAI_MODEL || "gpt-4o-mini", contextLength: 128_000 };
  const server = await startOpenAIFixtureServer();
  scriptToolLoop(server, "readFile");
  console.log(`model: a scripted loopback server at ${server.baseUrl} (set OPENAI_API_KEY to use OpenAI)`);
  return { baseURL: server.baseUrl, apiKey: "offline", model: "offline-model", contextLength: CONTEXT_LENGTH, server };
}
