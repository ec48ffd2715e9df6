import { describe, expect, it } from "vitest";
import { useOpenAIFixtureServer } from "../../../../test/support/useOpenAIFixtureServer.js";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { MeteredSummarizer, PREVIOUS_CALL_SUMMARY } from "../../src/replay/summarizerMeter.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { OpenAICompatibleSummarizer } from "../../src/summarizers/openaiCompatible.js";
import { chunkedRequests, chunkTurns, digestRequest } from "../../src/summarizers/summaryCalls.js";
import { serializeTurns } from "../../src/summarizers/serialize.js";
import type { SummaryRequest } from "../../src/summarizers/types.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";

const fixture = useOpenAIFixtureServer();

/** 40 exchanges, each ask naming its own module and carrying ~4,700 characters, so the range is ~190,000 characters. */
function longRange(): ChatMessage[] {
  return Array.from({ length: 40 }, (_, i): ChatMessage[] => [
    { role: "user", content: `Port module_${i} to Rust. ${"Keep the behaviour of the Python version. ".repeat(110)}` },
    { role: "assistant", content: `Ported src/module_${i}.rs; cargo test passes.` },
  ]).flat();
}

function summarizer(options: Partial<ConstructorParameters<typeof OpenAICompatibleSummarizer>[0]> = {}): OpenAICompatibleSummarizer {
  return new OpenAICompatibleSummarizer({ baseUrl: fixture.current.baseUrl, apiKey: "sk-test-key-for-the-fixture-000", model: "summary-model", ...options });
}

const promptOf = (i: number): string => fixture.current.requests[i]!.body.messages[0].content as string;

describe("a range longer than the summary model's input", () => {
  it("is split in order into runs that each fit the cap, every message in exactly one", () => {
    const messages = longRange();
    const chunks = chunkTurns(messages, 60_000);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.flat()).toEqual(messages);
    for (const chunk of chunks) expect(serializeTurns(chunk).length).toBeLessThanOrEqual(60_000);
  });

  it("is read chunk by chunk, each call updating the summary the call before returned, so every ask reaches the model", async () => {
    fixture.current.script(
      { kind: "reply", reply: { content: "## Goal\n- first part", usage: { prompt_tokens: 30_000, completion_tokens: 400 } } },
      { kind: "reply", reply: { content: "## Goal\n- second part", usage: { prompt_tokens: 31_000, completion_tokens: 500 } } },
    );
    const calls: Array<{ inputTokens?: number }> = [];
    const summary = await summarizer({ maxInputChars: 130_000 }).summarize({ messages: longRange(), maxTokens: 2_000, onModelCall: (call) => calls.push(call) });
    expect(fixture.current.requests.length).toBe(2);
    expect(calls.map((c) => c.inputTokens)).toEqual([30_000, 31_000]);
    expect(summary).toContain("second part");
    const shown = [promptOf(0), promptOf(1)].join("\n");
    for (let i = 0; i < 40; i++) expect(shown).toContain(`Port module_${i} to Rust.`);
    expect(promptOf(0)).not.toContain("PREVIOUS SUMMARY");
    expect(promptOf(1)).toContain("PREVIOUS SUMMARY:\n## Goal\n- first part");
    // in order: the second call reads the turns after the first's
    expect(promptOf(0)).toContain("Port module_0 to Rust.");
    expect(promptOf(1)).toContain("Port module_39 to Rust.");
    expect(promptOf(1)).not.toContain("Port module_0 to Rust.");
  });

  it("with digest, is one call: the newest turns as they are, the older ones folded into an offline digest to update", async () => {
    await summarizer({ maxInputChars: 130_000, oversizedRange: "digest" }).summarize({ messages: longRange(), maxTokens: 2_000 });
    expect(fixture.current.requests.length).toBe(1);
    const prompt = promptOf(0);
    expect(prompt).toContain("PREVIOUS SUMMARY:");
    expect(prompt).toContain("Port module_39 to Rust.");
    expect(prompt).not.toContain("[USER]: Port module_0 to Rust.");
  });

  it("labels a result with its call and exit status also when the call fell in the chunk before", () => {
    const command = `python3 scripts/migrate.py --dry-run ${"--table t ".repeat(250)}`;
    const messages: ChatMessage[] = [
      { role: "assistant", content: "", tool_calls: [{ id: "m", type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }] },
      { role: "tool", tool_call_id: "m", content: "Traceback (most recent call last):\nKeyError: 'users'\nExit code 1" },
    ];
    const calls = chunkedRequests({ messages, maxTokens: 2_000 }, 2_700);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.turns).toMatch(/^\[TOOL RESULT m — bash `python3 scripts\/migrate\.py --dry-run .*` → exit 1\]/);
  });

  it("is one call as it was when the turns fit", async () => {
    await summarizer().summarize({ messages: longRange().slice(0, 4), maxTokens: 2_000 });
    expect(fixture.current.requests.length).toBe(1);
  });

  it("shows in lastCompression how many calls the summary took and the tokens they reported", async () => {
    fixture.current.setDefault({ kind: "reply", reply: { content: "## Goal\n- port the parser", usage: { prompt_tokens: 1_000, completion_tokens: 100 } } });
    const engine = new ContextCompressor({ model: { model: "test-model", contextLength: 200_000 }, summarizer: summarizer({ maxInputChars: 60_000 }) });
    const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, ...longRange(), { role: "user", content: "Now port the tests." }];
    const out = await engine.compress(messages, { force: true });
    expect(out.length).toBeLessThan(messages.length);
    const report = engine.lastCompression!;
    expect(report.summaryCalls!.calls).toBe(fixture.current.requests.length);
    expect(report.summaryCalls!.calls).toBeGreaterThan(1);
    expect(report.summaryCalls!.inputTokens).toBe(1_000 * report.summaryCalls!.calls);
    expect(report.summaryCalls!.outputTokens).toBe(100 * report.summaryCalls!.calls);
  });
});

describe("the metered summarizer", () => {
  const request: SummaryRequest = { messages: longRange(), maxTokens: 2_000 };

  it("records the prompts an LLM summarizer sends for an oversized range, one call per chunk, without calling a model", async () => {
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new RoughTokenCounter(), { keepPrompts: true, maxInputChars: 130_000 });
    await meter.summarize(request);
    expect(meter.prompts).toHaveLength(1);
    expect(meter.prompts[0]).toHaveLength(2);
    expect(meter.calls).toHaveLength(2);
    expect(meter.prompts[0]![1]).toContain(`PREVIOUS SUMMARY:\n${PREVIOUS_CALL_SUMMARY}`);
    for (let i = 0; i < 40; i++) expect(meter.prompts[0]!.join("\n")).toContain(`Port module_${i} to Rust.`);
  });

  it("records the one digest prompt the digest mode sends, as the summarizer builds it", async () => {
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new RoughTokenCounter(), { keepPrompts: true, maxInputChars: 130_000, oversizedRange: "digest" });
    await meter.summarize(request);
    expect(meter.prompts[0]).toHaveLength(1);
    const digested = await digestRequest(request, new ExtractiveSummarizer(), 130_000);
    expect(meter.prompts[0]![0]).toContain(digested.previousSummary!.trim());
  });

  it("takes the wrapped LLM summarizer's own way of reading an oversized range", () => {
    const meter = new MeteredSummarizer(summarizer({ oversizedRange: "digest" }), new RoughTokenCounter());
    expect(meter.oversizedRange).toBe("digest");
  });
});

describe("the agent's calls in the summarized range", () => {
  it("reach the summary model whole, though pruning cuts long call arguments in the context it keeps", async () => {
    const script = `cat > src/generated/schema.sql <<'EOF'\n${"CREATE TABLE t (id INTEGER);\n".repeat(120)}EOF\nsqlite3 build/app.db < src/generated/schema.sql`;
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Create the schema." },
      { role: "assistant", content: "", tool_calls: [{ id: "w", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: script }) } }] },
      { role: "tool", tool_call_id: "w", content: "Exit code 0" },
      ...Array.from({ length: 12 }, (_, i): ChatMessage[] => [{ role: "user", content: `Step ${i}: ${"go on. ".repeat(300)}` }, { role: "assistant", content: `done ${i}` }]).flat(),
    ];
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new RoughTokenCounter(), { keepPrompts: true });
    const engine = new ContextCompressor({ model: { model: "test-model", contextLength: 8_000 }, summarizer: meter });
    await engine.compress(messages, { force: true });
    expect(engine.lastCompression!.truncatedToolArguments).toBe(1);
    expect(meter.prompts[0]!.join("\n")).toContain("sqlite3 build/app.db < src/generated/schema.sql");
  });
});
