/**
 * What the consumer project runs to check summaries from the app's own model and the AI SDK 7 support
 * from the installed packs: the framework versions it installs beside them (the workspace's own), the
 * scripts, and an async runner (the scripts call a loopback server of the test process, which a
 * blocking child process would starve).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, userEnv } from "../support/cli.js";

/** `name`'s version in a workspace package.json's dependencies or devDependencies (an `npm:` alias read as its target). */
function workspaceVersion(folder: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const spec = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name];
  if (spec === undefined) throw new Error(`${folder}/package.json names no ${name}`);
  return spec.replace(/^npm:[^@]+@/, "");
}

/**
 * The AI SDK 6 the main consumer project installs beside the packs (the adapter's peers pinned to ai 6's,
 * whose declarations pass a strict check with skipLibCheck off), and the provider and LangChain model
 * its summarizer run calls.
 */
export function aiSdk6Specs(): string[] {
  const v = (name: string) => `${name}@${workspaceVersion("packages/ai-sdk", name)}`;
  return [v("ai"), v("@ai-sdk/provider"), v("@ai-sdk/provider-utils"), v("@ai-sdk/openai"), `@langchain/openai@${workspaceVersion("packages/langchain", "@langchain/openai")}`];
}

/** The AI SDK 7 of the second consumer project: `ai` as the adapter's `ai7` alias names it, and the OpenAI provider of examples/ai-sdk. */
export function aiSdk7Specs(): string[] {
  return [`ai@${workspaceVersion("packages/ai-sdk", "ai7")}`, `@ai-sdk/openai@${workspaceVersion("examples/ai-sdk", "@ai-sdk/openai")}`];
}

/** Runs `node <script>` in `cwd` without blocking this process; resolves with its stdout, rejects with its output. */
export function nodeAsync(script: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script], { cwd, env: userEnv(env), maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${script} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The summary the loopback model answers with. */
export const LOOPBACK_SUMMARY = "## Goal\n- from the loopback model";

/** A conversation whose middle a forced compaction summarizes, and a host config sized for it (as the scripts below use them). */
const CONVERSATION = `const turns = [{ role: "system", content: "sys" }, { role: "user", content: "fix the build" }];
for (let r = 0; r < 10; r++) {
  turns.push({ role: "assistant", content: null, tool_calls: [{ id: "call_" + r, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: "make " + r }) } }] });
  turns.push({ role: "tool", tool_call_id: "call_" + r, content: "step " + r + " failed\\n" + "error: build step failed at src/build.rs\\n".repeat(60) });
  turns.push({ role: "assistant", content: "round " + r + " done" }, { role: "user", content: "and now step " + (r + 1) });
}
const config = { compression: { protect_last_n: 4, threshold_tokens: 1000 } };
/** What the host's compressor did with its summarizer on a forced compaction. */
async function compactWith(summarizer) {
  const host = await createContextHost({ config, summarizer });
  const out = await host.engine.compress(turns, { force: true });
  const report = host.engine.lastCompression;
  return { name: summarizer.name, summarizer: report.summarizer, fallbackUsed: report.fallbackUsed, calls: report.summaryCalls ?? null, fromTheModel: JSON.stringify(out).includes("from the loopback model") };
}
`;

/** The main project's script: aiSdkSummarizer over @ai-sdk/openai and langchainSummarizer over ChatOpenAI, both at BASE_URL. */
export const SUMMARIES_SCRIPT = `import { createContextHost } from "@context-engine/core";
import { aiSdkSummarizer } from "@context-engine/ai-sdk";
import { langchainSummarizer } from "@context-engine/langchain";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
${CONVERSATION}
const baseURL = process.env.BASE_URL;
const out = [
  await compactWith(aiSdkSummarizer(createOpenAI({ baseURL, apiKey: "sk-loopback" }).chat("gpt-4o-mini"))),
  await compactWith(langchainSummarizer(new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-loopback", maxRetries: 0, configuration: { baseURL } }))),
];
console.log(JSON.stringify(out));
`;

/** The ai 7 project's script: the installed test kit in both places of the loop, then aiSdkSummarizer over @ai-sdk/openai 4 at BASE_URL. */
export const AI7_SCRIPT = `import { createRequire } from "node:module";
import { createOpenAI } from "@ai-sdk/openai";
import { createContextHost } from "@context-engine/core";
import { aiSdkSummarizer } from "@context-engine/ai-sdk";
import { runAiSdkToolLoop } from "@context-engine/ai-sdk/testing";
${CONVERSATION}
const loops = {};
for (const via of ["prepareStep", "middleware"]) {
  const run = await runAiSdkToolLoop({ engine: "compressor", via });
  loops[via] = { compressions: run.steps.map((s) => s.compressions.length), sentTheView: run.steps[2].messages.length === run.steps[2].compressions[0].messagesAfter, text: run.text };
}
const model = createOpenAI({ baseURL: process.env.BASE_URL, apiKey: "sk-loopback" }).chat("gpt-4o-mini");
const ai = createRequire(import.meta.url)("ai/package.json").version;
console.log(JSON.stringify({ ai, node: process.versions.node.split(".")[0], specification: model.specificationVersion, loops, summaries: await compactWith(aiSdkSummarizer(model)) }));
`;

/** A TypeScript file of the ai 7 project: the adapter and the summarizer in use with ai 7's own types. */
export const AI7_APP = `import { generateText, stepCountIs, wrapLanguageModel, type ModelMessage } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createContextHost } from "@context-engine/core";
import { aiSdkSummarizer, createAiSdkAdapter, toChatMessages, toModelMessages } from "@context-engine/ai-sdk";
const openai = createOpenAI({ apiKey: "sk-unused" });
const host = await createContextHost({ config: "config.yaml", summarizer: aiSdkSummarizer(openai.chat("gpt-4o-mini"), { fallbackModel: openai.chat("gpt-4o") }) });
const context = createAiSdkAdapter({ host });
const messages: ModelMessage[] = toModelMessages(toChatMessages([{ role: "user", content: "hi" }]));
const result = await generateText({ model: openai.chat("gpt-4o"), messages, tools: { ...context.tools }, stopWhen: stepCountIs(3), prepareStep: context.prepareStep, onStepFinish: context.onStepFinish });
await generateText({ model: wrapLanguageModel({ model: openai.chat("gpt-4o"), middleware: context.middleware() }), messages: [...messages, ...result.responseMessages] });
`;
