/**
 * `compression.summary_request: suffix` end to end against the loopback Messages API and chat-completions
 * servers: the summary request is the agent's own request — its messages byte for byte, its tools, its
 * cache markers — plus one instruction, the summary is applied and reported as a cache read; and where
 * the cache cannot be read, the separate request of before, with the reason in `lastCompression`.
 */
import { describe, expect, it } from "vitest";
import { useAnthropicFixtureServer, useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { CompressionConfig } from "../../src/config/schema.js";
import type { ModelInfo, ToolSchema } from "../../src/engine/types.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { applyAnthropicCacheControl } from "../../src/caching/anthropicCacheControl.js";
import { toAnthropicMessages } from "../../src/providers/anthropicAdapter.js";
import { toOpenAIChatMessages } from "../../src/providers/openaiChat.js";
import { AnthropicSummarizer } from "../../src/summarizers/anthropic.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { callsByResultKey } from "../../src/summarizers/serialize.js";
import { rangeAnchor } from "../../src/summarizers/suffixRequest.js";
import type { Summarizer } from "../../src/summarizers/types.js";
import { fastApiConversation, roughCounter } from "./fixtures.js";

const anthropic = useAnthropicFixtureServer();
const openai = useOpenAIFixtureServer();

const TOOLS: ToolSchema[] = [
  { type: "function", function: { name: "terminal", description: "Run a shell command in the project.", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } } },
  { type: "function", function: { name: "read_file", description: "Read a file of the project.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } },
  { type: "function", function: { name: "write_file", description: "Write a file of the project.", parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] } } },
];

const SUMMARY = "## Goal\n- Set up a FastAPI project with a SQLite database\n## Progress\n### Done\n- ran `pytest`: 8 passed, 2 failed";
const COMPRESSION: Partial<CompressionConfig> = { summary_request: "suffix", protect_last_n: 5, target_ratio: 0.1, threshold_tokens: 15_000 };
/** A response that read the agent's cached prefix: the compressor's tracker then knows the cache is warm. */
const WARM_USAGE = { input_tokens: 300, cache_read_input_tokens: 80_000, cache_creation_input_tokens: 1_500, output_tokens: 120 };

function claude(baseUrl: string, model = "claude-sonnet-4-6"): ModelInfo {
  return { model, provider: "anthropic", baseUrl, contextLength: 200_000 };
}

function engine(summarizer: Summarizer, model: ModelInfo, compression: Partial<CompressionConfig> = COMPRESSION, now?: () => number): ContextCompressor {
  return new ContextCompressor({ compression, summarizer, model, tokenCounter: roughCounter, ...(now ? { now } : {}) });
}

function anthropicSummarizer(model = "claude-sonnet-4-6"): AnthropicSummarizer {
  return new AnthropicSummarizer({ apiKey: "sk-ant-fixture", baseUrl: anthropic.current.origin, model, timeoutMs: 5_000 });
}

/** The range the compaction summarized: `[headMessages, messages − tailMessages)`. */
function rangeOf(compressor: ContextCompressor, messages: readonly ChatMessage[]): { start: number; end: number } {
  const report = compressor.lastCompression!;
  return { start: report.headMessages, end: messages.length - report.tailMessages };
}

/** The text of the summary request's last user turn (the instruction), as a server received it. */
function instructionOf(body: { messages: Array<{ content: unknown }> }): string {
  const last = body.messages.at(-1)!.content;
  return typeof last === "string" ? last : (last as Array<{ text?: string }>).at(-1)!.text!;
}

describe("a summary asked as the conversation's suffix, on the Messages API", () => {
  it("sends the agent's request byte for byte (system, tools, messages and cache markers) with one instruction after it, applies the summary and reports the cache read", async () => {
    anthropic.current.script({ kind: "reply", reply: { content: SUMMARY, usage: { prompt_tokens: 96_000, completion_tokens: 300, cache_read_tokens: 90_000, cache_write_tokens: 4_000 } } });
    const conversation = fastApiConversation();
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin));
    compressor.updateFromResponse(WARM_USAGE);
    const out = await compressor.compress(conversation, { tools: TOOLS });

    expect(anthropic.current.requests).toHaveLength(1);
    const sent = anthropic.current.requests[0]!;
    // what the agent's own next request would carry: its messages with the system_and_3 markers, its tools
    const agent = toAnthropicMessages(applyAnthropicCacheControl(conversation, { nativeAnthropic: true }), { model: "claude-sonnet-4-6", maxTokens: 1, tools: TOOLS });
    expect(JSON.stringify(sent.body.system)).toBe(JSON.stringify(agent.system));
    expect(JSON.stringify(sent.body.tools)).toBe(JSON.stringify(agent.tools));
    expect(JSON.stringify(sent.body.messages.slice(0, -1))).toBe(JSON.stringify(agent.messages.slice(0, -1)));
    // the instruction joins the agent's last user turn (the API merges consecutive user turns) as one more block
    const agentLast = agent.messages.at(-1)!.content as unknown[];
    const sentLast = sent.body.messages.at(-1).content as unknown[];
    expect(JSON.stringify(sentLast.slice(0, agentLast.length))).toBe(JSON.stringify(agentLast));
    expect(sentLast).toHaveLength(agentLast.length + 1);
    expect(sent.body).not.toHaveProperty("tool_choice");
    expect(sent.body.model).toBe("claude-sonnet-4-6");

    const { start, end } = rangeOf(compressor, conversation);
    const calls = callsByResultKey(conversation);
    const instruction = instructionOf(sent.body);
    expect(instruction).toContain("do not call any tool");
    expect(instruction).toContain(`from ${rangeAnchor(conversation[start]!, calls)} through ${rangeAnchor(conversation[end - 1]!, calls)}`);
    expect(instruction).toContain(`and so do the ${conversation.length - end} messages after it`);
    expect(instruction).toContain("## Critical Context");

    expect(JSON.stringify(out)).toContain("Set up a FastAPI project with a SQLite database");
    const report = compressor.lastCompression!;
    expect(report.summaryRequest).toEqual({ mode: "suffix" });
    expect(report.summaryCalls).toEqual({ calls: 1, inputTokens: 96_000, outputTokens: 300, cacheReadTokens: 90_000, cacheWriteTokens: 4_000 });
    expect(report.fallbackUsed).toBe(false);
  });

  it("sends a separate request, with the reason in lastCompression, when the summary model is not the conversation's", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer("claude-haiku-4-5"), claude(anthropic.current.origin));
    compressor.updateFromResponse(WARM_USAGE);
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    const sent = anthropic.current.requests[0]!.body;
    expect([sent.messages.length, "tools" in sent, "system" in sent]).toEqual([1, false, false]);
    expect(sent.messages[0].content).toContain("TURNS TO SUMMARIZE");
    expect(compressor.lastCompression!.summaryRequest).toEqual({ mode: "separate", reason: "the summary model claude-haiku-4-5 is not the conversation's model claude-sonnet-4-6" });
  });

  it("sends a separate request when the conversation is served at another endpoint, whose cache is apart", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer(), { model: "claude-sonnet-4-6", provider: "anthropic", contextLength: 200_000 });
    compressor.updateFromResponse(WARM_USAGE);
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    expect(anthropic.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest).toEqual({ mode: "separate", reason: `the conversation is served at https://api.anthropic.com, the summary model at ${anthropic.current.origin}: their prompt caches are apart` });
  });

  it("sends a separate request while no response has reported a prompt-cache read or write", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin));
    compressor.updateFromResponse({ input_tokens: 80_000, output_tokens: 120 });
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    expect(anthropic.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest?.reason).toMatch(/^no response reported a prompt-cache read or write yet/);
  });

  it("sends a separate request once the cache expired: the agent was idle past the TTL", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    let now = Date.UTC(2026, 0, 1);
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin), COMPRESSION, () => now);
    compressor.updateFromResponse(WARM_USAGE);
    now += 6 * 60_000;
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    expect(anthropic.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest).toEqual({ mode: "separate", reason: "the prompt cache has expired (no response for longer than the 5m TTL): a suffix would write the conversation again" });
  });

  it("sends a separate request when the conversation, the instruction and the summary would not fit the window", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin));
    compressor.updateFromResponse(WARM_USAGE);
    await compressor.compress(fastApiConversation(), { tools: TOOLS, currentTokens: 195_000 });
    expect(anthropic.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest?.reason).toBe("the conversation (195,000 tokens), the instruction and the summary do not fit the 200,000-token window");
  });

  it("asks again with a separate request when the model answers the suffix with a tool call instead of the summary", async () => {
    anthropic.current.script({ kind: "reply", reply: { toolCalls: [{ name: "terminal", arguments: { command: "pytest" } }] } }, { kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin));
    compressor.updateFromResponse(WARM_USAGE);
    const out = await compressor.compress(fastApiConversation(), { tools: TOOLS });
    const [suffix, separate] = anthropic.current.requests.map((r) => r.body);
    expect([suffix.tools?.length, separate.messages.length, "tools" in separate]).toEqual([3, 1, false]);
    expect(JSON.stringify(out)).toContain("Set up a FastAPI project with a SQLite database");
    const report = compressor.lastCompression!;
    expect(report.summaryRequest?.mode).toBe("separate");
    expect(report.summaryRequest?.reason).toMatch(/^the suffix request failed: invalid summary response: the model answered the suffix request with a tool call \(terminal\)/);
    expect(report.fallbackUsed).toBe(false);
  });

  it("keeps today's separate request, and says nothing of it, with summary_request: separate", async () => {
    anthropic.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(anthropicSummarizer(), claude(anthropic.current.origin), { ...COMPRESSION, summary_request: "separate" });
    compressor.updateFromResponse(WARM_USAGE);
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    expect(anthropic.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest).toBeUndefined();
  });
});

describe("a summary asked as the conversation's suffix, on a chat-completions endpoint", () => {
  const gpt = (): ModelInfo => ({ model: "gpt-5", provider: "openai", baseUrl: openai.current.baseUrl, contextLength: 400_000 });
  const summarizer = (promptCaching?: boolean) => new OpenAICompatibleSummarizer({ baseUrl: openai.current.baseUrl, apiKey: "sk-fixture", model: "gpt-5", timeoutMs: 5_000, ...(promptCaching === undefined ? {} : { promptCaching }) });
  const warm = { prompt_tokens: 80_000, completion_tokens: 120, prompt_tokens_details: { cached_tokens: 70_000 } };

  it("sends the agent's messages as the API takes them and its tools, then the instruction as a last user message, and reports the cached tokens", async () => {
    openai.current.script({ kind: "reply", reply: { content: SUMMARY, usage: { prompt_tokens: 95_000, completion_tokens: 280, cache_read_tokens: 88_000 } } });
    const conversation = fastApiConversation();
    const compressor = engine(summarizer(true), gpt());
    compressor.updateFromResponse(warm);
    await compressor.compress(conversation, { tools: TOOLS });

    const sent = openai.current.requests[0]!.body;
    const agent = toOpenAIChatMessages(conversation);
    expect(JSON.stringify(sent.messages.slice(0, agent.length))).toBe(JSON.stringify(agent));
    expect(sent.messages).toHaveLength(agent.length + 1);
    expect(sent.messages.at(-1)).toEqual({ role: "user", content: expect.stringContaining("Summarize a part of the conversation above") });
    expect(JSON.stringify(sent.tools)).toBe(JSON.stringify(TOOLS));
    expect(sent).not.toHaveProperty("tool_choice");
    const report = compressor.lastCompression!;
    expect(report.summaryRequest).toEqual({ mode: "suffix" });
    expect(report.summaryCalls).toEqual({ calls: 1, inputTokens: 95_000, outputTokens: 280, cacheReadTokens: 88_000, cacheWriteTokens: 0 });
  });

  it("sends a separate request to an endpoint not known to cache prompts", async () => {
    openai.current.script({ kind: "success", content: SUMMARY });
    const compressor = engine(summarizer(), gpt());
    compressor.updateFromResponse(warm);
    await compressor.compress(fastApiConversation(), { tools: TOOLS });
    expect(openai.current.requests[0]!.body.messages).toHaveLength(1);
    expect(compressor.lastCompression!.summaryRequest).toEqual({ mode: "separate", reason: `${openai.current.baseUrl} is not known to cache prompts` });
  });
});
