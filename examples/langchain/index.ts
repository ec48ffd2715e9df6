/**
 * A LangChain 1.x agent (`createAgent`) whose context a context engine manages: the middleware compresses
 * the agent's messages before a model call when the engine says so (the one config.yaml names, here lcm;
 * or another config's, given as the first argument), feeds each answer's usage_metadata back, and gives
 * the agent the engine's tools (lcm_grep, …).
 *
 *   npx --yes pnpm@12.4.2 start                     # offline; with OPENAI_API_KEY set it talks to OpenAI
 *   npx --yes pnpm@12.4.2 start path/to/config.yaml # the engine another config names
 */
import { ChatOpenAI } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import { createContextHost } from "@context-engine/core";
import { contextEngineMiddleware } from "@context-engine/langchain";
import { exampleConfig, modelEndpoint, readNote, USER_ASK } from "../offline.js";

const endpoint = await modelEndpoint();
const host = await createContextHost({ config: exampleConfig(import.meta.url), model: { model: endpoint.model, contextLength: endpoint.contextLength } });
for (const warning of host.warnings) console.warn(warning);

const readFile = tool(async ({ path }: { path: string }) => readNote(path), {
  name: "readFile",
  description: "Read a note by path",
  schema: z.object({ path: z.string() }),
});
const agent = createAgent({
  model: new ChatOpenAI({ model: endpoint.model, apiKey: endpoint.apiKey, ...(endpoint.baseURL ? { configuration: { baseURL: endpoint.baseURL } } : {}) }),
  tools: [readFile],
  systemPrompt: "You are a careful assistant with a readFile tool.",
  middleware: [
    contextEngineMiddleware({
      host,
      onCompress: (e) => console.log(`compressed: ${e.messagesBefore} → ${e.messagesAfter} messages (${e.promptTokens} prompt tokens ${e.trigger === "hygiene" ? "estimated" : "reported"})`),
    }),
  ],
});

try {
  const state = await agent.invoke({ messages: [{ role: "user", content: USER_ASK }] });
  for (const message of state.messages) {
    const calls = "tool_calls" in message && Array.isArray(message.tool_calls) ? message.tool_calls.map((c) => c.name).join(", ") : "";
    if (calls) console.log(`step: called ${calls}`);
  }
  const status = host.engine.getStatus();
  console.log(`answer: ${String(state.messages.at(-1)?.content)}`);
  console.log(`engine: ${host.engine.name}, ${status.compressionCount} compression(s), last prompt ${status.lastPromptTokens} tokens`);
} finally {
  await endpoint.server?.close();
}
