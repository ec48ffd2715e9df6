import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectTranscriptFormat, importTranscript, importTranscriptFile, TranscriptImportError } from "../../src/importers/index.js";
import { parseMessages } from "../../src/messages/schema.js";
import { expectValidConversation, FIXTURES_DIR, rawFixture } from "./helpers.js";

const RAW_FORMATS: [string, string][] = [
  ["claude-code-log/test/test_data/edge_cases.jsonl", "claude-code"],
  ["claude-code-transcripts/tests/sample_session.json", "claude-code"],
  ["claude-reliability/snapshot-tests/tests/stop-hook-reflection-first-stop/transcript.jsonl", "claude-code"],
  ["swe-agent/trajectories/demonstrations/function_calling_simple.traj", "swe-agent"],
  ["openhands/tests/runtime/trajs/basic.json", "openhands"],
  ["openhands-sdk/tests/fixtures/llm_data/fncall-llm-message.json", "openai"],
  ["openhands-sdk/tests/fixtures/llm_data/llm-logs/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json", "openai"],
];

const tempDir = mkdtempSync(join(tmpdir(), "importers-"));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

describe("importTranscript", () => {
  it.each(RAW_FORMATS)("detects %s as %s from its content and imports valid messages", (path, format) => {
    const text = rawFixture(path);
    expect(detectTranscriptFormat(text)).toBe(format);
    const result = importTranscript(text, { fileName: path });
    expect(result.format).toBe(format);
    expect(result.messages.length).toBeGreaterThan(2);
    expectValidConversation(result.messages);
  });

  it("uses the format it is given instead of detecting", () => {
    const text = rawFixture("openhands-sdk/tests/fixtures/llm_data/fncall-llm-message.json");
    expect(() => importTranscript(text, { format: "swe-agent", fileName: "m.json" })).toThrow(/^m\.json: not a SWE-agent trajectory/);
  });

  it("fails with an error naming the file when the format is unknown", () => {
    expect(() => importTranscript('{"hello": "world"}', { fileName: "notes.json" })).toThrow(TranscriptImportError);
    expect(() => importTranscript("just text", { fileName: "notes.txt" })).toThrow(/^notes\.txt: cannot detect the transcript format/);
    expect(() => importTranscript("[]", { format: "markdown" as never, fileName: "a.md" })).toThrow(/^a\.md: unknown format "markdown"/);
  });

  it("reports malformed JSON as invalid JSON at line:col instead of an undetectable format", () => {
    expect(() => importTranscript('[{"role": "user", "content": "hi"},', { fileName: "t.json" })).toThrow(/^t\.json: invalid JSON at 1:36: Unexpected end of JSON input$/);
    const badToken = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", content: "yo"}\n]';
    expect(() => importTranscript(badToken, { fileName: "t.json" })).toThrow(/^t\.json: invalid JSON at 3:25: Expected double-quoted property name$/);
    expect(() => importTranscript('{"messages": [}', { fileName: "t.json", format: "openai" })).toThrow(/^t\.json: invalid JSON at 1:15: /);
  });

  it("keeps reporting JSON Lines errors per line", () => {
    const lines = '{"type": "summary", "summary": "s"}\n{broken\n';
    expect(() => importTranscript(lines, { fileName: "x.jsonl" })).not.toThrow(/invalid JSON at/);
  });

  it("takes a .traj extension as a hint when the content says nothing", () => {
    expect(detectTranscriptFormat('{"history": []}', "run.traj")).toBe("swe-agent");
    expect(detectTranscriptFormat('{"history": []}', "run.json")).toBeUndefined();
  });

  it("passes record through to OpenHands eval output", () => {
    const events = JSON.parse(rawFixture("openhands/tests/runtime/trajs/basic.json")) as unknown[];
    const text = [events.slice(0, 3), events].map((history) => JSON.stringify({ instance_id: "x", history })).join("\n");
    expect(importTranscript(text, { record: 0 }).messages).toHaveLength(3);
    expect(importTranscript(text).messages).toHaveLength(4);
  });
});

describe("importTranscriptFile", () => {
  it("reads a file and names it in warnings", async () => {
    const path = join(tempDir, "session.jsonl");
    writeFileSync(path, rawFixture("claude-code-log/test/test_data/edge_cases.jsonl"));
    const result = await importTranscriptFile(path);
    expect(result.format).toBe("claude-code");
    expect(result.warnings.some((w) => w.startsWith(`${path}:13:`))).toBe(true);
  });

  it("fails naming the path of a missing file", async () => {
    const path = join(tempDir, "missing.jsonl");
    await expect(importTranscriptFile(path)).rejects.toThrow(`${path}: cannot read the transcript`);
  });
});

describe("bundled converted fixtures", () => {
  it.each([
    ["python-to-rust-port.json", 80, 39],
    ["marshmallow-1867.json", 24, 11],
  ])("%s holds %i valid messages with %i tool calls", (file, count, calls) => {
    const messages = parseMessages(JSON.parse(readFileSync(resolve(FIXTURES_DIR, file), "utf8")), file);
    expect(messages).toHaveLength(count);
    expect(messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0)).toBe(calls);
    expectValidConversation(messages);
  });
});
