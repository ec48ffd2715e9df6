/**
 * The packages as a user gets them: packed, installed from the tarballs into a project outside the
 * workspace, then used from plain ESM, CommonJS, a strict NodeNext type check and a TypeScript engine.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";
import { PACK_ALL_COMMAND, PUBLISHED_PACKAGES, installProject, packAll, run, workspacePackage, writeFiles, type PublishedPackage } from "./project.js";
import { docSnippets, FRAMEWORKS_FOLDER, PARTIAL_SNIPPETS } from "./docSnippets.js";
import { AI7_APP, AI7_SCRIPT, aiSdk6Specs, aiSdk7Specs, LOOPBACK_SUMMARY, nodeAsync, SUMMARIES_SCRIPT } from "./modelSummaries.js";
import { startOpenAIFixtureServer } from "../support/openaiFixtureServer.js";
import { startAnthropicFixtureServer } from "../support/anthropicFixtureServer.js";
import ts from "typescript";

const INSTALL_TIMEOUT = 600_000;
/** What the core ships beyond dist's code: the o200k vocabulary and its licence, and the bundled packages' licences. */
const CORE_EXTRA_FILES = ["data/o200k_base.ranks", "data/o200k_base.LICENSE.md", "dist/THIRD-PARTY-LICENSES.md"];
let tarballs: Record<PublishedPackage, string>;
let project: string;
const made: string[] = [];

/** Runs `node <script>` in the consumer project and returns its stdout. */
function node(script: string, cwd = project): string {
  return run(process.execPath, [script], cwd);
}

/** Every file in a tarball, without the leading `package/`. */
function tarballFiles(tarball: string): string[] {
  return execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").map((f) => f.replace(/^package\//, ""));
}

/** A TypeScript directory engine as a plugin author writes it (the README's example). */
const MY_ENGINE = `import { ContextEngine, sanitizeToolPairs, type ChatMessage, type CompressOptions } from "@context-engine/core";

export default class MyEngine extends ContextEngine {
  readonly name = "my_engine";

  shouldCompress(promptTokens = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }

  async compress(messages: ChatMessage[], _options: CompressOptions = {}): Promise<ChatMessage[]> {
    this.compressionCount++;
    return sanitizeToolPairs(messages.slice(-1));
  }
}
`;

describe("the published packages, installed into a project of one's own", () => {
  beforeAll(() => {
    tarballs = packAll();
    project = installProject(
      { "better-sqlite3": workspacePackage("better-sqlite3", PUBLISHED_PACKAGES["@context-engine/lcm"]) },
      { typescript: workspacePackage("typescript"), "@types/node": workspacePackage("@types/node") },
      [...Object.values(tarballs), ...aiSdk6Specs()],
    );
    made.push(project);
  }, INSTALL_TIMEOUT);
  // removing an installed project (node_modules with a compiled better-sqlite3) can take long on a loaded machine
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  }, INSTALL_TIMEOUT);

  it("was installed the README's way: pnpm pack:all into the repository's packs/, then npm install of packs/*.tgz, as no README offers an npm install of a package name", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Use it in your own project\n"), readme.indexOf("\n## Command line\n"));
    const commands = /```sh\n([\s\S]*?)```/.exec(section)![1]!.split("\n").map((line) => line.replace(/\s+#.*$/, ""));
    expect(commands[0]).toBe(`npx --yes pnpm@12.4.2 install --frozen-lockfile && ${PACK_ALL_COMMAND.join(" ")}`);
    expect(commands[1]).toBe("npm install /path/to/context-engine/packs/*.tgz");
    expect(section).toContain("The packages are not on npm yet");
    expect(dirname(tarballs["@context-engine/core"])).toBe(join(repoRoot, "packs"));
    expect(readdirSync(join(repoRoot, "packs")).filter((f) => f.endsWith(".tgz")).sort()).toEqual(Object.values(tarballs).map((t) => t.slice(t.lastIndexOf("/") + 1)).sort());
    const readmes = ["README.md", ...Object.values(PUBLISHED_PACKAGES).map((folder) => `${folder}/README.md`)];
    for (const file of readmes) expect(readFileSync(join(repoRoot, file), "utf8"), file).not.toMatch(/^npm install (--save-dev )?@context-engine\//m);
  });

  it("ships dist, README and LICENSE only (and the core its o200k rank file with the vocabulary's licence, and the licences of the code it bundles), and every export and bin it names is in the tarball", () => {
    for (const name of Object.keys(PUBLISHED_PACKAGES) as PublishedPackage[]) {
      const files = tarballFiles(tarballs[name]);
      const outside = files.filter((f) => !/^(dist\/.+\.(js|d\.ts|map)|README\.md|LICENSE|package\.json|bin\/[\w-]+\.js)$/.test(f) && !(name === "@context-engine/core" && CORE_EXTRA_FILES.includes(f)));
      expect(outside, name).toEqual([]);
      if (name === "@context-engine/core") expect(files).toEqual(expect.arrayContaining(CORE_EXTRA_FILES));
      expect(files, name).toEqual(expect.arrayContaining(["README.md", "LICENSE"]));
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")) as {
        exports: Record<string, string | Record<string, string>>;
        bin?: Record<string, string>;
      };
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (typeof target === "string") continue;
        expect(Object.keys(target), `${name} ${subpath}`).toEqual(["types", "import", "default"]);
        for (const file of Object.values(target)) expect(files, `${name} ${subpath}`).toContain(file.replace(/^\.\//, ""));
      }
      for (const bin of Object.values(manifest.bin ?? {})) expect(files).toContain(bin.replace(/^\.\//, ""));
    }
  });

  it("imports every package from a plain ESM script and opens the SQLite store", () => {
    writeFiles(project, {
      "esm.mjs": `import { createContextHost, ContextEngine, openSqliteStore } from "@context-engine/core";
import { runConformance } from "@context-engine/core/conformance";
import * as lcm from "@context-engine/lcm";
import { main } from "@context-engine/cli";
import { openPostgresStore, openPostgresLcmStore } from "@context-engine/postgres";
const host = await createContextHost({ rootDir: process.cwd() });
const store = openSqliteStore(":memory:");
const session = store.createSession({ platform: "cli" });
store.appendMessages(session.id, [{ role: "user", content: "hello from a consumer" }]);
console.log(JSON.stringify({ engine: host.engine.name, base: host.engine instanceof ContextEngine, conformance: typeof runConformance, lcm: typeof lcm.register, cli: typeof main, postgres: [typeof openPostgresStore, typeof openPostgresLcmStore], hits: store.search("consumer").length }));
store.close();
`,
    });
    expect(JSON.parse(node("esm.mjs"))).toEqual({ engine: "compressor", base: true, conformance: "function", lcm: "function", cli: "function", postgres: ["function", "function"], hits: 1 });
  });

  it("loads every package with require() from CommonJS", () => {
    writeFiles(project, {
      "cjs.cjs": `const core = require("@context-engine/core");
const { runConformance } = require("@context-engine/core/conformance");
const lcm = require("@context-engine/lcm");
const messages = core.parseMessages([{ role: "user", content: "hi" }]);
console.log(JSON.stringify({ host: typeof core.createContextHost, conformance: typeof runConformance, lcm: typeof lcm.register, valid: core.validateConversation(messages).length === 0 }));
`,
    });
    expect(JSON.parse(node("cjs.cjs"))).toEqual({ host: "function", conformance: "function", lcm: "function", valid: true });
  });

  it("type-checks a consumer of every package and entry (the adapters and their /testing entries included) and every complete ts snippet of README.md and docs/*.md with tsc --init's strict NodeNext config (exactOptionalPropertyTypes on), skipLibCheck removed", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Use it in your own project\n"), readme.indexOf("\n## Command line\n"));
    expect(/```ts\n([\s\S]*?)```/.exec(section)?.[1]).toContain('from "@context-engine/core"');
    const snippets = docSnippets();
    expect(snippets.filter((s) => s.partial).map((s) => s.heading)).toEqual(PARTIAL_SNIPPETS);
    expect(snippets.filter((s) => !s.partial).length).toBeGreaterThanOrEqual(8);
    writeFiles(project, {
      "plugins/context_engine/my_engine/index.ts": MY_ENGINE,
      "src/app.ts": `import { createContextHost, openSqliteStore, type ChatMessage, type ContextHost } from "@context-engine/core";
import { runConformance } from "@context-engine/core/conformance";
import { register } from "@context-engine/lcm";
import { CompactionSession, CompactionSessionAsync } from "@context-engine/core/session";
import { openPostgresStore } from "@context-engine/postgres";
import { main } from "@context-engine/cli";
import { createAiSdkAdapter, toChatMessages, toModelMessages, type AiSdkCompressionEvent } from "@context-engine/ai-sdk";
import { runAiSdkToolLoop } from "@context-engine/ai-sdk/testing";
import { runLangChainAgent, type LoopRun } from "@context-engine/langchain/testing";
const host: ContextHost = await createContextHost({ config: "config.yaml" });
for (const warning of host.warnings) console.warn(warning);
let history: ChatMessage[] = [{ role: "user", content: "hi" }];
if (host.engine.shouldCompress()) history = await host.engine.compress(history);
const session = new CompactionSession({ host, store: openSqliteStore("state.db"), platform: "cli" });
console.log(history.length, typeof runConformance, typeof register, typeof session.append, typeof main);
if (process.env.DATABASE_URL) {
  const shared = await CompactionSessionAsync.open({ host, store: await openPostgresStore({ connectionString: process.env.DATABASE_URL }), platform: "gateway" });
  const ids: number[] = await shared.append([{ role: "user", content: "hi" }]);
  console.log(ids.length, (await shared.maybeCompress()).outcome);
}
const adapter = createAiSdkAdapter({ host, onCompress: (e: AiSdkCompressionEvent) => console.log(e.trigger) });
console.log(Object.keys(adapter.tools), toModelMessages(toChatMessages([{ role: "user", content: "hi" }])).length);
const runs: LoopRun[] = [await runAiSdkToolLoop({ engine: "my_engine", via: "middleware" }), await runLangChainAgent({ engine: host.engine })];
console.log(runs.map((r) => r.steps.map((s) => s.messages.length)));
`,
    });
    // after MY_ENGINE: the README's engine snippet is written to the same path (its first line names it)
    writeFiles(project, Object.fromEntries(snippets.filter((s) => !s.partial).map((s) => [s.file, s.code])));
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    run(process.execPath, [tsc, "--init"], project);
    const config = readFileSync(join(project, "tsconfig.json"), "utf8");
    expect(config).toMatch(/"module": "nodenext"/);
    expect(config).toMatch(/"strict": true/);
    expect(config).toMatch(/"exactOptionalPropertyTypes": true/);
    expect(config).toMatch(/"skipLibCheck": true/);
    // the snippets that import a framework are checked with the framework adapters below
    writeFileSync(join(project, "tsconfig.json"), config.replace(/^.*"skipLibCheck".*$/m, "").replace(/^\{/, `{\n  "exclude": ["node_modules", "${FRAMEWORKS_FOLDER}"],`));
    expect(readFileSync(join(project, "tsconfig.json"), "utf8")).not.toMatch(/skipLibCheck|allowImportingTsExtensions/);
    expect(run(process.execPath, [tsc, "--noEmit", "-p", "."], project)).toBe("");
  }, 180_000); // tsc over the installed packages takes 30-60 s on a loaded two-core machine

  it("type-checks the framework adapters in use, and the README's snippets that import a framework: with skipLibCheck off once exactOptionalPropertyTypes is off; with it on, the only errors are in the AI SDK's and LangChain's own declarations (ai's dist/index.d.ts, …), as the README says", () => {
    expect(docSnippets().filter((s) => !s.partial && s.file.startsWith(`${FRAMEWORKS_FOLDER}/`)).map((s) => s.heading)).toEqual(["README.md: // summaries-ai-sdk.ts", "README.md: // summaries-langchain.ts"]);
    writeFiles(project, {
      "frameworks/tsconfig.json": JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { exactOptionalPropertyTypes: false }, include: ["*.ts"], exclude: [] }),
      "frameworks/exact.json": JSON.stringify({ extends: "../tsconfig.json", include: ["*.ts"], exclude: [] }),
      "frameworks/app.ts": `import { generateText, stepCountIs, wrapLanguageModel, type LanguageModel, type ModelMessage } from "ai";
import { createAgent } from "langchain";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createContextHost } from "@context-engine/core";
import { createAiSdkAdapter, promptToChatMessages, toChatMessages, toLanguageModelPrompt, toModelMessages } from "@context-engine/ai-sdk";
import { contextEngineMiddleware, toBaseMessages } from "@context-engine/langchain";
declare const model: LanguageModel;
declare const providerModel: Parameters<typeof wrapLanguageModel>[0]["model"];
declare const chatModel: BaseChatModel;
const host = await createContextHost({ config: "config.yaml" });
const context = createAiSdkAdapter({ host });
const messages: ModelMessage[] = toModelMessages(toChatMessages([{ role: "user", content: "hi" }]));
await generateText({ model, messages, tools: { ...context.tools }, stopWhen: stepCountIs(3), prepareStep: context.prepareStep, onStepFinish: context.onStepFinish });
await generateText({ model: wrapLanguageModel({ model: providerModel, middleware: context.middleware() }), messages });
console.log(toLanguageModelPrompt(promptToChatMessages([{ role: "system", content: "hi" }])).length);
const agent = createAgent({ model: chatModel, tools: [], middleware: [contextEngineMiddleware({ host })] });
console.log(typeof agent, toBaseMessages([]).length);
`,
    });
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    expect(readFileSync(join(project, "tsconfig.json"), "utf8")).not.toMatch(/skipLibCheck/);
    expect(run(process.execPath, [tsc, "--noEmit", "-p", "frameworks"], project)).toBe("");
    const exact = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "frameworks/exact.json"], { cwd: project, encoding: "utf8" });
    const files = [...new Set([...exact.stdout.matchAll(/^(\S[^(\n]*)\(\d+,\d+\): error/gm)].map((m) => m[1]!.replace(/^.*node_modules\//, "")))].sort();
    expect(files).toContain("ai/dist/index.d.ts");
    for (const file of files) expect(file).toMatch(/^(ai|langchain|langsmith|@langchain\/(core|langgraph|openai))\/(dist|lib)\//);
  }, 180_000);

  it("runs both test kits from the installed packages: an engine by name in an AI SDK tool loop and a LangChain agent, offline", () => {
    writeFiles(project, {
      "kits.mjs": `import { runAiSdkToolLoop } from "@context-engine/ai-sdk/testing";
import { runLangChainAgent } from "@context-engine/langchain/testing";
const out = [];
for (const run of [runAiSdkToolLoop, runLangChainAgent]) {
  const result = await run({ engine: "compressor" });
  out.push({ engine: result.engine.name, compressions: result.steps.map((s) => s.compressions.length), sentTheView: result.steps[2].messages.length === result.steps[2].compressions[0].messagesAfter, text: result.text });
}
console.log(JSON.stringify(out));
`,
    });
    const expected = { engine: "compressor", compressions: [0, 0, 1, 0], sentTheView: true, text: "The zebra note says the herd crossed the river at dawn." };
    expect(JSON.parse(node("kits.mjs"))).toEqual([expected, expected]);
  });

  it("resolves a TypeScript directory engine that extends the host's own ContextEngine", () => {
    writeFiles(project, {
      "plugins/context_engine/my_engine/index.ts": MY_ENGINE,
      "engine.mjs": `import { createContextHost, ContextEngine } from "@context-engine/core";
const started = performance.now();
const host = await createContextHost({ config: { context: { engine: "my_engine" } }, rootDir: process.cwd() });
const loadMs = performance.now() - started;
const out = await host.engine.compress([{ role: "user", content: "a" }, { role: "user", content: "b" }]);
console.log(JSON.stringify({ name: host.engine.name, source: host.engineSource, shared: host.engine instanceof ContextEngine, warnings: host.warnings, out, loadMs }));
`,
    });
    const cold = JSON.parse(node("engine.mjs")) as Record<string, unknown>;
    const warm = JSON.parse(node("engine.mjs")) as Record<string, unknown>;
    for (const result of [cold, warm]) {
      expect({ ...result, loadMs: undefined }).toEqual({ name: "my_engine", source: "directory", shared: true, warnings: [], out: [{ role: "user", content: "b" }], loadMs: undefined });
    }
    console.log(`directory engine load: cold ${Math.round(cold.loadMs as number)} ms, warm ${Math.round(warm.loadMs as number)} ms`);
  });

  it("selects the lcm engine by its package name from a config.yaml and offers its tools", () => {
    writeFiles(project, {
      "lcm/config.yaml": 'context:\n  engine: lcm\nplugins:\n  - "@context-engine/lcm"\n',
      "lcm/run.mjs": `import { createContextHost } from "@context-engine/core";
const host = await createContextHost({ config: "config.yaml", rootDir: process.cwd() });
console.log(JSON.stringify({ name: host.engine.name, source: host.engineSource, tools: host.engine.getToolSchemas().map((t) => t.name ?? t.function?.name).sort(), warnings: host.warnings }));
`,
    });
    expect(JSON.parse(node("run.mjs", join(project, "lcm")))).toEqual({ name: "lcm", source: "plugin", tools: ["lcm_describe", "lcm_expand", "lcm_grep"], warnings: [] });
  });

  it("uses the framework adapters from ESM and CommonJS, with the AI SDK and LangChain the install brought in as peers", () => {
    writeFiles(project, {
      "adapters.mjs": `import { createContextHost } from "@context-engine/core";
import { createAiSdkAdapter, toChatMessages as fromAiSdk, toModelMessages } from "@context-engine/ai-sdk";
import { contextEngineMiddleware, toChatMessages as fromLangChain, toBaseMessages } from "@context-engine/langchain";
import { HumanMessage } from "@langchain/core/messages";
const host = await createContextHost({ config: "lcm/config.yaml", rootDir: process.cwd() + "/lcm" });
const model = [{ role: "user", content: [{ type: "text", text: "hi", providerOptions: { openai: { x: 1 } } }] }];
const lc = [new HumanMessage({ content: "hi", id: "h1" })];
console.log(JSON.stringify({
  aiSdkTools: Object.keys(createAiSdkAdapter({ host }).tools).sort(),
  middlewareTools: contextEngineMiddleware({ host }).tools.map((t) => t.name).sort(),
  aiSdkBack: toModelMessages(fromAiSdk(model)),
  langChainBack: toBaseMessages(fromLangChain(lc)).map((m) => [m.getType(), m.id, m.content]),
}));
`,
      "adapters.cjs": `const { toChatMessages } = require("@context-engine/ai-sdk");
const langchain = require("@context-engine/langchain");
console.log(JSON.stringify({ aiSdk: toChatMessages([{ role: "user", content: "hi" }]), langchain: typeof langchain.contextEngineMiddleware }));
`,
    });
    writeFiles(project, { "lcm/config.yaml": 'context:\n  engine: lcm\nplugins:\n  - "@context-engine/lcm"\nlcm:\n  db_path: ":memory:"\n' });
    const tools = ["lcm_describe", "lcm_expand", "lcm_grep"];
    expect(JSON.parse(node("adapters.mjs"))).toEqual({
      aiSdkTools: tools,
      middlewareTools: tools,
      aiSdkBack: [{ role: "user", content: [{ type: "text", text: "hi", providerOptions: { openai: { x: 1 } } }] }],
      langChainBack: [["human", "h1", "hi"]],
    });
    expect(JSON.parse(node("adapters.cjs"))).toEqual({ aiSdk: [{ role: "user", content: "hi" }], langchain: "function" });
  });

  it("summarizes with the app's own model from the installed packs: aiSdkSummarizer over @ai-sdk/openai and langchainSummarizer over ChatOpenAI, against a loopback server, through the failure ladder", async () => {
    const server = await startOpenAIFixtureServer();
    try {
      writeFiles(project, { "summaries.mjs": SUMMARIES_SCRIPT });
      server.setDefault({ kind: "reply", reply: { content: LOOPBACK_SUMMARY, usage: { prompt_tokens: 321, completion_tokens: 12 } } });
      const used = { fallbackUsed: false, calls: { calls: 1, inputTokens: 321, outputTokens: 12 }, fromTheModel: true };
      expect(JSON.parse(await nodeAsync("summaries.mjs", project, { BASE_URL: server.baseUrl }))).toEqual([
        { name: "ai-sdk:gpt-4o-mini", summarizer: "ai-sdk:gpt-4o-mini", ...used },
        { name: "langchain:gpt-4o-mini", summarizer: "langchain:gpt-4o-mini", ...used },
      ]);
      // a failing model: retried once after its short Retry-After, then the offline summary
      server.setDefault({ kind: "status", status: 503, headers: { "retry-after": "0" } });
      const before = server.requests.length;
      const fallback = { summarizer: "extractive", fallbackUsed: true, calls: null, fromTheModel: false };
      expect(JSON.parse(await nodeAsync("summaries.mjs", project, { BASE_URL: server.baseUrl }))).toEqual([
        { name: "ai-sdk:gpt-4o-mini", ...fallback },
        { name: "langchain:gpt-4o-mini", ...fallback },
      ]);
      expect(server.requests.length - before).toBe(4);
    } finally {
      await server.close();
    }
  });

  it("runs the README's summary-suffix.ts from the installed packs against a loopback Messages API: the agent's conversation and tools sent again with one instruction, and the summary reported as read from the cache", async () => {
    const server = await startAnthropicFixtureServer();
    try {
      const snippet = docSnippets().find((s) => s.file === "summary-suffix.ts")!;
      // the snippet as its project runs it, transpiled to an ES module (the type check above checks it as written)
      writeFiles(project, { "summary-suffix.mjs": ts.transpileModule(snippet.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText });
      server.setDefault({ kind: "reply", reply: { content: LOOPBACK_SUMMARY, usage: { prompt_tokens: 2_000, completion_tokens: 40, cache_read_tokens: 1_800 } } });
      const out = await nodeAsync("summary-suffix.mjs", project, { ANTHROPIC_BASE_URL: server.origin, ANTHROPIC_API_KEY: "sk-ant-loopback" });
      expect(out.trim()).toBe("25 → 7 messages { mode: 'suffix' }");
      expect(server.requests).toHaveLength(1);
      const { body } = server.requests[0]!;
      expect(body.tools.map((t: { name: string }) => t.name)).toEqual(["bash"]);
      expect(body.system[0].text).toBe("You are a coding agent porting a Python parser to Rust.");
      expect(body.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "Port module 1 of the parser to Rust." }] });
      expect(body.messages.at(-1).content[0].text).toMatch(/^The conversation above is being compacted\. Stop the task here/);
      expect(body).not.toHaveProperty("tool_choice");
    } finally {
      await server.close();
    }
  });

  it("runs the installed context-engine command", () => {
    const help = run(join(project, "node_modules/.bin/context-engine"), ["--help"], project);
    expect(help).toMatch(/^context-engine — /);
    const engines = run(join(project, "node_modules/.bin/context-engine"), ["engines", "--engine", "my_engine"], project);
    expect(engines).toMatch(/active:\s+my_engine — directory/);
  });

  it("serves the installed context-engine mcp to the MCP SDK's own client: session_search over a store the installed command imported, and lcm's read-only tools", () => {
    const cli = JSON.parse(readFileSync(join(project, "node_modules/@context-engine/cli/package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(cli.dependencies)).toContain("@modelcontextprotocol/sdk");
    const bin = join(project, "node_modules/.bin/context-engine");
    writeFiles(project, {
      "mcp/config.yaml": 'context:\n  engine: lcm\nplugins:\n  - "@context-engine/lcm"\nlcm:\n  db_path: lcm.db\n',
      // the SDK the CLI depends on, as the install brought it in
      "mcp/client.mjs": `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const client = new Client({ name: "consumer", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: ${JSON.stringify(bin)}, args: ["mcp", "--db", "sessions.db"], stderr: "ignore" }));
const tools = (await client.listTools()).tools.map((t) => t.name);
const found = JSON.parse((await client.callTool({ name: "session_search", arguments: { query: "cargo llvm-cov", limit: 1 } })).content[0].text);
await client.close();
console.log(JSON.stringify({ tools, sessions: found.sessions.length, title: found.sessions[0]?.title }));
`,
    });
    const cwd = join(project, "mcp");
    expect(run(bin, ["sessions", "import", join(repoRoot, "test/fixtures/python-to-rust-port.json"), "--db", "sessions.db"], cwd)).toContain("80 messages");
    expect(JSON.parse(node("client.mjs", cwd))).toEqual({ tools: ["session_search", "lcm_grep", "lcm_describe", "lcm_expand"], sessions: 1, title: "python-to-rust-port.json" });
  });

  it("installs @context-engine/core alone with nothing native, and says what to install when a store is opened", () => {
    const coreOnly = installProject({ "@context-engine/core": tarballs["@context-engine/core"] });
    made.push(coreOnly);
    const nativeFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && (e.name.endsWith(".node") || e.name === "binding.gyp")).map((e) => join(e.parentPath, e.name));
    expect(existsSync(join(coreOnly, "node_modules/better-sqlite3"))).toBe(false);
    expect(nativeFiles(join(coreOnly, "node_modules"))).toEqual([]);
    writeFiles(coreOnly, {
      "store.mjs": `import { openSqliteStore, SessionStoreError } from "@context-engine/core";
try { openSqliteStore("state.db"); console.log("opened"); } catch (error) { console.log(JSON.stringify({ store: error instanceof SessionStoreError, message: error.message })); }
`,
    });
    const result = JSON.parse(node("store.mjs", coreOnly)) as { store: boolean; message: string };
    expect(result.store).toBe(true);
    expect(result.message).toMatch(/needs the better-sqlite3 package .*npm install better-sqlite3@12/);
  }, INSTALL_TIMEOUT);
});

describe("the AI SDK adapter from the installed packs with ai 7", () => {
  let ai7: string;
  beforeAll(() => {
    ai7 = installProject({}, { typescript: workspacePackage("typescript"), "@types/node": workspacePackage("@types/node") }, [tarballs["@context-engine/core"], tarballs["@context-engine/ai-sdk"], ...aiSdk7Specs()]);
    made.push(ai7);
  }, INSTALL_TIMEOUT);

  it("runs on this Node (ai 7 declares 22): the test kit's loop through prepareStep and through the middleware, and aiSdkSummarizer over a LanguageModelV4 against a loopback server", async () => {
    const server = await startOpenAIFixtureServer();
    try {
      server.setDefault({ kind: "reply", reply: { content: LOOPBACK_SUMMARY, usage: { prompt_tokens: 321, completion_tokens: 12 } } });
      writeFiles(ai7, { "ai7.mjs": AI7_SCRIPT });
      const result = JSON.parse(await nodeAsync("ai7.mjs", ai7, { BASE_URL: server.baseUrl })) as Record<string, unknown>;
      const loop = { compressions: [0, 0, 1, 0], sentTheView: true, text: "The zebra note says the herd crossed the river at dawn." };
      expect(result).toEqual({
        ai: aiSdk7Specs()[0]!.slice("ai@".length),
        node: process.versions.node.split(".")[0],
        specification: "v4",
        loops: { prepareStep: loop, middleware: loop },
        summaries: { name: "ai-sdk:gpt-4o-mini", summarizer: "ai-sdk:gpt-4o-mini", fallbackUsed: false, calls: { calls: 1, inputTokens: 321, outputTokens: 12 }, fromTheModel: true },
      });
    } finally {
      await server.close();
    }
  });

  it("type-checks the adapter and the summarizer with ai 7's own types (tsc --init's strict config; ai 7's @ai-sdk/provider and provider-utils declarations need its skipLibCheck, as the README says)", () => {
    writeFiles(ai7, { "app.ts": AI7_APP });
    const tsc = join(ai7, "node_modules/typescript/bin/tsc");
    run(process.execPath, [tsc, "--init"], ai7);
    expect(readFileSync(join(ai7, "tsconfig.json"), "utf8")).toMatch(/"skipLibCheck": true/);
    expect(run(process.execPath, [tsc, "--noEmit", "-p", "."], ai7)).toBe("");
  }, 180_000);
});
