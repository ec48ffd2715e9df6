/**
 * The compressor's plans and outputs stay what they were before the speed work of issue #19: every
 * bundled transcript (test/fixtures, imported as `context-engine import` does) and a synthetic tool
 * transcript, compressed at several context lengths with the exact counter, give the output and report
 * recorded in samePlans.golden.json (a hash of each). Set UPDATE_SAME_PLANS=1 to record them again
 * after a change that is meant to change plans.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { importTranscriptFile } from "../../src/importers/index.js";
import type { ChatMessage } from "../../src/messages/schema.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = join(here, "../../../../test/fixtures");
const goldenFile = join(here, "samePlans.golden.json");
const CONTEXT_LENGTHS = [8_000, 32_000, 200_000];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A tool transcript with errors, exits, duplicates and long arguments (what pruning describes). */
function toolTranscript(): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "Make the tests pass." }];
  for (let i = 0; i < 120; i++) {
    const id = `call_${i}`;
    const command = i % 9 === 0 ? `cat src/module_${i}.py` : `pytest tests/test_${i}.py -q`;
    messages.push({ role: "assistant", content: i % 5 === 0 ? `Step ${i}: running “${command}” → next` : null, tool_calls: [{ id, type: "function", function: { name: "terminal", arguments: JSON.stringify({ command, note: "x".repeat(i % 11 === 0 ? 2_500 : 10) }) } }] });
    const lines = Array.from({ length: 20 + (i % 13) }, (_, k) => (k === 3 && i % 4 === 0 ? `FAILED tests/test_${i}.py::test_${k} - AssertionError: 漢字 ${k}` : `tests/test_${i}.py::test_${k} PASSED [${k}%] src/a.py:${k}:${i}`));
    messages.push({ role: "tool", tool_call_id: id, content: i % 17 === 3 ? "same output\n".repeat(40) : `${lines.join("\n")}\nexit code: ${i % 4 === 0 ? 1 : 0}` });
  }
  messages.push({ role: "user", content: "Which failed?" });
  return messages;
}

async function transcripts(): Promise<[string, ChatMessage[]][]> {
  const found: [string, ChatMessage[]][] = [["synthetic tool transcript", toolTranscript()]];
  for (const file of filesUnder(fixturesDir).sort()) {
    try {
      const { messages } = await importTranscriptFile(file);
      if (messages.length >= 4) found.push([relative(fixturesDir, file), messages]);
    } catch {
      // not a transcript
    }
  }
  return found;
}

const hash = (value: unknown): string => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

/** The output and report of a forced compress(), and what pruning alone gives, for one context length. */
async function outcome(messages: ChatMessage[], contextLength: number): Promise<string> {
  const engine = new ContextCompressor({ tokenCounter: new TiktokenCounter(), model: { model: "golden", contextLength } });
  const pruned = engine.pruneToolResultsOnly(messages);
  const output = await engine.compress(messages, { force: true });
  const { durationMs: _d, startedAt: _s, ...report } = engine.lastCompression!;
  return hash({ output, report, pruned });
}

describe("plans and outputs of the bundled transcripts", () => {
  it("are the ones recorded before the speed work, at every context length", async () => {
    const actual: Record<string, string> = {};
    for (const [name, messages] of await transcripts()) {
      for (const contextLength of CONTEXT_LENGTHS) actual[`${name} @${contextLength}`] = await outcome(messages, contextLength);
    }
    if (process.env.UPDATE_SAME_PLANS === "1" || !existsSync(goldenFile)) writeFileSync(goldenFile, `${JSON.stringify(actual, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(goldenFile, "utf8")) as Record<string, string>;
    expect(Object.keys(actual).length).toBeGreaterThan(20);
    expect(actual).toEqual(golden);
  }, 120_000);
});
