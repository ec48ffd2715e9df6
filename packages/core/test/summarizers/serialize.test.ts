import { describe, expect, it } from "vitest";
import {
  BODY_HEAD_CHARS,
  BODY_TAIL_CHARS,
  MAX_SERIALIZED_CHARS,
  TRUNCATION_MARKER,
  capSerializedInput,
  serializeEach,
  serializeMessage,
  serializeTurns,
  truncateBody,
} from "../../src/summarizers/serialize.js";
import type { ChatMessage } from "../../src/messages/schema.js";

/** A string of `length` characters whose every position is recognisable. */
function numbered(length: number): string {
  let out = "";
  for (let i = 0; out.length < length; i++) out += `${i},`;
  return out.slice(0, length);
}

describe("serializeMessage", () => {
  it("labels each role, renders tool calls with their arguments as written, and names the call a result answers", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "be brief" },
      { role: "user", content: "run the tests" },
      { role: "assistant", content: "running", tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: '{"command":"pytest"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "3 passed" },
      { role: "assistant", content: [{ type: "text", text: "all green" }, { type: "image_url" }] },
    ];
    expect(serializeEach(messages)).toEqual([
      "[SYSTEM]: be brief",
      "[USER]: run the tests",
      "[ASSISTANT]: running\n[Tool calls: terminal(command: pytest)]",
      "[TOOL RESULT c1 — terminal `pytest`]: 3 passed",
      "[ASSISTANT]: all green\n[image]",
    ]);
  });

  it("joins several tool calls of one assistant message", () => {
    const text = serializeMessage({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "a", type: "function", function: { name: "read_file", arguments: '{"path":"a.py"}' } },
        { id: "b", type: "function", function: { name: "read_file", arguments: '{"path":"b.py"}' } },
      ],
    });
    expect(text).toBe("[ASSISTANT]: \n[Tool calls: read_file(path: a.py), read_file(path: b.py)]");
  });

  it("shows a command with quotes and newlines as it ran, not JSON-escaped", () => {
    const script = 'sqlite3 ~/.claude/store.db ".tables"\npython3 -c "print(1)"';
    const text = serializeMessage({ role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "Bash", arguments: JSON.stringify({ command: script, timeout: 5 }) } }] });
    expect(text).toBe(`[ASSISTANT]: \n[Tool calls: Bash(command: ${script}, timeout: 5)]`);
  });

  it("heads a result with the exit status it reports, beside the command it answers", () => {
    const [, result] = serializeEach([
      { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name: "bash", arguments: '{"command":"cd /repo && npm test"}' } }] },
      { role: "tool", tool_call_id: "t", content: "FAIL src/a.test.ts\nExit code 1" },
    ]);
    expect(result!.split("\n")[0]).toBe("[TOOL RESULT t — bash `cd /repo && npm test` → exit 1]: FAIL src/a.test.ts");
  });

  it("puts a cleared output's exit status beside its whole command, where the descriptor cut the command short", () => {
    const command = "cd /home/dev/projects/some/deeply/nested/repository/checkout && npm run test:unit -- --reporter=dot";
    const [, result] = serializeEach([
      { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }] },
      { role: "tool", tool_call_id: "t", content: "[Old tool output cleared to save context space] [bash] ran `cd /home/dev/projects/some/deeply/nested/repository/checkout && npm run t…` -> exit 1, 300 lines output" },
    ]);
    expect(result!.split("\n")[0]).toContain(`bash \`${command}\` → exit 1]`);
  });

  it("leaves terminal colours out of what the summary model reads", () => {
    expect(serializeMessage({ role: "tool", tool_call_id: "t", content: "\u001b[31mFAILED\u001b[0m tests/test_a.py::test_b" })).toBe("[TOOL RESULT t]: FAILED tests/test_a.py::test_b");
  });

  it("keeps arguments that are not a JSON object as they came", () => {
    const text = serializeMessage({ role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "apply_patch", arguments: "*** Begin Patch" } }] });
    expect(text).toBe("[ASSISTANT]: \n[Tool calls: apply_patch(*** Begin Patch)]");
  });

  it("keeps a long user or assistant turn whole up to 24,000 characters, and its two ends beyond", () => {
    const report = numbered(20_000);
    expect(serializeMessage({ role: "user", content: report })).toBe(`[USER]: ${report}`);
    const longer = numbered(30_000);
    expect(serializeMessage({ role: "assistant", content: longer })).toBe(`[ASSISTANT]: ${longer.slice(0, 16_000)}${TRUNCATION_MARKER}${longer.slice(-6_000)}`);
  });

  it("truncates a long tool result body", () => {
    const body = numbered(10_000);
    const text = serializeMessage({ role: "tool", tool_call_id: "x", content: body });
    expect(text).toBe(`[TOOL RESULT x]: ${body.slice(0, 4_000)}${TRUNCATION_MARKER}${body.slice(-1_500)}`);
  });
});

describe("truncateBody", () => {
  it("keeps a body of exactly 6,000 characters whole", () => {
    const body = numbered(6_000);
    expect(truncateBody(body)).toBe(body);
  });

  it("keeps the first 4,000 and last 1,500 characters of a longer body", () => {
    const body = numbered(6_001);
    const out = truncateBody(body);
    expect(out).toBe(body.slice(0, BODY_HEAD_CHARS) + "\n...[truncated]...\n" + body.slice(body.length - BODY_TAIL_CHARS));
    expect(out.length).toBe(4_000 + 1_500 + TRUNCATION_MARKER.length);
  });
});

describe("capSerializedInput", () => {
  it("leaves a transcript within the cap untouched", () => {
    const text = numbered(MAX_SERIALIZED_CHARS);
    expect(capSerializedInput(text)).toBe(text);
  });

  it("caps a long transcript at 160,000 characters, 45 % from the start and 55 % from the end", () => {
    const text = numbered(400_000);
    const out = capSerializedInput(text);
    expect(out.length).toBeLessThanOrEqual(MAX_SERIALIZED_CHARS);
    const [head, tail] = out.split(TRUNCATION_MARKER) as [string, string];
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(head.length / (head.length + tail.length)).toBeCloseTo(0.45, 3);
  });

  it("applies to whole conversations through serializeTurns", () => {
    const messages: ChatMessage[] = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `${i}:` + numbered(5_000) }));
    const out = serializeTurns(messages);
    expect(out.length).toBeLessThanOrEqual(MAX_SERIALIZED_CHARS);
    expect(out.startsWith("[USER]: 0:")).toBe(true);
    expect(out).toContain("[ASSISTANT]: 59:");
  });
});

describe("a long body's cut part", () => {
  it("keeps the error lines of the part it cuts out, so a failure in the middle of a long run is still shown", () => {
    const body = `${"ok line\n".repeat(600)}FAILED tests/test_parser.py::test_unicode - AssertionError\n${"ok line\n".repeat(600)}`;
    const out = truncateBody(body);
    expect(out.length).toBeLessThan(body.length);
    expect(out).toContain("FAILED tests/test_parser.py::test_unicode");
  });

  it("keeps a linter's tenth error from the cut part as well as its first", () => {
    const errors = Array.from({ length: 12 }, (_, i) => `pkg/cmd/resume.go:${270 + i}:14: Error return value of \`fmt.Fprintln\` is not checked (errcheck)`);
    const body = `${"ok line\n".repeat(600)}${errors.join("\n")}\n${"ok line\n".repeat(600)}`;
    const out = truncateBody(body);
    expect(out.length).toBeLessThan(body.length);
    for (const line of errors.slice(0, 10)) expect(out).toContain(line);
  });

  it("cuts a long body without errors as before", () => {
    const body = numbered(10_000);
    expect(truncateBody(body)).toBe(`${body.slice(0, 4_000)}${TRUNCATION_MARKER}${body.slice(-1_500)}`);
  });
});
