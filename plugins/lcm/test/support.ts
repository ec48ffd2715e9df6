/** Shared parts of the lcm tests: temp SQLite files, deterministic conversations, real summarizers. */
import { mkdtempSync, rmSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatMessage, Summarizer, SummaryRequest } from "../src/core.js";
import { ExtractiveSummarizer } from "../src/core.js";
import { LcmEngine, type LcmEngineOptions } from "../src/engine.js";

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "lcm-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Small windows so that a few dozen turns need several compaction levels. */
export const SMALL_CONFIG = {
  threshold: 0.75,
  target_ratio: 0.5,
  fresh_tail: 8,
  leaf_chunk_tokens: 600,
  leaf_target_tokens: 160,
  condensed_target_tokens: 200,
  condense_fanin: 3,
  max_passes: 64,
  summary_timeout_ms: 2_000,
};

/** An engine over a real SQLite file in `dir`, sized to `contextLength` tokens. */
export function makeEngine(dir: string, options: Partial<LcmEngineOptions> & { contextLength?: number; config?: Record<string, unknown> } = {}): LcmEngine {
  const { contextLength = 4_000, config = {}, ...rest } = options;
  let clock = 1_700_000_000_000;
  return new LcmEngine({
    dbPath: join(dir, "lcm.db"),
    config: { ...SMALL_CONFIG, ...config },
    model: { model: "test-model", contextLength },
    now: () => (clock += 1_000),
    ...rest,
  });
}

const TOPICS = ["parser", "lexer", "scheduler", "cache", "network", "storage", "renderer", "compiler", "planner", "indexer"];

/**
 * A deterministic agent conversation of `turns` turns: a user request, an assistant tool call, its
 * result, and an assistant answer; each turn mentions a unique word `zeta<turn>`.
 */
export function conversation(turns: number, options: { system?: boolean; from?: number } = {}): ChatMessage[] {
  const out: ChatMessage[] = options.system === false ? [] : [{ role: "system", content: "You are a careful coding agent." }];
  for (let t = options.from ?? 0; t < (options.from ?? 0) + turns; t++) {
    const topic = TOPICS[t % TOPICS.length]!;
    const id = `call_${t}`;
    out.push({ role: "user", content: `Turn ${t}: please improve the ${topic} module and keep the zeta${t} invariant in src/${topic}.ts.` });
    out.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `src/${topic}.ts` }) } }] });
    out.push({ role: "tool", tool_call_id: id, content: `// src/${topic}.ts (turn ${t})\n` + `export function ${topic}${t}(input: string) { return input.trim(); }\n`.repeat(12) });
    out.push({ role: "assistant", content: `Updated src/${topic}.ts for turn ${t}; the zeta${t} invariant holds and the tests pass.` });
  }
  return out;
}

/** `steps` tool-call rounds without a user message: an assistant call `c<n>` and its result. */
export function toolSteps(steps: number, from = 0): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let n = from; n < from + steps; n++) {
    out.push({ role: "assistant", content: null, tool_calls: [{ id: `c${n}`, type: "function", function: { name: "run", arguments: JSON.stringify({ step: n }) } }] });
    out.push({ role: "tool", tool_call_id: `c${n}`, content: `output of step ${n}: ${"lorem ipsum dolor sit amet ".repeat(20)}` });
  }
  return out;
}

/** The extractive summarizer, counting its calls. */
export class CountingSummarizer implements Summarizer {
  readonly name = "extractive";
  calls = 0;
  private readonly inner = new ExtractiveSummarizer();
  async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
    this.calls++;
    return this.inner.summarize(request, signal);
  }
}

/** Always throws. */
export class ThrowingSummarizer implements Summarizer {
  readonly name = "throwing";
  calls = 0;
  async summarize(): Promise<string> {
    this.calls++;
    throw new Error("summarizer exploded");
  }
}

/** Returns more than it was given. */
export class InflatingSummarizer implements Summarizer {
  readonly name = "inflating";
  async summarize(request: SummaryRequest): Promise<string> {
    const text = request.messages.map((m) => JSON.stringify(m)).join("\n");
    return `${text}\n${text}`;
  }
}

/** Never answers and ignores its signal. */
export class HangingSummarizer implements Summarizer {
  readonly name = "hanging";
  calls = 0;
  summarize(): Promise<string> {
    this.calls++;
    return new Promise<string>(() => {});
  }
}

/** Parses a tool result string. */
export function parseResult(text: string): any {
  return JSON.parse(text);
}

/**
 * Registers beforeEach/afterEach that give each test a fresh engine in a temp folder which has already
 * compacted `input`; returns a getter for it.
 */
export function useCompactedEngine(input: ChatMessage[]): () => LcmEngine {
  let engine: LcmEngine | undefined;
  let cleanup = () => {};
  beforeEach(async () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    engine = makeEngine(temp.dir);
    await engine.compress(input);
  });
  afterEach(() => {
    engine?.close();
    cleanup();
  });
  return () => engine!;
}

