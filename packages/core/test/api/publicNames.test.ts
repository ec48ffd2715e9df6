/**
 * The documented contract, imported the way code outside the repository imports it: from the package
 * root "@context-engine/core" and its subpath entries. The runtime checks fail when a name goes missing
 * from an entry; the typed assignments fail `pnpm typecheck` (part of the test command) when a
 * documented signature drifts or an entry stops exporting a name it promised.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as core from "@context-engine/core";
import * as conformance from "@context-engine/core/conformance";
import {
  BUILTIN_ENGINE,
  ContextCompressor,
  ContextEngine,
  ExtractiveSummarizer,
  PRUNED_TOOL_PLACEHOLDER,
  SUMMARY_PREFIX,
  applyAnthropicCacheControl,
  createContextHost,
  effectiveThresholdPercent,
  estimateMessagesTokensRough,
  estimateTokensRough,
  gatewayHygiene,
  loadConfig,
  openSqliteStore,
  parseMessages,
  promptCachingStatus,
  resolveModelThreshold,
  sanitizeToolPairs,
  validateConversation,
  type ChatMessage,
  type CompressOptions,
  type ContextHost,
  type ConversationProblem,
  type EngineStatus,
  type HostConfig,
  type HostHooks,
  type HygieneDecision,
  type HygieneState,
  type ModelInfo,
  type PluginContext,
  type SessionInfo,
  type SessionStore,
  type Summarizer,
  type SummaryRequest,
  type TokenCounter,
  type ToolSchema,
  type UsageReport,
} from "@context-engine/core";
import { runConformance, type ConformanceReport } from "@context-engine/core/conformance";
import { LlmSummarizer, ModelCallError, type SummaryModelClient } from "@context-engine/core/summarizers";
import {
  checkCompactedList,
  checkSeqRange,
  DEFAULT_SEARCH_LIMIT,
  EXACT_STORED_COUNT_MAX_TOKENS,
  engineStateJson,
  MAX_SEARCH_LIMIT,
  nothingToCompactError,
  parseEngineState,
  parseListSessionsOptions,
  parseNewSession,
  parseSearchRequest,
  reportJson,
  rowsAppendedAfter,
  searchableMessageText,
  sessionExistsError,
  storedTokenCounting,
  undoRefusal,
  unknownSessionError,
  type StoredCount,
  type StoredTokenCounting,
} from "@context-engine/core/store";
import { AnthropicAdapterError, isClaudeModel, toAnthropicMessages, toOpenAIChatMessages, type AnthropicRequestOptions } from "@context-engine/core/providers";

/** Every documented runtime name of the core package root. */
const CORE_VALUES = [
  "parseMessages", "InvalidMessagesError", "ContextEngine", "createContextHost", "loadConfig", "BUILTIN_ENGINE",
  "ContextCompressor", "resolveModelThreshold", "effectiveThresholdPercent", "estimateTokensRough",
  "estimateMessagesTokensRough", "PRUNED_TOOL_PLACEHOLDER", "SUMMARY_PREFIX", "sanitizeToolPairs",
  "validateConversation", "gatewayHygiene", "applyAnthropicCacheControl", "promptCachingStatus",
  "OpenAICompatibleSummarizer", "ExtractiveSummarizer", "openSqliteStore",
] as const;

/** An engine written against the documented declarations exactly, `updateFromResponse(): void` included. */
class DocumentedEngine extends ContextEngine {
  readonly name = "documented";
  seen: UsageReport[] = [];
  shouldCompress(promptTokens: number = this.lastPromptTokens): boolean {
    return promptTokens >= this.thresholdTokens;
  }
  async compress(messages: ChatMessage[], _options?: CompressOptions): Promise<ChatMessage[]> {
    return messages;
  }
  override updateFromResponse(usage: UsageReport): void {
    super.updateFromResponse(usage);
    this.seen.push(usage);
  }
  override updateModel(model: ModelInfo): void {
    super.updateModel(model);
  }
  override getToolSchemas(): ToolSchema[] {
    return [];
  }
  override async handleToolCall(name: string, args: unknown): Promise<string> {
    return super.handleToolCall(name, args);
  }
  override getStatus(): EngineStatus {
    return super.getStatus();
  }
  override onSessionStart(_sessionId: string, _info?: SessionInfo): void | Promise<void> {}
  override onSessionEnd(_sessionId: string, _messages: ChatMessage[]): void | Promise<void> {}
  override onSessionReset(): void {
    super.onSessionReset();
  }
}

// Documented signatures, checked by the type checker.
const typed = {
  parseMessages: parseMessages satisfies (input: unknown) => ChatMessage[],
  createContextHost: createContextHost satisfies (options: { config?: HostConfig | string; rootDir?: string; summarizer?: Summarizer; tokenCounter?: TokenCounter; store?: SessionStore }) => Promise<ContextHost>,
  loadConfig: loadConfig satisfies (pathOrYaml: string) => Promise<HostConfig>,
  resolveModelThreshold: resolveModelThreshold satisfies (model: string, modelThresholds: Record<string, number>, fallback: number) => number,
  effectiveThresholdPercent: effectiveThresholdPercent satisfies (contextLength: number, percent: number, fromOverride: boolean) => number,
  estimateTokensRough: estimateTokensRough satisfies (text: string) => number,
  estimateMessagesTokensRough: estimateMessagesTokensRough satisfies (messages: ChatMessage[]) => number,
  sanitizeToolPairs: sanitizeToolPairs satisfies (messages: ChatMessage[]) => ChatMessage[],
  validateConversation: validateConversation satisfies (messages: ChatMessage[]) => ConversationProblem[],
  gatewayHygiene: gatewayHygiene satisfies (history: ChatMessage[], state: HygieneState) => HygieneDecision,
  applyAnthropicCacheControl: applyAnthropicCacheControl satisfies (messages: ChatMessage[], options?: { ttl?: "5m" | "1h"; nativeAnthropic?: boolean }) => ChatMessage[],
  promptCachingStatus: promptCachingStatus satisfies (model: string, provider: string, ttl?: "5m" | "1h") => { enabled: boolean; banner: string },
  openSqliteStore: openSqliteStore satisfies (path: string) => SessionStore,
  runConformance: runConformance satisfies (factory: () => ContextEngine | Promise<ContextEngine>) => Promise<ConformanceReport>,
};
type HostFields = Pick<ContextHost, "engine" | "engineSource" | "hooks" | "config" | "warnings">;
const hostShape: (host: ContextHost) => HostFields = (host) => host;
const engineSources: ContextHost["engineSource"][] = ["directory", "plugin", "builtin"];
const pluginRegisters: (ctx: PluginContext) => void = (ctx) => ctx.registerContextEngine(() => new DocumentedEngine());
const hooksOf: (host: ContextHost) => HostHooks = (host) => host.hooks;
const summarizerShape: Summarizer["summarize"] extends (request: SummaryRequest, signal?: AbortSignal) => Promise<string> ? true : false = true;

describe("the documented public API", () => {
  it("exports every documented runtime name from @context-engine/core", () => {
    const missing = CORE_VALUES.filter((name) => (core as Record<string, unknown>)[name] === undefined);
    expect(missing).toEqual([]);
    expect(Object.values(typed).every((f) => typeof f === "function")).toBe(true);
    expect([typeof hostShape, typeof pluginRegisters, typeof hooksOf, summarizerShape, engineSources.length]).toEqual(["function", "function", "function", true, 3]);
  });

  it("exports runConformance from @context-engine/core/conformance", async () => {
    expect(typeof conformance.runConformance).toBe("function");
    const report = await runConformance(() => new DocumentedEngine());
    expect(report.engine).toBe("documented");
    expect(report.failed).toBe(0);
  });

  it("keeps the documented constants exactly", () => {
    expect(BUILTIN_ENGINE).toBe("compressor");
    expect(PRUNED_TOOL_PLACEHOLDER).toBe("[Old tool output cleared to save context space]");
    expect(SUMMARY_PREFIX.startsWith("[CONTEXT COMPACTION]")).toBe(true);
    expect(new ContextCompressor().name).toBe("compressor");
    expect(typeof new ExtractiveSummarizer().summarize).toBe("function");
  });

  it("lets an engine declare updateFromResponse as void, as documented, and still record usage", () => {
    const engine = new DocumentedEngine({ model: { model: "m", contextLength: 100_000 } });
    engine.updateFromResponse({ prompt_tokens: 40_000, completion_tokens: 10 });
    expect([engine.lastPromptTokens, engine.getStatus().usagePercent, engine.seen.length]).toEqual([40_000, 40, 1]);
  });
});

/** The package's own manifest: its `exports` name the entries. */
const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; exports: Record<string, unknown> };
const specifiers = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== "./package.json")
  .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));

/** What `@context-engine/core/store` exported as the store implementers' kit before it became the store entry. */
const storeKit = {
  functions: [checkCompactedList, checkSeqRange, engineStateJson, nothingToCompactError, parseEngineState, parseListSessionsOptions, parseNewSession, parseSearchRequest, reportJson, rowsAppendedAfter, searchableMessageText, sessionExistsError, storedTokenCounting, undoRefusal, unknownSessionError],
  constants: [DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, EXACT_STORED_COUNT_MAX_TOKENS],
};
const storedCount: (counting: StoredTokenCounting) => StoredCount = (counting) => counting.count({ role: "user", content: "hi" });

describe("the subpath entries", () => {
  it("names the root, the area entries and /internal in package.json exports (zod's z is the root's)", () => {
    expect(specifiers).toEqual([
      "@context-engine/core",
      "@context-engine/core/compressor",
      "@context-engine/core/summarizers",
      "@context-engine/core/store",
      "@context-engine/core/session",
      "@context-engine/core/codex",
      "@context-engine/core/providers",
      "@context-engine/core/lab",
      "@context-engine/core/formats",
      "@context-engine/core/conformance",
      "@context-engine/core/internal",
    ]);
  });

  it("gives every runtime name one home: no two entries export the same name", async () => {
    const homes = new Map<string, string[]>();
    for (const specifier of specifiers) {
      const names = Object.keys((await import(specifier)) as Record<string, unknown>);
      expect(names.length, specifier).toBeGreaterThan(0);
      for (const name of names) homes.set(name, [...(homes.get(name) ?? []), specifier]);
    }
    expect([...homes].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  it("keeps exporting the store kit from @context-engine/core/store", () => {
    expect(storeKit.functions.every((f) => typeof f === "function")).toBe(true);
    expect(storeKit.constants).toEqual([20, 500, 50_000]);
    expect(storedCount(storedTokenCounting(undefined)).tokens).toBeGreaterThan(0);
  });

  it("converts messages to a provider's wire format from @context-engine/core/providers", () => {
    const options: AnthropicRequestOptions = { model: "claude-sonnet-4-5", maxTokens: 64 };
    const messages: ChatMessage[] = [{ role: "system", content: "be brief" }, { role: "user", content: "hi", timestamp: 1 }];
    expect(toAnthropicMessages(messages, options)).toMatchObject({ system: [{ type: "text", text: "be brief" }], messages: [{ role: "user" }] });
    expect(toOpenAIChatMessages(messages)).toEqual([{ role: "system", content: "be brief" }, { role: "user", content: "hi" }]);
    expect(new AnthropicAdapterError("x")).toBeInstanceOf(Error);
    expect([isClaudeModel("anthropic/claude-sonnet-4.5"), isClaudeModel("gpt-5.5")]).toEqual([true, false]);
  });

  it("builds a summarizer over a model client of one's own from @context-engine/core/summarizers", async () => {
    const client: SummaryModelClient = { model: "my-model", provider: "mine", complete: async ({ prompt }) => ({ text: `## Goal\n- read ${prompt.length} characters`, usage: { inputTokens: 5, outputTokens: 2 } }) };
    const summarizer = new LlmSummarizer({ client });
    expect(summarizer.name).toBe("mine:my-model");
    expect(await summarizer.summarize({ messages: [{ role: "user", content: "hi" }], maxTokens: 100 })).toMatch(/^## Goal\n- read \d+ characters/);
    expect(new ModelCallError("refused", { kind: "auth", status: 401 })).toMatchObject({ kind: "auth", status: 401, message: "refused" });
  });

  it("leaves the built-in compressor's parts, the Codex routes, the provider wire formats, the lab and the internals out of the root", () => {
    const moved = ["planBoundaries", "CODEX_PROVIDER", "createRouteHooks", "toAnthropicMessages", "toOpenAIChatMessages", "isClaudeModel", "computeThresholds", "createSummarizer", "replayConversation", "importTranscript", "CompactionSession", "SqliteSessionStore", "canonicalJson"];
    expect(moved.filter((name) => name in core)).toEqual([]);
  });
});
