/**
 * The offline summarizer measured with the eval's own detectors (eval/detectors/, which share no code with
 * any summarizer): what it keeps of paths, real errors, commands and the user's asks, on bundled real
 * transcripts and on turns shaped like the failures seen in the corpus. The first test holds the figures
 * measured on the bundled transcripts (paths 39/45, errors 3/3, commands 25/28, asks 8/8 with the
 * 2,000-token summary floor), so a change can only raise them; the held-out figures are printed by
 * `pnpm bench fidelity`, not asserted here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextCompressor } from "../../src/compressor/ContextCompressor.js";
import { findLatestSummary } from "../../src/compressor/earlierSummaries.js";
import { evaluateFidelity, type FidelityReport } from "../../src/eval/evaluateFidelity.js";
import { extractFacts } from "../../src/eval/facts.js";
import { addSurvival, emptySurvival, survivalByKind } from "../../src/eval/survival.js";
import { importTranscriptFile } from "../../src/importers/index.js";
import { parseMessages, type ChatMessage } from "../../src/messages/schema.js";
import { ExtractiveSummarizer } from "../../src/summarizers/extractive.js";
import type { SummaryRequest, Summarizer } from "../../src/summarizers/types.js";
import { TiktokenCounter } from "../../src/tokens/counter.js";
import { FIXTURES_DIR } from "../importers/helpers.js";

const MODEL = "claude-sonnet-4";

/** Bundled real transcripts and a window small enough for them to compact (see test/fixtures/NOTICE.md). */
const FIXTURES: Array<{ file: string; window: number }> = [
  { file: "python-to-rust-port.json", window: 8_000 },
  { file: "marshmallow-1867.json", window: 8_000 },
  { file: "raw/specstory/specstory-cli/.specstory/history/2026-01-28_13-10-29Z-take-a-look-at.md", window: 8_000 },
  { file: "raw/swe-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj", window: 12_000 },
  { file: "raw/swe-agent/trajectories/demonstrations/ctf/web/i_got_id_demo.traj", window: 10_000 },
];

async function load(file: string): Promise<ChatMessage[]> {
  const path = join(FIXTURES_DIR, file);
  return file.endsWith(".json") && !file.startsWith("raw/") ? parseMessages(JSON.parse(readFileSync(path, "utf8"))) : (await importTranscriptFile(path)).messages;
}

/** Delegates to the extractive summarizer and records each request with the summary's exact token count. */
class MeasuredSummarizer implements Summarizer {
  readonly name = "extractive";
  readonly calls: Array<{ request: SummaryRequest; tokens: number }> = [];
  private readonly inner = new ExtractiveSummarizer();
  private readonly counter = new TiktokenCounter();
  async summarize(request: SummaryRequest): Promise<string> {
    const summary = await this.inner.summarize(request);
    this.calls.push({ request, tokens: this.counter.count(summary) });
    return summary;
  }
}

describe("the extractive summarizer's fidelity", () => {
  it("keeps at least the paths, errors, commands and asks it kept with the 2,000-token floor (#18, #20), within its token budget, on the bundled real transcripts", async () => {
    const reports: Array<{ file: string; report: FidelityReport }> = [];
    const summarizer = new MeasuredSummarizer();
    for (const { file, window } of FIXTURES) {
      const engine = new ContextCompressor({ model: { model: MODEL, contextLength: window }, summarizer });
      reports.push({ file, report: await evaluateFidelity(await load(file), { engine, model: MODEL, provider: "anthropic" }) });
    }
    const all = reports.reduce((acc, { report }) => addSurvival(acc, report.survival), emptySurvival());
    // the denominators the floors below are shares of
    expect([all.path.total, all.error.total, all.command.total, all.read.total, all.ask.total]).toEqual([41, 2, 23, 4, 8]);
    // acting commands have the room before reads (issue 32): the floor is on them
    expect([all.path.kept, all.error.kept, all.command.kept, all.ask.kept]).toEqual([
      expect.toSatisfy((n: number) => n >= 39),
      2,
      expect.toSatisfy((n: number) => n >= 21),
      8,
    ]);
    expect(summarizer.calls.length).toBeGreaterThanOrEqual(9);
    for (const { request, tokens } of summarizer.calls) expect(tokens).toBeLessThanOrEqual(request.maxTokens);
  });
});

function call(id: string, name: string, args: unknown) {
  return { id, type: "function" as const, function: { name, arguments: JSON.stringify(args) } };
}

/** Filler that makes a tool output large enough for phase 1 to clear it. */
const NOISE = Array.from({ length: 30 }, (_, i) => `  compiling module_${i} ... ok`).join("\n");

/** Failing commands whose outputs phase 1 clears before the summarizer sees them. */
const FAILURES: Array<[string, string]> = [
  ["go build ./...", `${NOISE}\npkg/cmd/resume.go:4:2: "bufio" imported and not used`],
  ["npx tsc --noEmit", `${NOISE}\nsrc/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.`],
  ["cargo build", `${NOISE}\nerror[E0308]: mismatched types\n --> src/main.rs:4:18`],
  ["pytest -q", `${NOISE}\nFAILED tests/test_api.py::test_create_item - AssertionError: expected 201, got 422\n1 failed in 0.4s`],
  ["go test ./pkg/sessionindex", `${NOISE}\n--- FAIL: TestZZPrefix (3.33s)`],
  ["npx jest", `${NOISE}\n    ✕ subtracts (3 ms)`],
  ["python reproduce.py", `Traceback (most recent call last):\n  File "reproduce.py", line 17, in <module>\n${NOISE}\nAttributeError: 'FileMetaDataset' object has no attribute 'PixelRepresentation'`],
  ["make", `${NOISE}\nmake: *** [Makefile:2: app] Error 1`],
  ["npm install left-padd", `${NOISE}\nnpm ERR! code E404`],
  ["docker build .", `${NOISE}\nERROR: failed to solve: process "/bin/sh -c make" did not complete successfully: exit code: 2`],
];

/** A session of failing commands, then enough later turns for the compressor to summarize them. */
function failingSession(): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: "You are a coding agent." }, { role: "user", content: "Get the build green across all the toolchains." }];
  FAILURES.forEach(([command, output], i) => {
    messages.push({ role: "assistant", content: "", tool_calls: [call(`f${i}`, "Bash", { command })] });
    messages.push({ role: "tool", tool_call_id: `f${i}`, content: `Exit code 1\n${output}` });
  });
  messages.push({ role: "assistant", content: "", tool_calls: [call("e", "Edit", { file_path: "/repo/src/app.ts" })] });
  messages.push({ role: "tool", tool_call_id: "e", content: "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", is_error: true } as ChatMessage);
  for (let i = 0; i < 12; i++) messages.push({ role: "user", content: `step ${i}: ${"more work ".repeat(300)}` }, { role: "assistant", content: `ok ${i}` });
  return messages;
}

/** Compresses `messages` once and returns the summary text and the facts of the turns it replaced. */
async function summarizeOnce(messages: ChatMessage[]) {
  const engine = new ContextCompressor({ model: { model: MODEL, contextLength: 64_000 } });
  const out = await engine.compress(messages, { force: true });
  // the summary may stand alone or be merged into the first tail message (after its own text)
  const summary = findLatestSummary(out) ?? "";
  const middle = messages.slice(engine.lastCompression!.headMessages, messages.length - engine.lastCompression!.tailMessages);
  return { summary, facts: extractFacts(middle) };
}

describe("the extractive summary", () => {
  it("keeps the error signatures of tool outputs that phase 1 cleared, with the failed command", async () => {
    const { summary, facts } = await summarizeOnce(failingSession());
    const errors = facts.filter((f) => f.kind === "error");
    expect(errors).toHaveLength(FAILURES.length + 1);
    const lost: string[] = [];
    survivalByKind(errors, summary, lost as never);
    expect(lost).toEqual([]);
    expect(summary).toContain("ran `pytest -q` → exit 1");
  });

  it("reads SpecStory's {input} arguments: commands and paths", async () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "agent" },
      { role: "user", content: "Look at how search and resume differ." },
      { role: "assistant", content: "", tool_calls: [call("s1", "Bash", { input: "Find search and resume command files\n\n`grep -rl \"search\" pkg/cmd --include=\"*.go\"`" })] },
      { role: "tool", tool_call_id: "s1", content: "pkg/cmd/search.go\npkg/cmd/resume.go" },
      { role: "assistant", content: "", tool_calls: [call("s2", "Read", { input: "`./pkg/cmd/search_tui.go`" })] },
      { role: "tool", tool_call_id: "s2", content: "package cmd\n" + "// line\n".repeat(60) },
      { role: "assistant", content: "", tool_calls: [call("s3", "apply_patch", { input: "**Update: `docs/SEARCH.md`**\n\n```diff\n-a\n+b\n```" })] },
      { role: "tool", tool_call_id: "s3", content: "Success" },
      ...Array.from({ length: 10 }, (_, i): ChatMessage[] => [{ role: "user", content: `later ${i} ${"words ".repeat(400)}` }, { role: "assistant", content: `fine ${i}` }]).flat(),
    ];
    const { summary, facts } = await summarizeOnce(messages);
    const tally = survivalByKind(facts, summary);
    // the grep only reads: the eval counts it as a read, not an acting command
    expect(tally.read).toEqual({ total: 1, kept: 1 });
    expect(tally.command).toEqual({ total: 0, kept: 0 });
    expect(tally.path.total).toBe(2);
    expect(tally.path.kept).toBe(2);
    expect(summary).toContain("./pkg/cmd/search_tui.go — read");
    expect(summary).toContain("docs/SEARCH.md — edited");
  });

  it("keeps every ask, not interrupts or image placeholders", async () => {
    const asks = [
      "Make the resume picker show session titles instead of UUIDs.",
      "Use the first user message as the title when there is none.",
      "Strip the interrupted-by-user markers from titles.",
      "Add a filter for the agent that wrote the session.",
      "Show the project name next to each session.",
      "Sort the sessions by their last update, newest first.",
      "Let tab switch between this project and all projects.",
    ];
    const messages: ChatMessage[] = [{ role: "system", content: "agent" }, { role: "user", content: "Build a world class resume picker for sessions." }];
    for (const ask of asks) {
      messages.push({ role: "assistant", content: "Working on it." }, { role: "user", content: "[Request interrupted by user]" }, { role: "assistant", content: "Stopped." });
      messages.push({ role: "user", content: "[Image: source: /tmp/Xnapper-2026-06-19-11.57.19.png]" }, { role: "assistant", content: "I see the screenshot." }, { role: "user", content: ask });
    }
    messages.push({ role: "assistant", content: "Noted." });
    for (let i = 0; i < 10; i++) messages.push({ role: "user", content: `later ${i} ${"words ".repeat(400)}` }, { role: "assistant", content: `fine ${i}` });
    const { summary, facts } = await summarizeOnce(messages);
    const tally = survivalByKind(facts.filter((f) => f.kind === "ask"), summary);
    expect(tally.ask.total).toBeGreaterThanOrEqual(asks.length);
    expect(tally.ask.kept).toBe(tally.ask.total);
    expect(summary).not.toContain("Request interrupted");
    expect(summary).not.toContain("Xnapper");
  });

  it("pairs a command with its outcome only when the outcome says something", async () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "agent" },
      { role: "user", content: "Survey the repository." },
      { role: "assistant", content: "", tool_calls: [call("l", "Bash", { command: "ls -la src" })] },
      { role: "tool", tool_call_id: "l", content: Array.from({ length: 40 }, (_, i) => `-rw-r--r-- 1 u u 100 file_${i}.ts`).join("\n") },
      { role: "assistant", content: "", tool_calls: [call("t", "Bash", { command: "npm test" })] },
      { role: "tool", tool_call_id: "t", content: "Tests: 2 failed, 40 passed\nExit code 1" },
      { role: "assistant", content: "", tool_calls: [call("e", "Bash", { command: "echo done" })] },
      { role: "tool", tool_call_id: "e", content: "done" },
      ...Array.from({ length: 10 }, (_, i): ChatMessage[] => [{ role: "user", content: `later ${i} ${"words ".repeat(400)}` }, { role: "assistant", content: `fine ${i}` }]).flat(),
    ];
    const { summary } = await summarizeOnce(messages);
    expect(summary).toMatch(/- ran `ls -la src`\n/);
    expect(summary).toContain("- ran `npm test` → exit 1, 2 failed, 40 passed");
    expect(summary).toMatch(/- ran `echo done`\n/);
    expect(summary).not.toMatch(/lines of output|\bno output\b/);
  });
});
