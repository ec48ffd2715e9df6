import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { detectTranscriptFormat, importTranscript } from "../../src/importers/index.js";
import { countRoles, countToolCalls, expectValidConversation, FIXTURES_DIR } from "./helpers.js";

const TEXT = "mini-swe-agent-v2-textbased.traj.json";
const TOOLCALL = "mini-swe-agent-v2-toolcall.traj.json";
const V1 = "mini-swe-agent-v1.traj.json";

function handwritten(name: string): string {
  return readFileSync(resolve(FIXTURES_DIR, "handwritten", name), "utf8");
}

describe("mini-swe-agent trajectories (.traj.json)", () => {
  it("is detected by its trajectory_format", () => {
    for (const name of [TEXT, TOOLCALL, V1]) expect(detectTranscriptFormat(handwritten(name), name)).toBe("mini-swe-agent");
  });

  it("imports a v2 tool-calling trajectory that ends with a role: exit message, the submission answering the last call", () => {
    const result = importTranscript(handwritten(TOOLCALL), { fileName: TOOLCALL });
    expect(result.format).toBe("mini-swe-agent");
    expectValidConversation(result.messages);
    expect(countRoles(result.messages)).toEqual({ system: 1, user: 1, assistant: 2, tool: 2 });
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_a2", content: "diff --git a/slug.py b/slug.py\n" });
    expect(result.messages.some((m) => "extra" in m)).toBe(false);
    expect(result.warnings).toEqual([]);
  });

  it("reads a v2 text-based trajectory's extra.actions as bash tool calls answered by the observation that follows", () => {
    const result = importTranscript(handwritten(TEXT), { fileName: TEXT });
    expectValidConversation(result.messages);
    expect(countToolCalls(result.messages)).toBe(3);
    expect(countRoles(result.messages)).toEqual({ system: 1, user: 1, assistant: 3, tool: 3 });
    const first = result.messages[2];
    expect(first?.content).toMatch(/^THOUGHT: Let me find the slugify function first\./);
    expect(first?.tool_calls).toEqual([{ id: "mswea_1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: 'grep -rn "def slugify" .' }) } }]);
    expect(result.messages[3]).toEqual({ role: "tool", tool_call_id: "mswea_1", content: "<returncode>0</returncode>\n<output>\n./slug.py:3:def slugify(text):\n</output>" });
    expect(result.warnings).toEqual([]);
  });

  it("reads a v1 trajectory's one ```bash block per answer as its tool call", () => {
    const result = importTranscript(handwritten(V1), { fileName: V1 });
    expectValidConversation(result.messages);
    expect(result.messages.flatMap((m) => m.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments).command)).toEqual([
      'grep -rn "def slugify" .',
      "echo MINI_SWE_AGENT_FINAL_OUTPUT && git diff",
    ]);
    expect(countRoles(result.messages)).toEqual({ system: 1, user: 1, assistant: 2, tool: 2 });
  });

  it("keeps an answer with no or several bash blocks as text (mini-swe-agent rejects it with a format error)", () => {
    const doc = JSON.parse(handwritten(V1)) as { messages: Array<{ role: string; content: string }> };
    doc.messages[2] = { role: "assistant", content: "```bash\nls\n```\n\n```bash\npwd\n```" };
    doc.messages[3] = { role: "user", content: "Please always provide EXACTLY ONE action in triple backticks, found 2 actions." };
    const result = importTranscript(JSON.stringify(doc), { fileName: V1 });
    expect(result.messages[2]?.tool_calls).toBeUndefined();
    expect(result.messages[3]).toMatchObject({ role: "user" });
  });

  it("names the message index of an entry it cannot read", () => {
    const doc = JSON.parse(handwritten(TOOLCALL)) as { messages: unknown[] };
    doc.messages.splice(2, 0, { role: 42 });
    const result = importTranscript(JSON.stringify(doc), { fileName: TOOLCALL });
    expect(result.warnings.some((w) => w.startsWith(`${TOOLCALL}: messages[2]:`))).toBe(true);
  });
});
