import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { ContextEngine } from "../../src/engine/ContextEngine.js";
import type { CompressOptions } from "../../src/engine/types.js";
import { evaluateFidelity, evaluateForcedCompaction, firstChunkRetention } from "../../src/eval/evaluateFidelity.js";
import { parseMessages, type ChatMessage } from "../../src/messages/schema.js";
import { FIXTURES_DIR } from "../importers/helpers.js";
import { MeteredSummarizer } from "../../src/replay/summarizerMeter.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import { RoughTokenCounter } from "../../src/tokens/counter.js";

const MODEL = "claude-sonnet-4";

/** Compacts once, at 11 messages: everything between the first user message and the last four becomes `summary`. */
class OneSummaryEngine extends ContextEngine {
  readonly name = "one_summary";
  constructor(private readonly summary: string) {
    super({ model: { model: MODEL, contextLength: 1_000 } });
  }
  shouldCompress(): boolean {
    return this.compressionCount === 0;
  }
  async compress(messages: ChatMessage[], _options?: CompressOptions): Promise<ChatMessage[]> {
    if (messages.length < 11) return messages;
    this.compressionCount++;
    return [messages[0]!, messages[1]!, { role: "assistant", content: this.summary }, ...messages.slice(-4)];
  }
  override updateFromResponse(): void {}
}

function call(id: string, command: string) {
  return { id, type: "function" as const, function: { name: "Bash", arguments: JSON.stringify({ command }) } };
}

const TRANSCRIPT: ChatMessage[] = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Make the importer handle SpecStory files." },
  { role: "assistant", content: "Reading src/importers/specstory.ts.", tool_calls: [call("a", "npm test")] },
  { role: "tool", tool_call_id: "a", content: "FAILED tests/import.test.ts::specstory - parseHeader is not defined" },
  { role: "user", content: "Also keep the timestamps of every message." },
  { role: "assistant", content: "", tool_calls: [call("b", "npm run build")] },
  { role: "tool", tool_call_id: "b", content: "done" },
  { role: "assistant", content: "parseHeader now lives in src/importers/header.ts." },
  { role: "user", content: "Now fix parseHeader for empty files please." },
  { role: "assistant", content: "Looking at parseHeader again." },
  { role: "user", content: "thanks" },
  { role: "assistant", content: "Done." },
];

describe("evaluateFidelity", () => {
  it("checks the facts of the removed messages against the text the engine wrote", async () => {
    const summary = "[summary] ran `npm test` → FAILED tests/import.test.ts::specstory - parseHeader is not defined; read src/importers/specstory.ts";
    const report = await evaluateFidelity(TRANSCRIPT, { engine: new OneSummaryEngine(summary), model: MODEL, provider: "anthropic" });
    expect(report.compactions).toHaveLength(1);
    const [compaction] = report.compactions;
    expect(compaction!.removedMessages).toBe(5);
    expect(compaction!.survival.command).toEqual({ total: 2, kept: 1 });
    expect(compaction!.survival.error).toEqual({ total: 1, kept: 1 });
    expect(compaction!.survival.path).toEqual({ total: 1, kept: 1 });
    expect(compaction!.survival.ask).toEqual({ total: 1, kept: 0 });
    expect(compaction!.lost.map((f) => f.text)).toEqual(expect.arrayContaining(["npm run build", "Also keep the timestamps of every message."]));
    // The kept tail names parseHeader, which the removed messages defined: the summary keeps it.
    expect(compaction!.references).toEqual({ total: 1, kept: 1 });
    expect(compaction!.summaryTokens).toBeGreaterThan(10);
    expect(report.firstChunk.retained).toHaveLength(1);
    expect(report.replay.totals.compactions).toBe(1);
  });

  it("counts a path the summary states that the compacted messages never had as invented, and none for a faithful summary", async () => {
    const faithful = "[summary] read src/importers/specstory.ts; parseHeader moved to src/importers/header.ts";
    const honest = await evaluateFidelity(TRANSCRIPT, { engine: new OneSummaryEngine(faithful), model: MODEL, provider: "anthropic" });
    expect(honest.compactions[0]!.invented.stated).toBeGreaterThanOrEqual(2);
    expect(honest.invented.invented).toBe(0);
    const inventing = await evaluateFidelity(TRANSCRIPT, { engine: new OneSummaryEngine(`${faithful}; also edited src/importers/ghost_loader.ts`), model: MODEL, provider: "anthropic" });
    expect(inventing.compactions[0]!.invented.examples).toContain("src/importers/ghost_loader.ts");
    expect(inventing.invented.invented).toBeGreaterThanOrEqual(1);
  });

  it("follows the first chunk's facts through the compressor's later compactions on a real transcript", async () => {
    const messages = parseMessages(JSON.parse(readFileSync(join(FIXTURES_DIR, "python-to-rust-port.json"), "utf8")));
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: 8_000 } });
    const report = await evaluateFidelity(messages, { engine, model: MODEL, provider: "anthropic" });
    expect(report.compactions.length).toBeGreaterThanOrEqual(2);
    expect(report.firstChunk.retained).toHaveLength(report.compactions.length);
    expect(firstChunkRetention(report)?.after).toBe(Math.min(5, report.compactions.length));
    // Kept tail messages merged into the summary message are not counted as removed, nor as summary tokens.
    for (const c of report.compactions) expect(c.summaryTokens).toBeLessThan(engine.maxSummaryTokens + 300);
  });

  it("counts a summary appended to a kept message with tool calls as summary tokens, and that message's own text as kept, not written", async () => {
    class AppendsToCall extends OneSummaryEngine {
      override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        if (messages.length < 11) return messages;
        this.compressionCount++;
        const host = messages[5]!; // the assistant turn that runs `npm run build`, kept with its result
        return [messages[0]!, messages[1]!, { ...host, content: `${String(host.content)}\n\n[summary] read src/importers/specstory.ts` }, ...messages.slice(6)];
      }
    }
    const transcript = TRANSCRIPT.map((m, i) => (i === 5 ? { ...m, content: "Building now, then src/importers/header.ts." } : m));
    const report = await evaluateFidelity(transcript, { engine: new AppendsToCall(""), model: MODEL, provider: "anthropic" });
    const [compaction] = report.compactions;
    expect(compaction!.summaryTokens).toBeGreaterThan(5);
    expect(compaction!.summaryTokens).toBeLessThan(20);
    // the removed turns name two paths: the one the summary states survives; the kept turn's own path is not summary text
    expect(compaction!.survival.path).toEqual({ total: 1, kept: 1 });
    expect(report.firstChunk.firstAsk).toEqual({ text: "Also keep the timestamps of every message.", fromCompaction: 1, retained: [false] });
    // every ask of the first chunk is followed, with the share of its other facts (one of its three other facts survives)
    expect(report.firstChunk.asks).toEqual({ total: 1, retained: [0], othersRetained: [1 / 3] });
    // the same when the kept message had no text of its own: only the summary counts, not its tool calls' arguments
    const bigCall = { id: "b", type: "function" as const, function: { name: "Write", arguments: JSON.stringify({ file_path: "notes.md", content: "word ".repeat(2_000) }) } };
    const silent = TRANSCRIPT.map((m, i) => (i === 5 ? { role: "assistant" as const, content: null, tool_calls: [bigCall] } : m));
    const quiet = await evaluateFidelity(silent, { engine: new AppendsToCall(""), model: MODEL, provider: "anthropic" });
    expect(quiet.compactions[0]!.summaryTokens).toBeGreaterThan(5);
    expect(quiet.compactions[0]!.summaryTokens).toBeLessThan(20);
  });

  it("reports no compaction and nothing to keep when the engine never compacts", async () => {
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: 200_000 } });
    const report = await evaluateFidelity(TRANSCRIPT, { engine, model: MODEL, provider: "anthropic" });
    expect(report.compactions).toEqual([]);
    expect(report.survival.path).toEqual({ total: 0, kept: 0 });
    expect(firstChunkRetention(report)).toBeUndefined();
  });

  it("counts the requests that sent more than the window less the output reserve as failures of an engine that never compacts", async () => {
    class NeverCompacts extends OneSummaryEngine {
      override shouldCompress(): boolean {
        return false;
      }
      override async compress(messages: ChatMessage[]): Promise<ChatMessage[]> {
        return messages;
      }
    }
    const engine = new NeverCompacts("");
    engine.updateModel({ model: MODEL, provider: "anthropic", contextLength: 150, maxTokens: 50 });
    const report = await evaluateFidelity(TRANSCRIPT, { engine, model: MODEL, provider: "anthropic" });
    expect(report.compactions).toEqual([]);
    expect(report.overWindow).toMatchObject({ limitTokens: 100, contextLength: 150 });
    expect(report.overWindow.requests).toBe(report.replay.requests.length);
    expect(report.overWindow.failed).toBe(report.replay.requests.filter((r) => r.promptTokens > 100).length);
    // the request of 128 tokens fits the window but not the window less the reserve
    expect(report.replay.requests.some((r) => r.promptTokens > 100 && r.promptTokens <= 150)).toBe(true);
    expect(report.overWindow.failed).toBeGreaterThan(0);
    expect(report.overWindow.firstRequest).toBe(report.replay.requests.find((r) => r.promptTokens > 100)!.index);
  });

  it("measures one forced compaction of a whole transcript like a compaction of the replay", async () => {
    const summary = "[summary] ran `npm test` → FAILED tests/import.test.ts::specstory - parseHeader is not defined; read src/importers/specstory.ts";
    const compaction = await evaluateForcedCompaction(TRANSCRIPT, new OneSummaryEngine(summary));
    expect(compaction!.removedMessages).toBe(6);
    expect(compaction!.survival.error).toEqual({ total: 1, kept: 1 });
    expect(compaction!.survival.command).toEqual({ total: 2, kept: 1 });
    expect(await evaluateForcedCompaction(TRANSCRIPT.slice(0, 5), new OneSummaryEngine(summary))).toBeUndefined();
  });
});

describe("what the summary model was shown (prompt recall)", () => {
  /** 24 asks of ~2,400 characters each, every one naming its own module: ~60,000 characters of turns. */
  const asks: ChatMessage[] = [
    { role: "system", content: "You are a coding agent." },
    ...Array.from({ length: 24 }, (_, i): ChatMessage[] => [
      { role: "user", content: `Rewrite the ${["lexer", "parser", "printer", "checker"][i % 4]} module number ${i} (src/module_${i}.py) in Rust. ${"Keep its public behaviour identical. ".repeat(64)}` },
      { role: "assistant", content: `Rewrote src/module_${i}.rs.` },
    ]).flat(),
  ];

  it("scores the removed facts against the prompts an LLM summarizer sends, chunk by chunk, so an ask in the middle of a long range is shown", async () => {
    const meter = new MeteredSummarizer(new ExtractiveSummarizer(), new RoughTokenCounter(), { keepPrompts: true, maxInputChars: 20_000 });
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: 200_000 }, summarizer: meter });
    const compaction = await evaluateForcedCompaction(asks, engine, undefined, meter);
    expect(meter.prompts[0]!.length).toBeGreaterThan(2);
    const recall = compaction!.promptRecall!;
    expect(recall.ask.total).toBeGreaterThan(10);
    expect(recall.ask.kept).toBe(recall.ask.total);
    expect(recall.path.kept).toBe(recall.path.total);
    expect(compaction!.promptLost).toEqual([]);
  });

  it("lists what the summary model was not shown", async () => {
    // a summarizer whose prompts hold nothing of the turns
    const blind = { prompts: [["Summarize nothing."]] };
    const engine = new ContextCompressor({ model: { model: MODEL, contextLength: 200_000 } });
    const compaction = await evaluateForcedCompaction(asks, engine, undefined, blind);
    expect(compaction!.promptRecall!.ask.kept).toBe(0);
    expect(compaction!.promptLost!.some((f) => f.kind === "ask")).toBe(true);
  });

  it("reports no prompt recall when no prompts were recorded", async () => {
    const compaction = await evaluateForcedCompaction(asks, new ContextCompressor({ model: { model: MODEL, contextLength: 200_000 } }));
    expect(compaction!.promptRecall).toBeUndefined();
  });
});
