import { describe, expect, it } from "vitest";
import { importClaudeCode } from "../../src/importers/claudeCode.js";
import { TranscriptImportError } from "../../src/importers/types.js";
import { countRoles, countToolCalls, expectValidConversation, rawFixture } from "./helpers.js";

const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const user = (content: unknown, extra: object = {}) => ({ type: "user", message: { role: "user", content }, ...extra });
const assistant = (id: string | undefined, block: unknown, extra: object = {}) => ({
  type: "assistant",
  message: { ...(id === undefined ? {} : { id }), role: "assistant", content: [block] },
  ...extra,
});
const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const toolResult = (id: string, content: unknown, isError?: boolean) => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  ...(isError === undefined ? {} : { is_error: isError }),
});

describe("importClaudeCode", () => {
  it("merges assistant records sharing message.id into one message, tool results after it", () => {
    const text = jsonl(
      user("list the files"),
      assistant("msg_1", { type: "thinking", thinking: "plan" }),
      assistant("msg_1", { type: "text", text: "Looking." }),
      assistant("msg_1", toolUse("toolu_a", "Bash", { command: "ls" })),
      user([toolResult("toolu_a", "a.txt")]),
      assistant("msg_1", toolUse("toolu_b", "Bash", { command: "pwd" })),
      user([toolResult("toolu_b", [{ type: "text", text: "/tmp" }, { type: "text", text: "done" }])]),
      assistant("msg_2", { type: "text", text: "Two files." }),
    );
    const { messages, warnings } = importClaudeCode(text, { fileName: "s.jsonl" });
    expect(warnings).toEqual([]);
    expect(messages).toEqual([
      { role: "user", content: "list the files" },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [
          { id: "toolu_a", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } },
          { id: "toolu_b", type: "function", function: { name: "Bash", arguments: '{"command":"pwd"}' } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_a", content: "a.txt" },
      { role: "tool", tool_call_id: "toolu_b", content: "/tmp\ndone" },
      { role: "assistant", content: "Two files." },
    ]);
    expectValidConversation(messages);
  });

  it("keeps is_error on a failed tool result and puts the user's text after the results", () => {
    const text = jsonl(
      user("go"),
      assistant("m1", toolUse("t1", "Run", {})),
      user([toolResult("t1", "boom", true), { type: "text", text: "[Request interrupted by user]" }]),
    );
    const { messages } = importClaudeCode(text);
    expect(messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "t1", content: "boom", is_error: true },
      { role: "user", content: "[Request interrupted by user]" },
    ]);
    expectValidConversation(messages);
  });

  it("reports a tool_use without a result and leaves it out of tool_calls", () => {
    const text = jsonl(user("go"), assistant("m1", { type: "text", text: "Running." }), assistant("m1", toolUse("t9", "Bash", { command: "sleep 1" })));
    const { messages, warnings } = importClaudeCode(text, { fileName: "cut.jsonl" });
    expect(messages).toEqual([{ role: "user", content: "go" }, { role: "assistant", content: "Running." }]);
    expect(warnings).toEqual(['cut.jsonl:2: tool call "t9" (Bash) has no result; left out of tool_calls']);
  });

  it("moves a tool result that arrives after a user message next to its call, and drops an orphan result", () => {
    const text = jsonl(
      user("go"),
      assistant("m1", toolUse("t1", "Read", { path: "a" })),
      user("hurry up"),
      user([toolResult("t1", "contents"), toolResult("t_gone", "stray")]),
    );
    const { messages, warnings } = importClaudeCode(text, { fileName: "late.jsonl" });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(warnings).toEqual([
      'late.jsonl:4: tool result for "t1" was not right after its call (late.jsonl:2); moved there',
      'late.jsonl:4: tool result for "t_gone" answers no tool call; left out',
    ]);
    expectValidConversation(messages);
  });

  it("skips sidechain records with one warning and keeps isMeta records as user messages", () => {
    const text = jsonl(
      user("task"),
      user("sub-agent prompt", { isSidechain: true }),
      assistant("side", { type: "text", text: "sub-agent answer" }, { isSidechain: true }),
      assistant("m1", { type: "text", text: "done" }),
      user("Stop hook feedback: keep going", { isMeta: true }),
      { type: "system", subtype: "stop_hook_summary", content: null },
      { type: "summary", summary: "title" },
    );
    const { messages, warnings } = importClaudeCode(text, { fileName: "f.jsonl" });
    expect(messages.map((m) => m.content)).toEqual(["task", "done", "Stop hook feedback: keep going"]);
    expect(warnings).toEqual(["f.jsonl: skipped 2 sidechain record(s) (sub-agent conversations)"]);
  });

  it("turns malformed lines of claude-code-log's edge_cases.jsonl into warnings naming file:line", () => {
    const { messages, warnings } = importClaudeCode(rawFixture("claude-code-log/test/test_data/edge_cases.jsonl"), { fileName: "edge_cases.jsonl" });
    expectValidConversation(messages);
    const lines = (prefix: string) => warnings.filter((w) => w.startsWith(prefix));
    expect(lines("edge_cases.jsonl:10:")[0]).toMatch(/malformed user record.*message\.content/);
    expect(lines("edge_cases.jsonl:11:")[0]).toMatch(/malformed user record/);
    expect(lines("edge_cases.jsonl:13:")).toEqual(["edge_cases.jsonl:13: record is a string, not an object; skipped"]);
    expect(lines("edge_cases.jsonl:14:")).toEqual(['edge_cases.jsonl:14: record has no "type"; skipped']);
    expect(lines("edge_cases.jsonl:15:")).toEqual(["edge_cases.jsonl:15: record is a number, not an object; skipped"]);
    expect(lines("edge_cases.jsonl:16:")).toEqual(["edge_cases.jsonl:16: record is an array, not an object; skipped"]);
    expect(lines("edge_cases.jsonl:18:")).toEqual(["edge_cases.jsonl:18: content[0] is a string, not a content block; skipped"]);
    // line 10's result was malformed, so the MultiEdit call of line 9 has no result
    expect(warnings).toContain('edge_cases.jsonl:9: tool call "tool_edge_002" (MultiEdit) has no result; left out of tool_calls');
    expect(messages.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: "tool_edge_001", is_error: true });
  });

  it("skips one record nested too deeply to read with a warning naming file:line, and imports the rest", () => {
    const deepInput = `${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}`;
    const deepRecord = `{"type":"assistant","message":{"id":"msg_deep","role":"assistant","content":[{"type":"tool_use","id":"toolu_deep","name":"Bash","input":${deepInput}}]}}`;
    const text = [
      JSON.stringify(user("start")),
      JSON.stringify(assistant("msg_1", { type: "text", text: "Working." })),
      deepRecord,
      JSON.stringify(assistant("msg_2", { type: "text", text: "Still here." })),
      JSON.stringify(user("thanks")),
    ].join("\n");
    const { messages, warnings } = importClaudeCode(text, { fileName: "deep.jsonl" });
    expect(messages.map((m) => m.content)).toEqual(["start", "Working.", "Still here.", "thanks"]);
    expect(warnings).toEqual([expect.stringMatching(/^deep\.jsonl:3: record nested too deeply to read .*; skipped$/)]);
  });

  it("keeps what an assistant message already had when a later record of the same message is too deep", () => {
    const deepInput = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const text = [
      JSON.stringify(user("start")),
      JSON.stringify(assistant("msg_1", { type: "text", text: "Working." })),
      `{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"half"},{"type":"tool_use","id":"toolu_deep","name":"Bash","input":${deepInput}}]}}`,
    ].join("\n");
    const { messages, warnings } = importClaudeCode(text, { fileName: "deep.jsonl" });
    expect(messages).toEqual([{ role: "user", content: "start" }, { role: "assistant", content: "Working." }]);
    expect(warnings).toEqual([expect.stringMatching(/^deep\.jsonl:3: record nested too deeply/)]);
  });

  it("reports a line that is not JSON and goes on with the next", () => {
    const text = jsonl(user("a")) + "{not json\n" + jsonl(assistant("m", { type: "text", text: "b" }));
    const { messages, warnings } = importClaudeCode(text, { fileName: "x.jsonl" });
    expect(messages.map((m) => m.content)).toEqual(["a", "b"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^x\.jsonl:2: invalid JSON/);
  });

  it("reads the web export {loglines: [...]} of claude-code-transcripts", () => {
    const { messages, warnings } = importClaudeCode(rawFixture("claude-code-transcripts/tests/sample_session.json"));
    expect(warnings).toEqual([]);
    expectValidConversation(messages);
    expect(countRoles(messages)).toEqual({ user: 6, assistant: 15, tool: 12 });
    expect(countToolCalls(messages)).toBe(12);
  });

  it("imports a real claude-reliability run with its stop-hook feedback", () => {
    const { messages, warnings } = importClaudeCode(rawFixture("claude-reliability/snapshot-tests/tests/stop-hook-reflection-first-stop/transcript.jsonl"));
    expect(warnings).toEqual([]);
    expectValidConversation(messages);
    expect(countToolCalls(messages)).toBe(4);
    expect(messages.some((m) => m.role === "user" && String(m.content).startsWith("Stop hook feedback"))).toBe(true);
  });

  it("turns base64 images of user messages into image_url parts", () => {
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } };
    const { messages } = importClaudeCode(jsonl(user([{ type: "text", text: "see" }, image])));
    expect(messages[0]?.content).toEqual([
      { type: "text", text: "see" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
    ]);
  });

  it("fails with the file name when there are no user/assistant records", () => {
    expect(() => importClaudeCode(jsonl({ type: "summary", summary: "x" }), { fileName: "empty.jsonl" })).toThrow(TranscriptImportError);
    expect(() => importClaudeCode("", { fileName: "empty.jsonl" })).toThrow(/empty\.jsonl/);
  });
});

describe("importClaudeCode timestamps", () => {
  it("keeps each record's time on its message, so a replay can use real request times", () => {
    const lines = [
      { type: "user", timestamp: "2026-01-05T10:00:00.000Z", message: { role: "user", content: "Run the tests" } },
      { type: "assistant", timestamp: "2026-01-05T10:00:04.000Z", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "pytest" } }] } },
      { type: "user", timestamp: "2026-01-05T10:00:09.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "3 passed" }] } },
    ].map((l) => JSON.stringify(l)).join("\n");
    const { messages } = importClaudeCode(lines, { fileName: "t.jsonl" });
    expect(messages.map((m) => [m.role, m.timestamp])).toEqual([
      ["user", "2026-01-05T10:00:00.000Z"],
      ["assistant", "2026-01-05T10:00:04.000Z"],
      ["tool", "2026-01-05T10:00:09.000Z"],
    ]);
  });
});
