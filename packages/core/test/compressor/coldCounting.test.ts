/** A cold compaction tokenizes what decides something (head, tail walk, summary, output), not the middle it drops. */
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { knownMessageTokens, lazyMessageTokens } from "../../src/compressor/messageTokens.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { MemoizedTokenCounter, TiktokenCounter } from "../../src/tokens/counter.js";
import { estimateMessageTokensRough } from "../../src/tokens/rough.js";
import { system, toolTurn, user } from "./fixtures.js";

/** An exact-enough counter (3 characters a token) that records every text it is asked to count. */
class RecordingCounter extends MemoizedTokenCounter {
  readonly counted: string[] = [];
  count(text: string): number {
    this.counted.push(text);
    return Math.ceil(text.length / 3);
  }
}

/** A long agent run: each tool output carries a unique marker so a count of it can be recognised. */
function longRun(steps: number): ChatMessage[] {
  const messages: ChatMessage[] = [system("You are a coding agent."), user("Make every module pass its tests.")];
  for (let i = 0; i < steps; i++) messages.push(...toolTurn("terminal", { command: `pytest tests/test_${i}.py` }, `MARK-${i}-END ` + `test_${i} PASSED in 0.01s\n`.repeat(60)));
  messages.push(user("Now summarize which modules failed."));
  return messages;
}

describe("cold compaction token counting", () => {
  it("never tokenizes the tool outputs of the middle it summarizes away", async () => {
    const counter = new RecordingCounter();
    const engine = new ContextCompressor({ tokenCounter: counter, model: { model: "m", contextLength: 200_000 } });
    const input = longRun(400);
    const output = await engine.compress(input, { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    const kept = new Set(output.map((m) => (typeof m.content === "string" ? /MARK-(\d+)-END/.exec(m.content)?.[1] : undefined)).filter(Boolean));
    const countedMarks = new Set(counter.counted.map((t) => /^MARK-(\d+)-END/.exec(t)?.[1]).filter(Boolean));
    expect(kept.size).toBeGreaterThan(0);
    expect(countedMarks.size).toBeLessThan(kept.size + 2);
    for (const mark of countedMarks) expect(Number(mark)).toBeGreaterThanOrEqual(Math.min(...[...kept].map(Number)) - 1);
  });

  it("reports the size before compaction within a few percent of an exact count of everything", async () => {
    const input = longRun(300);
    const engine = new ContextCompressor({ tokenCounter: new TiktokenCounter(), model: { model: "m", contextLength: 200_000 } });
    await engine.compress(input, { force: true });
    const exact = new TiktokenCounter().countMessages(input);
    expect(Math.abs(engine.lastCompression!.tokensBefore - exact) / exact).toBeLessThan(0.05);
  });

  it("takes the caller's reported usage as the size before compaction when given", async () => {
    const engine = new ContextCompressor({ tokenCounter: new RecordingCounter(), model: { model: "m", contextLength: 200_000 } });
    await engine.compress(longRun(200), { force: true, currentTokens: 123_456 });
    expect(engine.lastCompression!.tokensBefore).toBe(123_456);
  });
});

describe("lazyMessageTokens", () => {
  const messages: ChatMessage[] = Array.from({ length: 10 }, (_, i) => user(`message ${i} `.repeat(40)));

  it("counts a message only when its exact count is asked for, and only once", () => {
    const asked: ChatMessage[] = [];
    const tokens = lazyMessageTokens(messages, (m) => (asked.push(m), 100));
    expect(asked).toEqual([]);
    expect(tokens.exact(9) + tokens.exact(9) + tokens.exactSum(8, 10)).toBe(400);
    expect(asked).toEqual([messages[9], messages[8]]);
  });

  it("estimates uncounted messages from characters scaled by the exact/rough ratio of the counted ones", () => {
    const rough = estimateMessageTokensRough(messages[0]!);
    const tokens = lazyMessageTokens(messages, (m) => 2 * estimateMessageTokensRough(m));
    expect(tokens.estimateSum(0, 10)).toBe(10 * rough);
    tokens.exactSum(7, 10);
    expect(tokens.estimateSum(0, 10)).toBe(3 * 2 * rough + Math.round(7 * rough * 2));
  });

  it("bounds the calibration so a few odd messages cannot scale the estimate without limit", () => {
    const tokens = lazyMessageTokens(messages, () => 1_000_000);
    tokens.exactSum(8, 10);
    const rough = estimateMessageTokensRough(messages[0]!);
    expect(tokens.estimateSum(0, 8)).toBe(Math.round(8 * rough * 4));
  });

  it("sums known counts exactly", () => {
    const tokens = knownMessageTokens([1, 2, 3, 4]);
    expect([tokens.exact(2), tokens.exactSum(1, 3), tokens.estimateSum(0, 4), tokens.length]).toEqual([3, 5, 10, 4]);
  });
});

/** The exact counter, recording the length of every text it tokenizes. */
class RecordingExactCounter extends TiktokenCounter {
  readonly lengths: number[] = [];
  override count(text: string): number {
    this.lengths.push(text.length);
    return super.count(text);
  }
}

describe("a huge message at the edge of the tail", () => {
  const blob = Array.from({ length: 250_000 }, (_, i) => "QmFzZTY0+/"[(i * 7) % 10]).join("");

  it("stops the tail walk at a 250 KB tool output without tokenizing it", async () => {
    const [call, output] = toolTurn("read_file", { path: "blob.b64" }, blob);
    const turns: ChatMessage[] = [];
    for (let i = 0; i < 20; i++) turns.push({ role: "assistant", content: `Looked at part ${i}.` }, user(`Go on with part ${i + 1}.`));
    const input = [system("You are a coding agent."), user("Decode the attachment."), call!, output!, ...turns];
    const counter = new RecordingExactCounter();
    const engine = new ContextCompressor({ tokenCounter: counter, model: { model: "m", contextLength: 64_000 } });
    const compressed = await engine.compress(input, { force: true });
    expect(engine.lastCompression!.aborted).toBe(false);
    expect(compressed.some((m) => m.content === blob)).toBe(false);
    expect(Math.max(...counter.lengths)).toBeLessThan(blob.length);
  });

  it("says a message exceeds a limit exactly when its exact count does", () => {
    const counter = new TiktokenCounter();
    const messages: ChatMessage[] = [user(blob), user("short"), user("word ".repeat(500)), { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "t", arguments: JSON.stringify({ data: blob.slice(0, 3_000) }) } }] }];
    for (const message of messages) {
      const exact = new TiktokenCounter().countMessage(message);
      for (const limit of [0, 5, exact - 1, exact, exact + 1, 20_000]) expect(counter.exceeds(message, limit), `limit ${limit}`).toBe(exact > limit);
    }
  });
});

describe("lazyMessageTokens calibrated against reported usage", () => {
  const messages: ChatMessage[] = Array.from({ length: 10 }, (_, i) => user(`message ${i} `.repeat(40)));
  const rough = estimateMessageTokensRough(messages[0]!);

  it("shares what the reported total leaves after the counted messages among the uncounted ones", () => {
    const tokens = lazyMessageTokens(messages, (m) => estimateMessageTokensRough(m), undefined, 30 * rough);
    tokens.exactSum(8, 10);
    // 2 counted at 1×; the other 8 share 28 rough-units: 3.5× each.
    expect(tokens.estimateSum(0, 8)).toBe(Math.round(8 * rough * 3.5));
    expect(tokens.estimateSum(0, 10)).toBe(30 * rough);
  });

  it("keeps the calibration within bounds when the report is far off", () => {
    const tokens = lazyMessageTokens(messages, (m) => estimateMessageTokensRough(m), undefined, 1_000 * rough);
    expect(tokens.estimateSum(0, 10)).toBe(Math.round(10 * rough * 4));
  });
});
