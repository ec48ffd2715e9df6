import { describe, expect, it } from "vitest";
import { importSweAgent } from "../../src/importers/sweAgent.js";
import { TranscriptImportError } from "../../src/importers/types.js";
import { countRoles, expectValidConversation, rawFixture } from "./helpers.js";

const SIMPLE = "swe-agent/trajectories/demonstrations/function_calling_simple.traj";

/** What Python's repr() prints for JSON-like values (single-quoted strings). */
function pyRepr(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value as object).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}

const trajectory = (history: unknown[]) => JSON.stringify({ history });

describe("importSweAgent", () => {
  it("imports a function-calling trajectory with tool_call_ids lists", () => {
    const { messages, warnings } = importSweAgent(rawFixture(SIMPLE), { fileName: "simple.traj" });
    expect(warnings).toEqual([]);
    expectValidConversation(messages);
    expect(countRoles(messages)).toEqual({ system: 1, user: 1, assistant: 5, tool: 5 });
    expect(messages[2]?.tool_calls?.[0]).toEqual({
      id: "call_PbWErNIge3YTrli3fiVvmIid",
      type: "function",
      function: { name: "find_file", arguments: '{"file_name":"missing_colon.py"}' },
    });
    expect(messages[3]).toMatchObject({ role: "tool", tool_call_id: "call_PbWErNIge3YTrli3fiVvmIid" });
    expect(messages[2]).not.toHaveProperty("thought");
  });

  it("parses tool_calls and tool_call_ids stored as Python repr strings like their JSON lists", () => {
    const original = JSON.parse(rawFixture(SIMPLE)) as { history: Record<string, unknown>[] };
    const reprHistory = original.history.map((entry) => ({
      ...entry,
      ...(Array.isArray(entry.tool_calls) ? { tool_calls: pyRepr(entry.tool_calls) } : {}),
      ...(Array.isArray(entry.tool_call_ids) ? { tool_call_ids: pyRepr(entry.tool_call_ids) } : {}),
    }));
    expect(typeof reprHistory[2]?.tool_calls).toBe("string");
    const fromRepr = importSweAgent(JSON.stringify({ history: reprHistory }));
    expect(fromRepr.warnings).toEqual([]);
    expect(fromRepr.messages).toEqual(importSweAgent(rawFixture(SIMPLE)).messages);
  });

  it("turns a text-style trajectory into plain messages, keeping consecutive user messages", () => {
    const { messages, warnings } = importSweAgent(
      trajectory([
        { role: "system", content: "You are an agent." },
        { role: "user", content: "Here is a demonstration...", is_demo: true },
        { role: "user", content: "Fix the bug." },
        { role: "assistant", content: "DISCUSSION\nLet me look.\n```\nls\n```", thought: "Let me look.", action: "ls" },
        { role: "user", content: "a.py" },
      ]),
    );
    expect(warnings).toEqual([]);
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "user", "assistant", "user"]);
    expect(messages.every((m) => m.tool_calls === undefined && !("is_demo" in m))).toBe(true);
    expectValidConversation(messages);
  });

  it("renames a call id a later turn reuses, pairing each result with the call just before it", () => {
    const call = (id: string) => [{ id, type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }];
    const { messages, warnings } = importSweAgent(
      trajectory([
        { role: "user", content: "go" },
        { role: "assistant", content: "first", tool_calls: call("call_1") },
        { role: "tool", content: "one", tool_call_ids: ["call_1"] },
        { role: "assistant", content: "again", tool_calls: call("call_1") },
        { role: "tool", content: "two", tool_call_ids: ["call_1"] },
      ]),
      { fileName: "replay.traj" },
    );
    expect(messages[3]?.tool_calls?.[0]?.id).toBe("call_1_2");
    expect(messages[4]).toEqual({ role: "tool", tool_call_id: "call_1_2", content: "two" });
    expect(warnings).toEqual(['replay.traj: history[3]: tool call "call_1" (bash) reuses an earlier id; renamed "call_1_2"']);
    expectValidConversation(messages);
  });

  it("reports an unparseable tool_calls string and a tool entry without ids", () => {
    const { messages, warnings } = importSweAgent(
      trajectory([
        { role: "user", content: "go" },
        { role: "assistant", content: "thinking", tool_calls: "[{'id': " },
        { role: "tool", content: "output" },
      ]),
      { fileName: "t.traj" },
    );
    expect(warnings[0]).toMatch(/^t\.traj: history\[1\]: tool_calls string is neither JSON nor a Python literal/);
    expect(warnings[1]).toBe("t.traj: history[2]: tool entry without tool_call_ids; kept as a user message");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("fails with the file name on input without a history list", () => {
    expect(() => importSweAgent("{}", { fileName: "bad.traj" })).toThrow(TranscriptImportError);
    expect(() => importSweAgent("{}", { fileName: "bad.traj" })).toThrow(/^bad\.traj: not a SWE-agent trajectory/);
    expect(() => importSweAgent("{oops", { fileName: "bad.traj" })).toThrow(/^bad\.traj: invalid JSON/);
  });
});
