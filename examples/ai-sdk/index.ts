/**
 * A Vercel AI SDK 7 tool loop (ai 6 works the same) whose context a context engine manages: `prepareStep`
 * compresses the messages when the engine says so (the one config.yaml names, here lcm; or another config's,
 * given as the first argument), every step's usage is fed back, and the model gets the engine's tools
 * (lcm_grep, …) next to its own.
 *
 *   npx --yes pnpm@12.4.2 start                     # offline; with OPENAI_API_KEY set it talks to OpenAI
 *   npx --yes pnpm@12.4.2 start path/to/config.yaml # the engine another config names
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import { createContextHost } from "@context-engine/core";
import { createAiSdkAdapter } from "@context-engine/ai-sdk";
import { exampleConfig, modelEndpoint, readNote, USER_ASK } from "../offline.js";

const endpoint = await modelEndpoint();
const host = await createContextHost({ config: exampleConfig(import.meta.url), model: { model: endpoint.model, contextLength: endpoint.contextLength } });
for (const warning of host.warnings) console.warn(warning);

const adapter = createAiSdkAdapter({
  host,
  onCompress: (e) => console.log(`compressed before step ${e.stepNumber + 1}: ${e.messagesBefore} → ${e.messagesAfter} messages (${e.promptTokens} prompt tokens ${e.trigger === "hygiene" ? "estimated" : "reported"})`),
});
const openai = createOpenAI({ apiKey: endpoint.apiKey, ...(endpoint.baseURL ? { baseURL: endpoint.baseURL } : {}) });
const readFile = tool({
  description: "Read a note by path",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => readNote(path),
});

try {
  const result = await generateText({
    model: openai.chat(endpoint.model),
    system: "You are a careful assistant with a readFile tool.",
    prompt: USER_ASK,
    tools: { readFile, ...adapter.tools },
    stopWhen: stepCountIs(8),
    prepareStep: adapter.prepareStep,
    onStepFinish: (step) => {
      adapter.onStepFinish(step);
      const calls = step.toolCalls.map((c) => c.toolName).join(", ");
      console.log(`step: ${calls ? `called ${calls}` : "answered"} (${step.usage.inputTokens ?? "?"} prompt tokens)`);
    },
  });
  const status = host.engine.getStatus();
  console.log(`answer: ${result.text}`);
  console.log(`engine: ${host.engine.name}, ${status.compressionCount} compression(s), last prompt ${status.lastPromptTokens} tokens`);
} finally {
  await endpoint.server?.close();
}
